"""Vast's domain events (Vast rulebook; docs/vast/facts.md). Stored names are forever: the topic of each
is ``vast/<ClassName>`` and its tag ``vast.<ClassName>`` (docs/event-model.md, Stored names are forever).

Facts that are half public are split (docs/vast/architecture.md, Principles): a Dark tile placed is one event
whose ``tile`` only the Cave may read (``dicelog.domain.vast.visibility``); everything else in it is public.
Positions are ``x``/``y`` from the Entrance (north and east positive).
"""

from __future__ import annotations

from dicelog.domain.core.events import Event


class VastEvent(Event, kw_only=True, tag=lambda name: f"vast.{name}"):
    """Base of Vast's events."""


class RolesSeated(VastEvent, kw_only=True):
    """The roles in play and the setup used (docs/vast/facts.md §7 Setup by player count)."""

    roles: tuple[str, ...]
    """Roles in turn order."""
    setup: str
    """The docs/vast/facts.md §7 row (``knight-vs-cave``)."""
    variants: tuple[str, ...] = ()
    """Variant cards in play (``flare:knight``, ``infestation:B``)."""
    sidequests: tuple[str, ...] = ()
    """The Sidequest deck after the setup's removals (Vast rulebook §Preparazione; docs/vast/facts.md §2
    Sidequests)."""


class StackBuilt(VastEvent, kw_only=True):
    """The tile stack is built (docs/vast/facts.md §1 Tile stack setup): three piles, each with 3 Crystal
    tiles (and 2 Vault tiles with the Thief)."""

    piles: tuple[int, ...]
    """Tiles in each pile, top pile first."""
    pile_crystals: tuple[int, ...]
    """Crystal tiles shuffled into each pile."""
    pile_vaults: tuple[int, ...] = ()
    """Vault tiles shuffled into each pile (Thief games: 2 each)."""


class VastRoundStarted(VastEvent, kw_only=True, tag="vast.RoundStarted"):
    """A new round: every role in play has a turn, in turn order (docs/vast/facts.md §7)."""

    round: int
    """The round that begins."""


class VastTurnStarted(VastEvent, kw_only=True, tag="vast.TurnStarted"):
    """A role's turn begins (each role's §Riepilogo del Turno)."""

    role: str
    """The role whose turn begins."""
    round: int
    """The round."""
    as_laid: bool = False
    """A sandbox table's turn begun as laid (``dicelog.domain.vast.rules.sandbox``): what its role did this
    turn (the Knight's placed Hero cubes and Encounters, the Thief's Stat tokens and Action cubes) is kept,
    not cleared as at a turn's start."""


class VastTurnEnded(VastEvent, kw_only=True, tag="vast.TurnEnded"):
    """A role's turn ends."""

    role: str
    """The role whose turn ended."""


class TurnEnding(VastEvent, kw_only=True):
    """Without a Cave player, the end of a turn owes the Cave's work (Vast rulebook §Varianti,
    docs/vast/facts.md §7 No Cave player): the Past Plunder card's Treasure token (``plunder``), then a Dark
    tile placed (``shape``) or, once the Collapse has begun, 3 tiles removed (``remove`` x3). The steps run in
    order before ``TurnEnded``."""

    role: str
    """The role whose turn is ending."""
    steps: tuple[str, ...] = ()
    """The steps owed, in order (``plunder``, ``shape``, ``remove``)."""


class StepPassed(VastEvent, kw_only=True):
    """A step owed at the end of a turn cannot be done (no tile left to place, no tile to remove, no Dark
    tile for a Treasure token), so it is passed."""

    step: str
    """The step passed (``plunder``, ``shape``, ``remove``)."""
    why: str
    """Why, in words."""


class DarkTilePlaced(VastEvent, kw_only=True):
    """A tile is placed Dark side up (Vast rulebook §Tessere Caverna; §2. Modella la Caverna). ``tile`` is the
    Cave's secret; ``symbol`` is public."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    tile: str
    """The tile id: the Cave's secret, ``"?"`` for others."""
    symbol: str
    """The Tribe symbol on its Dark side (``fangs``, ``bones``, ``eye``): public."""
    by: str = "cave"
    """The role placing it (the Cave; ``setup`` for the 4 tiles round the Entrance; without a Cave player,
    the role drawing it from the stack)."""
    step: str = ""
    """The end-of-turn step it completes (``shape``: no Cave player), else empty."""
    own_turn: bool = False
    """Placed on the Cave's own turn (Shape the Cave, Hatred) rather than filling an open edge."""


class TileRevealed(VastEvent, kw_only=True):
    """A Dark tile is turned Lit side up (Vast rulebook §Rivelare e risolvere le tessere Buie)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    tile: str
    """The tile id, now public."""
    by: str
    """The role that revealed it."""
    step: str = ""
    """The chain step this completes (``reveal:x,y:mode``), if any."""
    mode: str = "full"
    """``full``: the Knight entered it (resolve it, then +1 Grit); ``vantage``: Vantage Point (its tokens,
    then +1 Grit); ``flare``: Flare (its tokens only). See docs/vast/rulings.md."""
    rotation: int | None = None
    """The rotation when only one is possible; ``None`` when the revealer chooses (``orient`` decision)."""


class TileOriented(VastEvent, kw_only=True):
    """The revealed tile's rotation, chosen by the revealer (Vast rulebook §Consigli Rapidi - Generali)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    rotation: int
    """Quarter turns clockwise (0-3)."""


class TileResolved(VastEvent, kw_only=True):
    """A revealed tile's room takes effect (Vast rulebook §Rivelare e risolvere: Evento, Imboscata, Sala del
    Tesoro, Cristallo, Cripta)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    kind: str
    """The room: ``ambush``, ``event``, ``treasure-room``, ``crystal``."""
    step: str
    """The step of the chain this resolves (``resolve:x,y:mode``)."""
    treasure: int = 0
    """Treasure tokens placed (a Treasure Room: 1)."""
    crystal: bool = False
    """A Crystal token placed (a Crystal tile)."""
    mode: str = "full"
    """As ``TileRevealed.mode``: only ``full`` (the Knight entered it) triggers an Event or an Ambush."""
    vault: bool = False
    """A Vault token placed (a Vault tile, with the Thief in play: Vast rulebook §Cripta)."""


class GritChanged(VastEvent, kw_only=True):
    """The Knight's Grit changes (Vast rulebook §Coraggio), clamped to 0-45; the Shield makes a loss 1."""

    delta: int
    """The change applied (after the Shield and the clamp)."""
    why: str
    """``reveal``, ``crystal``, ``decline-treasure``, ``sidequest``, ``rats``, ``spores``, ``no-treasure``."""
    step: str = ""
    """The chain step this completes, if any."""


class HeroCubeReturned(VastEvent, kw_only=True):
    """Grit fell below a cube's space and no unused cube was left: a placed cube goes back (Vast rulebook
    §Coraggio); the Knight's turn ends at once."""

    target: str
    """Where the returned cube was placed."""


class KnightMoved(VastEvent, kw_only=True):
    """The Knight moves one tile (Vast rulebook §2. Muovi e Agisci), maybe through a wall with the Ancient
    Map."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    through_wall: bool = False
    """Through a wall, with an Ancient Map cube."""
    forced: bool = False
    """Moved by a rule (stepping off a collapsing tile) rather than by her movement."""
    why: str = ""
    """What moved her when ``forced``: ``underworm`` (its Ambush text, docs/vast/facts.md §3 Monster cards);
    empty: she stepped off a collapsing tile."""


class HeroCubePlaced(VastEvent, kw_only=True):
    """A Hero cube on a stat, an equipment or a Treasure card (Vast rulebook §Cubetti Eroe)."""

    target: str
    """``movement``, ``perception``, ``strength``, ``map``, ``bomb``, ``shield`` or a Treasure card id."""


class EncounterBegun(VastEvent, kw_only=True):
    """The Knight spends an Encounter on her tile (Vast rulebook §2. Muovi e Agisci)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""

    attack: bool = False
    """She entered a tile with revealed Tribes: she attacks them in this Encounter, after the reveal (Vast
    rulebook §Interagire con i Goblin)."""


class CrystalSmashed(VastEvent, kw_only=True):
    """The Knight smashes the Crystal on her tile (Vast rulebook §Cristalli: Strength 3+, +2 Grit)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""


class TreasureTokenTaken(VastEvent, kw_only=True):
    """The Knight collects the Treasure tokens of her tile (Vast rulebook §Tesori e Gemme), each resolved in
    turn; they return to the Cave (§Tesori)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    count: int = 1
    """Tokens collected."""
    gems: tuple[str, ...] = ()
    """Dragon Gems picked up with them, each then rolled for (Vast rulebook §Tesori e Gemme, Gemme di
    Drago)."""


class TreasureOffered(VastEvent, kw_only=True):
    """The Cave gives the Knight a Treasure card (Vast rulebook §Tesori: 1 of 2, the other to the bottom).
    ``card`` is seen by the Knight and the Cave; ``bottom`` by the Cave only."""

    card: str
    """The card given (seen by the Knight and the Cave)."""
    bottom: tuple[str, ...] = ()
    """The card sent to the bottom (seen by the Cave)."""


class TreasureKept(VastEvent, kw_only=True):
    """The Knight plays the offered Treasure face down (Vast rulebook §Tesori e Gemme)."""

    card: str
    """The Treasure card (seen by the Knight and the Cave)."""
    step: str = ""
    """The chain step this completes."""


class TreasureDeclined(VastEvent, kw_only=True):
    """The Knight declines the Treasure: out of the game, +5 Grit follows (Vast rulebook §Tesori e Gemme)."""

    card: str
    """The Treasure card (seen by the Knight and the Cave)."""
    step: str = ""
    """The chain step this completes."""


class TreasureUsed(VastEvent, kw_only=True):
    """A Treasure card's effect is used (Vast rulebook §Tesori): turned face up; the Potion Kit leaves the
    game and heals 2."""

    card: str
    """The Treasure card used."""
    heal: int = 0
    """Health healed (Potion Kit: 2)."""


class EventPlayed(VastEvent, kw_only=True):
    """The Cave plays an Event card on the Knight (Vast rulebook §Eventi): ``card`` public, ``bottom`` (the
    two not chosen, to the bottom of the deck) seen by the Cave only."""

    card: str
    """The Event card played (``rats-2``)."""
    bottom: tuple[str, ...] = ()
    """The Event cards sent to the bottom of the deck, in order (``"?"`` but for the Cave)."""
    reveals: tuple[tuple[int, int], ...] = ()
    """Vantage Point: the Dark tiles to reveal round the Knight."""


class HealthChanged(VastEvent, kw_only=True):
    """The Knight gains or loses Health (an Ambush; an Event; the Potion Kit)."""

    delta: int
    """Health gained (positive) or lost (negative)."""
    why: str
    """``ambush``, ``light``, ``fresh-air``, ``fresh-water``."""


class HeroCubeDiscarded(VastEvent, kw_only=True):
    """A Hero cube goes to the Discarded space (Light) or is spent until next turn (Fresh Air, Fresh Water):
    ``spent`` true."""

    spent: bool = False
    """``true``: spent until her next turn (Fresh Air, Fresh Water); ``false``: discarded (Light, Potion
    Kit)."""
    placed_on: str = ""
    """The target the cube was placed on this turn, when a placed cube is discarded (the Mighty Axe's)."""


class HeroCubeRecovered(VastEvent, kw_only=True):
    """Cave Bread gives back a discarded Hero cube, or the next cube of the Grit track (``grit`` is the Grit
    the Knight is moved to, 0 when a discarded cube came back)."""

    grit: int = 0
    """Unused (0): Cave Bread gives back one cube."""


class VastAmbushResolved(VastEvent, kw_only=True, tag="vast.AmbushResolved"):
    """An Ambush (Vast rulebook §Imboscata; without a Goblins player docs/vast/facts.md §7 Variant cards,
    Goblin Infestation: line A "Normal" Strength 2, line B "Tough" 3, line C a drawn Monster's Ambush STR):
    the Knight's Strength against the ambusher's, ``hurt`` when she lost 1 Health."""

    strength: int
    """Her Strength."""
    ambusher: int
    """The ambusher's Strength."""
    hurt: bool
    """Whether she lost 1 Health."""
    step: str = ""
    """The chain step this completes."""
    monster: str = ""
    """Goblin Infestation line C: the Monster card that ambushed her (its Ambush text applies when she is
    hurt); empty otherwise."""


class InfestationMonsterPlaced(VastEvent, kw_only=True):
    """Where a Goblin Infestation line C Monster card goes once its Ambush is resolved (docs/vast/facts.md §3
    Monster cards, Ambush text; public): ``discard`` (most cards), ``knight-board`` (the Golem, for the rest
    of the game), ``beside-deck`` (the Bright Beetles, until the next Monster drawn has had its +1
    Strength)."""

    card: str
    """The Monster card (``golem``)."""
    to: str
    """``discard``, ``knight-board`` or ``beside-deck``."""


class TreasureCardDiscarded(VastEvent, kw_only=True):
    """The Knight discards a Treasure card to the bottom of the Treasure deck (the Gnome's Ambush text,
    docs/vast/facts.md §3 Monster cards: a random one)."""

    card: str
    """The Treasure card: masked but for the Knight and the Cave when it was face down."""
    why: str
    """What made her discard it (``gnome``)."""
    hidden: bool = False
    """The card was face down, drawn at random: only she and the Cave learn which."""


class SidequestCompleted(VastEvent, kw_only=True):
    """The Knight reveals a fulfilled Sidequest (Vast rulebook §Missioni Secondarie): out of the game, + its
    Grit."""

    card: str
    """The Sidequest completed (``swift``)."""


class BombPlaced(VastEvent, kw_only=True):
    """A Bomb token removes a wall for good (Vast rulebook §Equipaggiamento, Bomba)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    side: str
    """The side of the Knight's tile whose wall the Bomb removes."""


class FlareUsed(VastEvent, kw_only=True):
    """The Knight (or a Goblin Tribe, on its own space) uses Flare on a space (docs/vast/facts.md §7 Variant
    cards): the Dragon die is rolled round it."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    tribe: str = ""
    """The Tribe using it (Goblins vs Cave); empty: the Knight."""


class FlareHit(VastEvent, kw_only=True):
    """The Dark tiles the Flare's die hit, to reveal in order."""

    face: int
    """The Dragon die's face (1-6; ``dicelog.domain.vast.cave.DRAGON_DIE``)."""
    reveals: tuple[tuple[int, int], ...] = ()
    """The Dark tiles hit, ``[x, y]`` each, revealed in this order."""
    by: str = "knight"
    """Who lit it (``knight``, ``goblins``): the revealer who orients the tiles."""


class OmensCollected(VastEvent, kw_only=True):
    """How many Omen tokens the Cave draws this turn (Vast rulebook §1. Raccogli i Segnalini Presagio)."""

    count: int
    """Omen tokens drawn."""
    tokens_on_map: int
    """Treasure and Crystal tokens on the map that set the count."""


class OmenUsed(VastEvent, kw_only=True):
    """The Cave pays for an Omen, returning tokens to the bag (Vast rulebook §Usare i Presagi)."""

    omen: str
    """``hatred``, ``past-plunder``, ``soporific-spores``, ``rockslide``."""
    paid: tuple[str, ...]
    """The Omen tokens paid (ids such as ``quartz-2``), returned to the bag."""


class RockslidePlaced(VastEvent, kw_only=True):
    """A Rockslide token on an edge, a wall (Vast rulebook §Presagi, Frana)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    side: str
    """The side of the tile (``N``, ``E``, ``S``, ``W``)."""


class RockslideMoved(VastEvent, kw_only=True):
    """With all 3 Rockslides on the map, the Cave moves one to another edge (Vast rulebook §Presagi,
    Frana)."""

    from_edge: tuple[int, int, str]
    """The edge it leaves, ``[x, y, "N"|"E"]`` (``dicelog.domain.vast.cave.edge``)."""
    x: int
    """Column of the tile of its new edge."""
    y: int
    """Row of the tile of its new edge."""
    side: str
    """The side of that tile (``N``, ``E``, ``S``, ``W``)."""


class CarriedByBats(VastEvent, kw_only=True):
    """Giant Bats carry the Knight or a Treasure token (Vast rulebook §Presagi, Pipistrelli Giganti)."""

    target: str
    """``knight`` or ``treasure``."""
    from_x: int
    """The tile it leaves (column)."""
    from_y: int
    """The tile it leaves (row)."""
    x: int
    """The tile it is carried to (column)."""
    y: int
    """The tile it is carried to (row)."""


class TileRotated(VastEvent, kw_only=True):
    """Crystal Curse turns a Lit tile a quarter turn (Vast rulebook §Presagi, Maledizione del Cristallo);
    Bombs on its edges leave the game and Rockslides go back to the Cave (§Bomba, §Frana)."""

    x: int
    """The tile's column."""
    y: int
    """The tile's row."""
    rotation: int
    """Its new rotation (quarter turns clockwise, 0-3)."""


class EventsSentToBottom(VastEvent, kw_only=True):
    """Crystal Curse moves the top 3 Event cards to the bottom of the deck, in order (seen by the Cave)."""

    cards: tuple[str, ...]
    """The cards moved (``"?"`` but for the Cave)."""


class TreasureTokenPlaced(VastEvent, kw_only=True):
    """The Cave puts a Treasure token on a Dark tile (Vast rulebook §3. Piazza un Tesoro; Past Plunder);
    without a Cave player, the holder of the Past Plunder variant card at the end of its turn
    (docs/vast/facts.md §7 Variant cards)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    step: str = ""
    """The end-of-turn step it completes (``plunder``: the Past Plunder variant card), else empty."""


class MapGroupSlid(VastEvent, kw_only=True):
    """A group of tiles cut off from the Entrance's by Wrath slides to touch the map again (Vast rulebook §Il
    Collasso, Prima del Collasso; §Esempio #2; rules revision 3): each tile moves by ``dx``, ``dy`` with
    everything on it (tokens, Gems, the Knight, the Dragon, Tribes); walls' tokens between its tiles move with
    them, those on its border leave the game."""

    tiles: tuple[tuple[int, int], ...]
    """The group's tiles before the slide, ``[x, y]`` each."""
    dx: int
    """Columns moved (east positive)."""
    dy: int
    """Rows moved (north positive)."""
    step: str = ""
    """``reunite`` when this slide makes the map whole again, else empty."""


class CollapseBegun(VastEvent, kw_only=True):
    """The Collapse begins (Vast rulebook §2. Modella la Caverna: the turn after the last tile was placed)."""


class TileRemoved(VastEvent, kw_only=True):
    """A tile collapses (Vast rulebook §Il Collasso): a Dark tile is turned to show whether it is a Crystal
    tile; tokens on it go back to their supplies."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    tile: str
    """The tile id (public: a removed tile is turned)."""
    crystal_tile: bool
    """Whether it was a Crystal tile (5 of them: the Cave wins)."""
    extra: bool = False
    """Removed by Hatred, on top of the turn's 3 (Vast rulebook §Presagi, Disprezzo)."""
    step: str = ""
    """The end-of-turn step it completes (``remove``: no Cave player), else empty."""


class KnightDied(VastEvent, kw_only=True):
    """The Knight's Health reached 0."""

    why: str
    """What killed her (``ambush``)."""


class GameWon(VastEvent, kw_only=True):
    """The game is decided (each role's §Come Vincere)."""

    winner: str
    """The winning role (``knight``, ``cave``)."""
    reason: str
    """Why, in words."""


# --- the Goblins (Vast rulebook §I Goblin) ------------------------------------------------------------------


class GoblinsPhaseBegun(VastEvent, kw_only=True):
    """A phase of the Goblins' turn begins (Vast rulebook §I Goblin, Riepilogo del Turno)."""

    phase: str
    """``war``, ``populate``, ``monsters``, ``secrets`` or ``activate``."""


class SecretsWindowClosed(VastEvent, kw_only=True):
    """The Goblins play no (more) Secrets cards before this phase's work (rules revision 6; Vast rulebook
    §I Goblin: «Puoi giocare le carte Segreti in qualunque momento durante il tuo turno»)."""

    phase: str
    """``war``, ``populate``, ``monsters`` or ``secrets``: the phase whose work goes on."""


class WarCardChosen(VastEvent, kw_only=True):
    """The War card the Goblins keep (Vast rulebook §1. Scegli una Carta Guerra): public; the others are
    discarded (seen by the Goblins only)."""

    card: str
    """The War card kept."""
    discarded: tuple[str, ...] = ()
    """The War cards drawn and discarded (``"?"`` but for the Goblins)."""


class RageChanged(VastEvent, kw_only=True):
    """The Goblins' Rage changes, within 0-3 (Vast rulebook §Furia e Malessere)."""

    delta: int
    """The change applied (after the bounds)."""
    why: str
    """``war`` (at 0 it rises to 1), ``war-card``, ``block``, ``attacked``, ``attack``, ``plunder``,
    ``fangs``."""


class TribesPopulated(VastEvent, kw_only=True):
    """Goblin discs added by the War card (Vast rulebook §2. Popola le Tribù); a Tribe holds 4 at most."""

    added: tuple[int, int, int]
    """Discs added to Fangs, Bones, Eye."""
    blocked: tuple[str, ...] = ()
    """Tribes whose discs were blocked, 1 Rage each."""
    overpopulated: bool = False
    """Whether some Tribe went over 4 (one Tribe scatters)."""


class TribeScattered(VastEvent, kw_only=True):
    """A Tribe scatters (Vast rulebook §Disperdere la Tribù): back to the board, 2 Population less, its
    Monster discarded."""

    tribe: str
    """The Tribe."""
    loss: int
    """Population lost."""
    discarded: tuple[str, ...] = ()
    """Its Monster cards discarded."""


class PopulationLost(VastEvent, kw_only=True):
    """A Tribe loses Goblin discs (moving through Lit tiles, the Bow, Soporific Spores, Fire Bomber)."""

    tribe: str
    """The Tribe."""
    count: int
    """Discs lost."""
    why: str
    """``movement``, ``bow``, ``spores``, ``fire-bomber``."""


class MonsterAssigned(VastEvent, kw_only=True):
    """A Monster card assigned to a Tribe (Vast rulebook §3. Assegna i Mostri): public."""

    card: str
    """The Monster card."""
    tribe: str
    """The Tribe it joins."""
    replaced: str | None = None
    """The Monster it replaces (discarded)."""


class MonsterDiscarded(VastEvent, kw_only=True):
    """A Monster card drawn and not assigned is discarded (seen by the Goblins only)."""

    card: str
    """The Monster card (``"?"`` but for the Goblins)."""


class SecretDiscarded(VastEvent, kw_only=True):
    """A Secrets card discarded to the hand limit of 5 (Vast rulebook §4. Pesca le Carte Segreti): the
    Goblins' secret."""

    card: str
    """The card (``"?"`` but for the Goblins)."""


class SecretPlayed(VastEvent, kw_only=True):
    """A Secrets card played (docs/vast/facts.md §3 Secrets cards): public from now on."""

    card: str
    """The card."""
    tribe: str | None = None
    """The Tribe it is played on, if any."""


class CaveInStruck(VastEvent, kw_only=True):
    """Cave-In (docs/vast/facts.md §3 Secrets cards; Vast rulebook §La Caverna, Gli altri giocatori; rules
    revision 3): the tiles the Goblins chose collapse, one after the other, as Wrath's do."""

    tiles: tuple[tuple[int, int], ...] = ()
    """The tiles, ``[x, y]`` each, in the order chosen."""


class OmenDiscarded(VastEvent, kw_only=True):
    """An Omen token the Cave discards back into the bag (Hex, docs/vast/facts.md §3 Secrets cards; rules
    revision 3)."""

    token: str
    """The Omen token (``bat-3``)."""
    why: str = "hex"
    """What made it discard (``hex``)."""


class KnightPoisoned(VastEvent, kw_only=True):
    """Poison (docs/vast/facts.md §3 Secrets cards; rules revision 3): the Knight leaves Hero cubes on the
    Entrance until she enters it again."""

    cubes: int
    """Hero cubes left there (1, or 2 when the Tribe's Strength beat hers by 2 or more)."""


class WispUsed(VastEvent, kw_only=True):
    """The Wisp moved the Knight this turn (docs/vast/facts.md §3 Monster cards; rules revision 3)."""

    tribe: str
    """The Tribe holding it."""


class RubyRedrawn(VastEvent, kw_only=True):
    """The face-up Goblin Ruby discards a card just drawn so another is drawn instead (docs/vast/facts.md §3
    Secrets cards; rules revision 3): once a turn."""

    deck: str
    """``war``, ``monsters`` or ``secrets``."""
    card: str
    """The card discarded: the Goblins' secret (``"?"`` for others)."""


class TribeRevealed(VastEvent, kw_only=True):
    """A hidden Tribe comes onto a Dark tile of its symbol, or lurks on an empty space (Vast rulebook
    §Rivelare)."""

    tribe: str
    """The Tribe."""
    x: int
    """Column of the tile (or empty space)."""
    y: int
    """Row of the tile (or empty space)."""
    lurking: bool = False
    """Waiting next to the map (still hidden)."""


class TribeMoved(VastEvent, kw_only=True):
    """An activated Tribe moves (Vast rulebook §5. Attiva le Tribù), not through walls."""

    tribe: str
    """The Tribe."""
    x: int
    """Column it ends on."""
    y: int
    """Row it ends on."""
    lit_left: int = 0
    """Lit tiles it left on the way."""
    teleported: bool = False
    """Secret Tunnels: it went straight to an unoccupied Dark tile."""


class TribeActivated(VastEvent, kw_only=True):
    """A Tribe's activation (Vast rulebook §5. Attiva le Tribù) and its action."""

    tribe: str
    """The Tribe."""
    action: str
    """``none``, ``attack``, ``plunder``, ``explore``, ``reveal``, ``hide``, ``special``."""


class TribeHidden(VastEvent, kw_only=True):
    """A Tribe goes back to the Goblins' board (Vast rulebook §Nascondere)."""

    tribe: str
    """The Tribe."""


class TribeAttackedKnight(VastEvent, kw_only=True):
    """A Tribe attacks the Knight (Vast rulebook §Attaccare; an Ambush, §Rivelare e risolvere, Imboscata)."""

    tribe: str
    """The Tribe."""
    strength: int
    """The Tribe's Strength."""
    knight_strength: int
    """Hers."""
    ambush: bool = False
    """An Ambush by a hidden Tribe."""


class TribeAttackedCrystal(VastEvent, kw_only=True):
    """A Tribe of Strength 3+ attacks the Crystal on its tile; a second one smashes it (Vast rulebook
    §Attaccare)."""

    tribe: str
    """The Tribe."""
    x: int
    """Column of the Crystal's tile."""
    y: int
    """Row of the Crystal's tile."""
    smashed: bool = False
    """The second attack: the token goes to the Knight, both Tribes scatter."""


class TribePlundered(VastEvent, kw_only=True):
    """A Tribe takes a Treasure token: +1 Rage, the token back to the Cave (Vast rulebook §Razziare)."""

    tribe: str
    """The Tribe."""
    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""


class KnightAttackedTribes(VastEvent, kw_only=True):
    """The Knight enters a tile with revealed Tribes and attacks them all (Vast rulebook §Interagire con i
    Goblin)."""

    tribes: tuple[str, ...]
    """The Tribes attacked (each scatters, +1 Rage each)."""
    step: str = ""
    """The chain step this completes, if any."""


class BowShot(VastEvent, kw_only=True):
    """The Knight's Bow hits a visible Tribe at any range: Strength - 1 discs, no scattering (Vast rulebook
    §Equipaggiamento, Arco)."""

    tribe: str
    """The Tribe hit."""
    loss: int
    """Discs it loses."""


# --- the Dragon (Vast rulebook §Il Drago) -------------------------------------------------------------------


class DragonPlaced(VastEvent, kw_only=True):
    """The Sleeping Dragon is placed at the start of its first turn, on the Knight's tile (on the Entrance
    without a Knight): Vast rulebook §Il Drago, Preparazione."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""


class DragonMoved(VastEvent, kw_only=True):
    """The Dragon moves (Vast rulebook §1. Muovi e Usa i Poteri): its free move, Wing, or pushed by a rule."""

    x: int
    """Column of the tile reached."""
    y: int
    """Row of the tile reached."""
    how: str = "free"
    """``free`` (1-2 tiles in a straight line, once a turn), ``wing`` (the Wing power), ``forced``."""


class PowerUsed(VastEvent, kw_only=True):
    """A Power is used and paid (Vast rulebook §Poteri): the Power cards paid are public; a Gem on the map
    lends its symbol once a turn."""

    power: str
    """The Power (``claw``, ``flame``, ``wing``, ``hiss``, ``slither``, ``swat``, ``scorch``, ``burn``,
    ``slap``, ``shriek``, ``scratch``, ``flame-wall``, ``smash``, ``wrath``)."""
    cards: tuple[str, ...] = ()
    """Power cards discarded to pay it."""
    gems: tuple[str, ...] = ()
    """Gem symbols on the map used to pay it."""


class SlothCubeMoved(VastEvent, kw_only=True):
    """A Sloth cube moves (Vast rulebook §Risveglio e Risalita in Superficie): from a Sloth track to
    Wakefulness when its condition is met, between Sloth tracks (Slither), or back from Wakefulness (Soporific
    Spores)."""

    source: str
    """The track it leaves (``greed``, ``hunger``, ``pride-events``, ``pride-still``, ``pride-gem``,
    ``wakefulness``)."""
    target: str
    """The track it reaches (as ``source``)."""
    why: str = ""
    """``treasure``, ``eaten``, ``event-tile``, ``still``, ``gem``, ``slither``, ``spores``."""


class DragonAwoke(VastEvent, kw_only=True):
    """11 cubes on Wakefulness: the Dragon is awake for good (Vast rulebook §Risveglio e Risalita in
    Superficie)."""


class DragonSurfaced(VastEvent, kw_only=True):
    """The awake Dragon ends its turn on a Crystal tile and rises to the surface; a Crystal token there is
    smashed (Vast rulebook §Risalire in Superficie)."""

    x: int
    """Column of the Crystal tile."""
    y: int
    """Row of the Crystal tile."""
    crystal: bool = False
    """A Crystal token was there and is smashed."""


class GoblinsEaten(VastEvent, kw_only=True):
    """The Eaten Goblins marker advances by the Population the Tribes lost to Claw, Scratch or Hiss (Vast
    rulebook §Uccidere i Goblin)."""

    count: int
    """Goblins eaten."""


class DragonTreasureTaken(VastEvent, kw_only=True):
    """After its movement the Dragon collects the Treasure tokens on its tile (Vast rulebook §2. Raccogli un
    Tesoro); they go back to the Cave at once (§La Caverna, Tesori) and count for its Greed, one a turn."""

    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""
    count: int
    """Treasure tokens collected."""


class GemPlaced(VastEvent, kw_only=True):
    """A Dragon Gem from its reserve is placed on its tile (Vast rulebook §3. Posa una Gemma di Drago)."""

    gem: str
    """``claw``, ``flame`` or ``wing``."""
    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""


class GemTaken(VastEvent, kw_only=True):
    """A Dragon Gem is picked up from the map (Vast rulebook §Gemme e altri giocatori): the Dragon die was
    rolled; it goes back to the Dragon's reserve."""

    gem: str
    """``claw``, ``flame`` or ``wing``."""
    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""
    by: str
    """``knight`` or a Tribe's name."""
    trapped: bool = False
    """The die hit the center: a trap (Knight -2 Grit, the Tribe scatters)."""
    step: str = ""
    """The chain step it completes (the Knight's Gems, one at a time)."""
    from_dragon: bool = False
    """Plundered from the Dragon itself (Vast rulebook §Razziare): no Gem leaves the map; it stays in its
    reserve."""


class GemMoved(VastEvent, kw_only=True):
    """Swat moves a Gem or a Treasure token (Vast rulebook §Poteri, Colpo)."""

    token: str
    """``treasure`` or a Gem's symbol."""
    from_x: int
    """Column it leaves."""
    from_y: int
    """Row it leaves."""
    x: int
    """Column it reaches."""
    y: int
    """Row it reaches."""


class PowerCardsDiscarded(VastEvent, kw_only=True):
    """Power cards leave the Dragon's hand without paying a Power: the rest of the hand when it is replaced
    (Vast rulebook §4. Rimpiazza la Mano di Carte), or cards it must discard (the Bow). Which cards is the
    Dragon's secret."""

    cards: tuple[str, ...]
    """The cards (``"?"`` to others than the Dragon)."""
    why: str = "replace"
    """``replace`` or ``bow``."""


class DragonAttacked(VastEvent, kw_only=True):
    """The Knight attacks the Dragon (Vast rulebook §Attaccare il Drago): Strength above Armor hits; equal,
    the Dragon die must hit the center."""

    strength: int
    """The Knight's Strength."""
    armor: int
    """The Dragon's Armor."""
    hit: bool
    """The attack succeeded: the Dragon loses 1 Health."""
    bomb: bool = False
    """With the Bomb, at the Dragon underground before the Collapse."""


class FlameWallPlaced(VastEvent, kw_only=True):
    """The Flame Wall token on a Lit tile next to the Dragon (Vast rulebook §Poteri, Muro di Fiamme)."""

    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""


class FlameWallBurned(VastEvent, kw_only=True):
    """A piece entered the Flame Wall's tile for the first time on its turn (Vast rulebook §Poteri, Muro di
    Fiamme): the Knight loses 5 Grit, a Tribe 1 Population."""

    piece: str
    """``knight`` or a Tribe's name."""


class FlameWallReturned(VastEvent, kw_only=True):
    """The Flame Wall token goes back to the Dragon's reserve at the start of its turn."""


class ShriekSpent(VastEvent, kw_only=True):
    """The Shriek token is spent to re-roll the Dragon die (Vast rulebook §Poteri, Strillo)."""


class CrystalDestroyed(VastEvent, kw_only=True):
    """Smash destroys the Crystal token on the Dragon's tile, out of the game (Vast rulebook §Poteri,
    Distruzione)."""

    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""


class TileCollapsed(VastEvent, kw_only=True):
    """Wrath or Cave-In collapses a tile (Vast rulebook §Poteri, Collera; §La Caverna, Gli altri giocatori): a
    Crystal tile leaves the game and counts for the Cave; before the Collapse another tile goes to the bottom
    of the stack."""

    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""
    tile: str
    """The tile id (turned, so public)."""
    crystal_tile: bool
    """A Crystal tile: it counts for the Cave's win."""
    step: str = ""
    """The chain step it completes."""
    dark: bool = False
    """It was Dark side up: only whether it is a Crystal tile is shown; a Dark tile going back under the
    stack keeps its identity the Cave's secret (``tile`` reads ``"?"`` to others)."""
    by: str = "dragon"
    """Who made it fall: ``dragon`` (Wrath) or ``goblins`` (Cave-In)."""


class PowerStruck(VastEvent, kw_only=True):
    """The tiles a Power reaches (Vast rulebook §Il Dado del Drago; §Poteri): Dark tiles Flame, Scorch or Burn
    reveal (in this order, the Dragon orienting them: §Rivelare le Tessere), tiles Claw hits, tiles Wrath
    collapses."""

    power: str
    """``flame``, ``scorch``, ``burn``, ``claw`` or ``wrath``."""
    face: int = 0
    """The Dragon die's face (1-6), 0 when no die was rolled."""
    tiles: tuple[tuple[int, int], ...] = ()
    """The tiles, ``[x, y]`` each."""


class AxeStruck(VastEvent, kw_only=True):
    """After a successful attack on the Dragon the Knight discards the Mighty Axe's cube: the Dragon loses 1
    more Health (Vast rulebook §Tesori, Ascia Possente)."""


class DragonShot(VastEvent, kw_only=True):
    """The Enchanted Bow hits the Dragon (Vast rulebook §Tesori, Arco Incantato): it must discard Power cards
    equal to the Knight's Strength less 1 (as many as it holds)."""

    discards: int
    """Power cards it must discard (it chooses which: ``power-discard`` decisions)."""


class TrapSprung(VastEvent, kw_only=True):
    """The Goblins discard their face-up Trap to cancel a Dragon Power aimed at a Tribe (docs/vast/facts.md §3
    Secrets cards, Trap)."""

    power: str
    """The Power cancelled."""


class TribeAttackedDragon(VastEvent, kw_only=True):
    """With the Ash Dragon card a Tribe stronger than the Dragon's Armor attacks it (docs/vast/facts.md §7
    Variant cards): the Dragon loses 1 Health, Rage falls by 1 and the Tribe scatters."""

    tribe: str
    """The Tribe attacking."""


class EventTokenPlaced(VastEvent, kw_only=True):
    """The Cave places an Event token on an Event tile revealed by another than the Knight entering it (Vast
    rulebook §Rivelare le Tessere), or restores one with Crystal Curse (§Presagi)."""

    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""


class EventTokenTaken(VastEvent, kw_only=True):
    """The Knight enters (or starts her turn on) a tile with an Event token: she resolves it as an Event tile,
    spending an Encounter, and the token leaves the map (Vast rulebook §Rivelare e risolvere le tessere Buie,
    Evento)."""

    x: int
    """Column of the tile."""
    y: int
    """Row of the tile."""


class DragonDied(VastEvent, kw_only=True):
    """The Dragon's Health reached 0 (Vast rulebook §Attaccare il Drago)."""


# --- the Thief (Vast rulebook §Il Ladro; docs/vast/facts.md §6)
# -------------------------------------------------------------------


class ThiefEntered(VastEvent, kw_only=True):
    """The Thief's piece is put on the Entrance: before his first turn, or at the start of his first turn
    after he was killed (Vast rulebook §Preparazione, §Morire)."""


class ThiefStatsAssigned(VastEvent, kw_only=True):
    """The Thief puts his three Stat tokens on Movement, Stealth and Thievery and takes Action cubes equal
    to Thievery (Vast rulebook §1. Assegna i Segnalini Statistica)."""

    movement: int
    """The token on Movement (2-4)."""
    stealth: int
    """The token on Stealth (2-4)."""
    thievery: int
    """The token on Thievery (2-4)."""
    cubes: int
    """Action cubes taken (Thievery with its Stat Boost, at most 5)."""


class ThiefMoved(VastEvent, kw_only=True):
    """The Thief moves one tile (Vast rulebook §2. Muovi e Agisci), through a wall with Climb."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    climbed: int = 0
    """Action cubes spent on Climb to cross a wall (Vast rulebook §Arrampicare: 2, 1 with Climbing Gear)."""
    forced: bool = False
    """A step granted by Unnatural Evasion (Vast rulebook §Migliorie): no Movement spent."""


class TilePeeked(VastEvent, kw_only=True):
    """The Thief ends his movement on a Dark tile and looks at it (Vast rulebook §2. Muovi e Agisci): the tile
    is his secret (and the Cave's); he then may reveal it."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""
    tile: str
    """The tile id, seen by the Thief and the Cave; ``"?"`` for others."""


class ThiefActed(VastEvent, kw_only=True):
    """The Thief spends Action cubes on an action (Vast rulebook §Saccheggiare, §Borseggiare, §Scassinare,
    §Pugnalare alle Spalle, §Celare il Bottino; docs/vast/facts.md §7 Flare)."""

    action: str
    """``loot``, ``pickpocket``, ``pick-lock``, ``backstab``, ``hide-loot``, ``flare``."""
    cubes: int
    """Action cubes spent."""
    target: str = ""
    """The player targeted (``knight``, ``dragon``, a Tribe's name), or the Gem looted; empty otherwise."""


class ThiefLooted(VastEvent, kw_only=True):
    """The Thief takes a Treasure token or a Dragon Gem (Vast rulebook §Saccheggiare; §Borseggiare and
    §Scassinare take one from the Cave's supply, or from the map when it is empty)."""

    source: str
    """``tile`` (from his tile), ``supply`` (the Cave's supply) or ``map`` (a tile of the map)."""
    gem: str = ""
    """The Dragon Gem taken (``claw``, ``flame``, ``wing``); empty: a Treasure token."""
    x: int | None = None
    """The tile it was taken from (``tile``, ``map``)."""
    y: int | None = None
    """The tile's row."""
    step: str = ""
    """The chain step this completes (``thief-supply``: the token a Pickpocket or Pick Lock takes)."""


class ThiefActionRolled(VastEvent, kw_only=True):
    """An action's result after the Action die (Vast rulebook §Borseggiare, §Scassinare: 4+ with 1 cube, 2+
    with 2, always with 3)."""

    action: str
    """``pickpocket`` or ``pick-lock``."""
    success: bool
    """Whether it succeeded."""
    face: int = 0
    """The Action die (0: no roll, 3 cubes)."""
    target: str = ""
    """The player targeted (Pickpocket)."""
    rerolled: bool = False
    """This is Sticky Fingers' re-roll of a failed Pickpocket (once a turn: Vast rulebook §Borseggiare)."""


class ThiefStole(VastEvent, kw_only=True):
    """The harm of a successful Pickpocket (Vast rulebook §Borseggiare): the Knight's Treasure card goes to
    the bottom of the deck, the Goblins discard a Secrets card, or a Wakefulness cube of the Dragon goes back
    to Greed."""

    target: str
    """``knight``, ``goblins`` or ``dragon``."""
    card: str = ""
    """The card taken (a Treasure of the Knight's, a Secrets card of the Goblins'): a face-down one is
    masked but for its owner (and the Cave for the Knight's)."""
    hidden: bool = False
    """The card was face down, taken at random: nobody but its owner (and the Cave) learns which."""


class VaultOpened(VastEvent, kw_only=True):
    """The Thief opens the Vault on his tile: its token leaves the map (Vast rulebook §Scassinare)."""

    x: int
    """Column of the tile, counted from the Entrance (east positive)."""
    y: int
    """Row of the tile, counted from the Entrance (north positive)."""


class LootHidden(VastEvent, kw_only=True):
    """The Thief lowers his Loot Drop level (Vast rulebook §Celare il Bottino)."""

    count: int
    """Levels lowered (at most to 0)."""


class TreasureStashed(VastEvent, kw_only=True):
    """On entering the Entrance, the Thief stashes what he carries (Vast rulebook §Trasportare e Mettere al
    Sicuro): a Gem goes back to the Dragon and is swapped for a Treasure token from the Cave's supply; each
    token goes on an Upgrade space and the Loot Drop level goes back to 3."""

    tokens: int
    """Tokens stashed (Treasure tokens, and Gems swapped)."""
    gems: tuple[str, ...] = ()
    """Gems handed back to the Dragon."""


class UpgradeTaken(VastEvent, kw_only=True):
    """A stashed token goes on an Upgrade space for good (Vast rulebook §Migliorie)."""

    upgrade: str
    """The space (``dicelog.domain.vast.state.UPGRADES``)."""
    step: str = "upgrade"
    """The chain step this completes."""


class UpgradeLost(VastEvent, kw_only=True):
    """Soporific Spores takes an Upgrade of the Thief's choice; the token stays on his board and counts to
    win (Vast rulebook §Migliorie; §Presagi, Spore Soporifere)."""

    upgrade: str
    """The space emptied."""


class ThiefAttacked(VastEvent, kw_only=True):
    """A player attacks the Thief (Vast rulebook §Interagire con gli Altri: any attack kills him); Unnatural
    Evasion may still turn it (§Migliorie)."""

    by: str
    """``knight``, ``dragon``, a Tribe's name, or ``trap`` (a Dragon Gem's trap)."""
    why: str
    """``attack``, ``claw``, ``scratch``, ``flame-wall``, ``gem``."""


class ThiefEvaded(VastEvent, kw_only=True):
    """Unnatural Evasion rolled 4+: the attack fails (Vast rulebook §Migliorie)."""

    face: int
    """The Action die."""


class ThiefShot(VastEvent, kw_only=True):
    """The Knight shoots the Thief with the Enchanted Bow (Vast rulebook §Tesori, Arco Incantato): its use
    this turn."""


class ThiefHexed(VastEvent, kw_only=True):
    """Hex on the Thief (docs/vast/facts.md §3 Secrets cards): -X Stealth until the Goblins' next turn."""

    count: int
    """X, the Eye Tribe's Population."""


class ThiefKilled(VastEvent, kw_only=True):
    """The Thief is killed (Vast rulebook §Morire): he drops what he carries on his tile and leaves the
    map."""

    by: str
    """Who killed him (``ThiefAttacked.by``)."""
    why: str
    """How (``ThiefAttacked.why``)."""
    loot_drop: int = 0
    """The bonus his killer gains (his Loot Drop level; 0 for a Gem's trap)."""


class ThiefWounded(VastEvent, kw_only=True):
    """Backstab (Vast rulebook §Pugnalare alle Spalle): a Light, Moderate or Heavy wound."""

    target: str
    """``knight``, ``dragon`` or a Tribe's name."""
    wound: int
    """1 Light, 2 Moderate, 3 Heavy."""


EVENT_TYPES: tuple[type[Event], ...] = (
    ThiefEntered,
    ThiefStatsAssigned,
    ThiefMoved,
    TilePeeked,
    ThiefActed,
    ThiefLooted,
    ThiefActionRolled,
    ThiefStole,
    VaultOpened,
    LootHidden,
    TreasureStashed,
    UpgradeTaken,
    UpgradeLost,
    ThiefAttacked,
    ThiefEvaded,
    ThiefKilled,
    ThiefWounded,
    ThiefShot,
    ThiefHexed,
    RolesSeated,
    StackBuilt,
    VastRoundStarted,
    VastTurnStarted,
    VastTurnEnded,
    TurnEnding,
    StepPassed,
    MapGroupSlid,
    CaveInStruck,
    OmenDiscarded,
    KnightPoisoned,
    WispUsed,
    RockslideMoved,
    RubyRedrawn,
    DarkTilePlaced,
    TileRevealed,
    TileOriented,
    TileResolved,
    GritChanged,
    HeroCubeReturned,
    KnightMoved,
    HeroCubePlaced,
    EncounterBegun,
    CrystalSmashed,
    TreasureTokenTaken,
    TreasureOffered,
    TreasureKept,
    TreasureDeclined,
    TreasureUsed,
    EventPlayed,
    HealthChanged,
    HeroCubeDiscarded,
    HeroCubeRecovered,
    VastAmbushResolved,
    InfestationMonsterPlaced,
    TreasureCardDiscarded,
    SidequestCompleted,
    BombPlaced,
    FlareUsed,
    FlareHit,
    OmensCollected,
    OmenUsed,
    RockslidePlaced,
    CarriedByBats,
    TileRotated,
    EventsSentToBottom,
    TreasureTokenPlaced,
    CollapseBegun,
    TileRemoved,
    KnightDied,
    GameWon,
    GoblinsPhaseBegun,
    SecretsWindowClosed,
    WarCardChosen,
    RageChanged,
    TribesPopulated,
    TribeScattered,
    PopulationLost,
    MonsterAssigned,
    MonsterDiscarded,
    SecretDiscarded,
    SecretPlayed,
    TribeRevealed,
    TribeMoved,
    TribeActivated,
    TribeHidden,
    TribeAttackedKnight,
    TribeAttackedCrystal,
    TribePlundered,
    KnightAttackedTribes,
    BowShot,
    DragonPlaced,
    DragonMoved,
    PowerUsed,
    SlothCubeMoved,
    DragonAwoke,
    DragonSurfaced,
    GoblinsEaten,
    DragonTreasureTaken,
    GemPlaced,
    GemTaken,
    GemMoved,
    PowerCardsDiscarded,
    DragonAttacked,
    FlameWallPlaced,
    FlameWallBurned,
    FlameWallReturned,
    ShriekSpent,
    CrystalDestroyed,
    TileCollapsed,
    PowerStruck,
    AxeStruck,
    DragonShot,
    TrapSprung,
    TribeAttackedDragon,
    EventTokenPlaced,
    EventTokenTaken,
    DragonDied,
)
