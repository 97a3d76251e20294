"""The state of a game of Vast: The Crystal Caverns (Vast rulebook; docs/vast/facts.md).

One frozen msgspec Struct per part of the table. Secrets live in named fields so that one
function (``dicelog.domain.vast.visibility.view_state``) masks each for the audiences that may not
see it: a Dark tile's ``Cell.tile``, the Cave's ``CaveRole.hand``, the Knight's face-down
``KnightRole.treasures`` and ``sidequests``, every deck's content and every card in flight
(``State.offer``). Masked values read ``"?"``.

Decks hold no order: the cards left in a face-down pile are a sorted set, and drawing is uniform
among them (docs/who-sees-what.md, Hidden information). Cards put on the bottom of a deck are kept in order
(``*_bottom``): they are drawn only when the face-down part is empty.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

HIDDEN = "?"
"""What a masked id reads."""

Role = Literal["knight", "goblins", "dragon", "cave", "thief"]
TURN_ORDER: tuple[str, ...] = ("knight", "goblins", "dragon", "cave", "thief")
"""docs/vast/facts.md §7 Turn order (REF citing FAQ p.2): the number printed on each player board."""

Phase = Literal["setup", "play", "ended"]


class CaveCell(Struct, frozen=True, kw_only=True):
    """A tile on the map (Vast rulebook §Tessere Caverna; the Entrance is the cell at ``(0, 0)``)."""

    x: int
    """Columns from the Entrance, east positive."""
    y: int
    """Rows from the Entrance, north positive."""
    tile: str
    """The tile id (``content/tiles.json``). Of a Dark tile, only the Cave (and the auditor) sees it;
    others read ``"?"`` (Vast rulebook §Tessere Caverna: "do not tell anyone what its Lit side holds")."""
    symbol: str | None = None
    """The Tribe symbol on the Dark side (public), ``None`` for the Entrance."""
    lit: bool = False
    """Lit side up (revealed), or Dark."""
    rotation: int = 0
    """Quarter turns clockwise of a Lit tile (0-3): its walls are its shape's walls turned by this."""
    treasure: int = 0
    """Treasure tokens on the tile (Vast rulebook §3. Piazza un Tesoro, §Sala del Tesoro)."""
    crystal: bool = False
    """A Crystal token lies on the tile (Vast rulebook §Cristallo: placed when a Crystal tile is revealed)."""
    gems: tuple[str, ...] = ()
    """Dragon Gems on the tile (``claw``, ``flame``, ``wing``: Vast rulebook §3. Posa una Gemma di Drago)."""
    event_token: bool = False
    """An Event token lies on the tile (Vast rulebook §Rivelare le Tessere: an Event tile revealed by another
    than the Knight entering it; rules revision 2)."""
    vault: bool = False
    """A Vault token lies on the tile (Vast rulebook §Cripta: placed when a Vault tile is revealed, Thief
    games only); the Thief's Pick Lock opens it."""


class KnightRole(Struct, frozen=True, kw_only=True):
    """The Knight's board (Vast rulebook §Il Cavaliere; docs/vast/facts.md §2)."""

    x: int = 0
    """The Knight's column (from the Entrance, east positive)."""
    y: int = 0
    """The Knight's row (from the Entrance, north positive)."""
    health: int = 7
    """Health (Vast rulebook §Preparazione: 7). At 0 the Knight dies."""
    max_health: int = 7
    """Her Health at the start, the most she heals to (7; the Goblins' difficulty card: 5-9,
    docs/vast/facts.md §7)."""
    grit: int = 0
    """Grit, 0-45 (Vast rulebook §Coraggio); cubes sit at 5, 11, 18, 26, 35."""
    discarded: int = 0
    """Hero cubes on the Discarded Hero Cubes space (Vast rulebook §Cubetti Eroe)."""
    placed: dict[str, int] = field(default_factory=dict)
    """Hero cubes placed this turn, by target: ``movement``, ``perception``, ``strength``, ``map``, ``bomb``,
    ``shield``, a Treasure card id, or ``spent`` (Fresh Air/Water)."""
    moves: int = 0
    """Tiles moved this turn."""
    encounters: int = 0
    """Encounters had this turn."""
    stage: int = 3
    """Where the current Encounter is (Vast rulebook §2. Muovi e Agisci, its order): 0 revealed, 1 attacked,
    2 collected; 3 no Encounter open on this tile."""
    walls_crossed: int = 0
    """Walls crossed with the Ancient Map this turn."""
    bomb_used: bool = False
    """Whether the Bomb's cube was used this turn."""
    bow_used: bool = False
    """Whether the Bow's cube was used this turn."""
    dragon_attacks: int = 0
    """Attacks on the Dragon this turn (underground: once a turn, Vast rulebook §Attaccare il Drago)."""
    enchanted_bow_used: bool = False
    """Whether the Enchanted Bow shot this turn (its cube: once a turn)."""
    bombs: int = 3
    """Bomb tokens left (Vast rulebook §Preparazione)."""
    smashed: int = 0
    """Crystal tokens on her Smashed Crystals space."""
    treasures: tuple[str, ...] = ()
    """Her face-down Treasure cards (Vast rulebook §Tesori e Gemme): seen by the Knight and the Cave, which
    chose them; others read ``"?"``."""
    face_up: tuple[str, ...] = ()
    """Her Treasure cards face up (public): a card is turned face up when she first uses it
    (docs/vast/rulings.md)."""
    sidequests: tuple[str, ...] = ()
    """Her hand of Sidequest cards (Vast rulebook §Missioni Secondarie): the Knight's secret."""
    completed: tuple[str, ...] = ()
    """Sidequests completed, out of the game (public)."""
    flare_used: bool = False
    """Whether she used Flare this turn (docs/vast/facts.md §7 Variant cards: once per turn)."""
    died_of: str = ""
    """What killed her (``KnightDied.why``: ``ambush``...); empty while she lives."""
    poisoned: int = 0
    """Hero cubes Poison left on the Entrance (docs/vast/facts.md §3 Secrets cards): hers again when she
    enters it."""
    spaces: tuple[tuple[int, int], ...] = ()
    """Spaces moved through this turn, without repeats (Swift)."""
    encounter_spaces: tuple[tuple[int, int], ...] = ()
    """Spaces where she had an Encounter this turn, without repeats (Adventurous)."""
    tokens_taken: int = 0
    """Treasure tokens collected this turn (Cunning without a Dragon)."""
    ambushes: int = 0
    """Ambushes resolved this turn (Stalwart without Goblins)."""
    unhurt_ambushes: int = 0
    """Ambushes resolved this turn without losing Health (Fearless without Goblins)."""
    feats: tuple[str, ...] = ()
    """Sidequest feats of this turn (public: what she did, not which Sidequests she holds):
    ``feat:daring`` (a Tribe with a Monster attacked, or the Dragon hit; from rules revision 6 the Thief
    killed), ``feat:stalwart`` (a Tribe of Population 3+ attacked), ``feat:fearless`` (a Tribe on the Dark
    tile she revealed attacked in that Encounter), ``feat:eagle-eyed`` (a Bow shot that did damage; from rules
    revision 6 the Thief killed by the Enchanted Bow), ``feat:cunning`` (a Dragon Gem tried)."""


class CaveRole(Struct, frozen=True, kw_only=True):
    """The Cave's board (Vast rulebook §La Caverna; docs/vast/facts.md §5)."""

    hand: tuple[str, ...] = ()
    """Tiles in hand, sorted (3 at most): the Cave's secret."""
    omens: tuple[str, ...] = ()
    """Omen tokens held (``bat-3``...), sorted; public (docs/vast/rulings.md)."""
    supply: int = 10
    """Treasure tokens on the Cave's board (Vast rulebook §Segnalini: 10)."""
    placed: int = 0
    """Tiles placed (before the Collapse) or removed (during it) this turn by Shape the Cave."""
    treasure_placed: bool = False
    """Whether Place Treasure was done this turn."""
    hatred: int = 0
    """Hatred used this turn (its cost rises 1, 2, 3)."""
    past_plunder: int = 0
    """Past Plunder used this turn (its cost rises 1, 2, 3)."""
    rockslides: int = 3
    """Rockslide tokens in the supply."""


SLOTH_ROOM: dict[str, int] = {"greed": 4, "hunger": 4, "pride-events": 4, "pride-still": 1, "pride-gem": 1}
"""The Dragon's Sloth tracks and their spaces (Vast rulebook §Risveglio e Risalita in Superficie;
docs/vast/facts.md §4): 14 cubes."""
SLOTH_CUBES = 14
AWAKE_AT = 11
"""Wakefulness that awakens the Dragon (Vast rulebook §Risveglio e Risalita in Superficie)."""
POWER_CARDS: tuple[str, ...] = tuple(f"{s}-{n}" for s in ("claw", "flame", "wing") for n in range(1, 7))
"""The 18 Power cards (docs/vast/facts.md §1: Claw x6, Flame x6, Wing x6), by id ``<symbol>-<n>``."""


class DragonRole(Struct, frozen=True, kw_only=True):
    """The Dragon's board (Vast rulebook §Il Drago; docs/vast/facts.md §4)."""

    x: int | None = None
    """The Dragon's column; ``null`` before its first turn places it (Vast rulebook §Preparazione)."""
    y: int | None = None
    """The Dragon's row, as ``x``."""
    health: int = 5
    """Health (Vast rulebook §Preparazione: 5; the Knight's difficulty card: 3-7, docs/vast/facts.md §7). At 0
    the Dragon dies."""
    awake_at: int = 11
    """Wakefulness that awakens it (11; the Dragon's difficulty card: 7, 9, 11 or 13, docs/vast/facts.md
    §7)."""
    sloth: dict[str, int] = field(default_factory=lambda: dict(SLOTH_ROOM))
    """Sloth cubes left on each Sloth track (``greed``, ``hunger``, ``pride-events``, ``pride-still``,
    ``pride-gem``); the others are on the Wakefulness track."""
    locked: int = 0
    """Hunger cubes placed on Wakefulness at setup that the Cave cannot move back (docs/vast/facts.md §7
    Dragon vs Cave)."""
    awake: bool = False
    """Awakened (11 Wakefulness reached once: permanent)."""
    surfaced: bool = False
    """On the surface (after ending a turn awake on a Crystal tile); else underground."""
    eaten: int = 0
    """The Eaten Goblins track (Vast rulebook §Uccidere i Goblin)."""
    hand: tuple[str, ...] = ()
    """Power cards in hand, sorted: the Dragon's secret."""
    gems: tuple[str, ...] = ("claw", "flame", "wing")
    """Dragon Gems in its reserve (docs/vast/facts.md §1: one each Claw, Flame, Wing)."""
    held: int = 0
    """Treasure tokens taken and not yet handed over for a Greed cube (Vast rulebook §2. Raccogli un
    Tesoro)."""
    moved: bool = False
    """The free move of this turn was made."""
    still: bool = True
    """It has not moved at all this turn (Pride: do not move for a turn)."""
    advanced: tuple[str, ...] = ()
    """The tracks a cube left this turn (``greed``, ``hunger``, ``pride``: one each a turn)."""
    gems_used: tuple[str, ...] = ()
    """Gem symbols on the map used this turn (each once a turn)."""
    stage: int = 0
    """Where its turn is: 0 moving and using Powers, 1 Treasure collected, 2 Gem placed."""
    shriek: bool = False
    """The Shriek token is placed, ready to re-roll the Dragon die."""
    flame_wall: tuple[int, int] | None = None
    """Where the Flame Wall token is; ``null`` in its reserve."""
    burned: tuple[str, ...] = ()
    """Pieces the Flame Wall hurt since it was placed (``knight``, a Tribe's name)."""


def wakefulness(dragon: DragonRole) -> int:
    """Cubes on the Wakefulness track (14 less those left on the Sloth tracks)."""
    return SLOTH_CUBES - sum(dragon.sloth.values())


def armor(dragon: DragonRole, ash: bool = False) -> int:
    """Armor from Wakefulness (docs/vast/facts.md §4 table: 1,1,2,2,3,3,4,4 by pairs; HRF ``(w+4) div 4``);
    Ash Dragon +1, at most 4 (docs/vast/facts.md §7 Variant cards)."""
    return min(4, (wakefulness(dragon) + 4) // 4 + (1 if ash else 0))


def spirit(dragon: DragonRole) -> int:
    """Spirit, the Power cards drawn at the end of each turn (docs/vast/facts.md §4 table; HRF ``(w+14) div
    4``)."""
    return (wakefulness(dragon) + 14) // 4


UPGRADES: tuple[str, ...] = (
    "sticky-fingers",
    "lock-picking-kit",
    "climbing-gear",
    "hand-crossbow",
    "unnatural-evasion",
    "movement+1",
    "stealth+1",
    "thievery+1",
    "flip-2",
    "flip-3",
    "all-4",
)
"""The Thief's 11 Upgrade spaces (Vast rulebook §Migliorie; docs/vast/facts.md §6): the action upgrades, the
Stat Boosts, and the Flip Stat Tokens spaces, filled left to right (``flip-2``, ``flip-3``, ``all-4``)."""
FLIP_ORDER: tuple[str, ...] = ("flip-2", "flip-3", "all-4")


class ThiefRole(Struct, frozen=True, kw_only=True):
    """The Thief's board (Vast rulebook §Il Ladro; docs/vast/facts.md §6)."""

    x: int | None = None
    """The Thief's column; ``null`` off the map (before his first turn, or killed: he comes back on the
    Entrance at the start of his next turn, Vast rulebook §Morire)."""
    y: int | None = None
    """The Thief's row, as ``x``."""
    movement: int = 0
    """The Stat token on Movement this turn (2, 3 or 4: Vast rulebook §1. Assegna i Segnalini Statistica); 0
    before his first assignment."""
    stealth: int = 0
    """The Stat token on Stealth (tokens carried and Stat Boosts are added by ``thief_stealth``)."""
    thievery: int = 0
    """The Stat token on Thievery: Action cubes taken each turn."""
    assigned: bool = False
    """Whether he assigned his Stat tokens this turn."""
    cubes: int = 0
    """Action cubes left on his board this turn (Vast rulebook §2. Muovi e Agisci)."""
    moves: int = 0
    """Tiles moved this turn."""
    moving_done: bool = False
    """He ended his movement this turn (looking at the Dark tile he stands on ends it: Vast rulebook §2. Muovi
    e Agisci)."""
    loot_drop: int = 3
    """The Loot Drop level, 0-3 (Vast rulebook §Preparazione: 3): the bonus of whoever kills him."""
    carried: int = 0
    """Treasure tokens carried, not yet stashed (Unstashed Tokens): each -1 Stealth."""
    gems: tuple[str, ...] = ()
    """Dragon Gems carried, not yet stashed: each -1 Stealth."""
    stashed: int = 0
    """Tokens stashed at the Entrance (Vast rulebook §Come Vincere: 6 wins); a token Spores removes from its
    Upgrade space still counts."""
    upgrades: tuple[str, ...] = ()
    """Upgrade spaces holding a stashed token (``UPGRADES``), in the order filled."""
    targeted: tuple[str, ...] = ()
    """Players targeted this turn (``knight``, ``dragon``, ``goblins`` for any of their Tribes): each once a
    turn (Vast rulebook §Consigli Rapidi, Il Ladro)."""
    vaults_tried: tuple[tuple[int, int], ...] = ()
    """Vaults he tried to open this turn (each once a turn: Vast rulebook §Scassinare)."""
    sticky_used: bool = False
    """Sticky Fingers re-rolled a Pickpocket this turn."""
    evaded: bool = False
    """Unnatural Evasion was rolled this turn (the first attack each turn)."""
    hexed: int = 0
    """Stealth Hex takes until the Goblins' next turn (docs/vast/facts.md §3 Secrets cards)."""
    peeked: tuple[str, ...] = ()
    """The Dark tiles he looked at (Vast rulebook §2. Muovi e Agisci), by id, sorted: his secret (and the
    Cave's); he reads their identity on the map while they stay Dark."""


def thief_boost(thief: ThiefRole, stat: str) -> int:
    """+1 from the Stat Boost upgrade of ``stat`` (Vast rulebook §Migliorie, Incremento delle Statistiche)."""
    return 1 if f"{stat}+1" in thief.upgrades else 0


def thief_stat(thief: ThiefRole, stat: str) -> int:
    """``movement``, ``stealth`` (before tokens carried) or ``thievery``: the token's value and the boost,
    at most 5 (Vast rulebook §Migliorie)."""
    return min(5, getattr(thief, stat) + thief_boost(thief, stat))


def thief_stealth(thief: ThiefRole) -> int:
    """Stealth: the token, its boost, -1 per token carried (Vast rulebook §Trasportare e Mettere al Sicuro),
    -X while Hexed (docs/vast/facts.md §3), at least 0."""
    return max(0, thief_stat(thief, "stealth") - thief.carried - len(thief.gems) - thief.hexed)


def stat_tokens(thief: ThiefRole) -> tuple[int, int, int]:
    """The values of his three Stat tokens (docs/vast/facts.md §6: 2, 3, 4; flipped by the Flip Stat Tokens
    upgrades)."""
    if "all-4" in thief.upgrades:
        return (4, 4, 4)
    low = 3 if "flip-2" in thief.upgrades else 2
    mid = 4 if "flip-3" in thief.upgrades else 3
    return (low, mid, 4)


TribeName = Literal["fangs", "bones", "eye"]
"""A Goblin Tribe's name (its symbol), as the commands name it."""
TRIBES: tuple[TribeName, ...] = ("fangs", "bones", "eye")
"""The three Goblin Tribes, in the order the Goblins' board lists them (Vast rulebook §I Goblin, Tribù)."""


def player_of(target: str) -> str:
    """The player a target of the Thief belongs to: a Tribe is the Goblins' (Vast rulebook §Consigli Rapidi,
    Il Ladro: "contro ogni altro giocatore una volta per turno")."""
    return "goblins" if target in TRIBES else target


GoblinsPhase = Literal[
    "", "war", "war-draw", "populate", "monsters", "monsters-drawn", "secrets", "secrets-drawn", "activate"
]
"""Where the Goblins' turn is (Vast rulebook §I Goblin, Riepilogo del Turno): ``""`` not their turn (or a
table laid in the middle of it); ``war`` and ``war-draw`` (1. Scegli una Carta Guerra, the War cards being
drawn), ``populate`` (2. Popola le Tribù), ``monsters`` and ``monsters-drawn`` (3. Assegna i Mostri, before
and after the draw), ``secrets`` and ``secrets-drawn`` (4. Pesca le Carte Segreti), ``activate`` (5. Attiva le
Tribù)."""


class Tribe(Struct, frozen=True, kw_only=True):
    """A Goblin Tribe (Vast rulebook §Statistiche della Tribù, §Rivelare, §Nascondere)."""

    name: TribeName
    """``fangs``, ``bones`` or ``eye`` (its symbol)."""
    population: int = 0
    """Goblin discs (0-4)."""
    x: int | None = None
    """Its column on the map (or, lurking, on the empty space it waits on); ``null`` while on the board."""
    y: int | None = None
    """Its row, as ``x``."""
    lurking: bool = False
    """Waiting on an empty space next to the map: still hidden (Vast rulebook §Rivelare)."""
    monsters: tuple[str, ...] = ()
    """Monster cards assigned, oldest first (public)."""
    activated: bool = False
    """Activated this turn (Vast rulebook §5. Attiva le Tribù: once each)."""
    lit_left: int = 0
    """Lit tiles it left this turn (a disc is lost for every 2)."""


class GoblinsRole(Struct, frozen=True, kw_only=True):
    """The Goblins' board (Vast rulebook §I Goblin; docs/vast/facts.md §3)."""

    tribes: tuple[Tribe, ...] = (Tribe(name="fangs"), Tribe(name="bones"), Tribe(name="eye"))
    """The three Tribes: Fangs, Bones, Eye."""
    rage: int = 1
    """Rage, 0-3 (Vast rulebook §Furia e Malessere); at 0 every Tribe has -1 Strength (Malaise)."""
    phase: GoblinsPhase = ""
    """Where the Goblins' turn is (``GoblinsPhase``)."""
    war: str | None = None
    """The War card chosen this turn (public)."""
    hand: tuple[str, ...] = ()
    """Secrets cards in hand, sorted: the Goblins' secret."""
    face_up: tuple[str, ...] = ()
    """Secrets cards face up before them (Trap)."""
    drawn: tuple[str, ...] = ()
    """Monster cards drawn and not yet assigned or discarded (the Goblins' secret until assigned)."""
    fire_bomber: str | None = None
    """The Tribe with Fire Bomber's +2 Strength this turn."""
    blind_fury: str | None = None
    """The Tribe that loses no Population moving through Lit tiles this turn."""
    tunnels: bool = False
    """Secret Tunnels this turn."""
    crystal_attack: tuple[str, int, int] | None = None
    """A Tribe that attacked a Crystal this turn, and where (two Tribes smash it: Vast rulebook
    §Attaccare)."""
    flared: tuple[str, ...] = ()
    """Tribes that used Flare this turn (docs/vast/facts.md §7 Variant cards, Goblins vs Cave: each once a
    turn)."""
    smashed: int = 0
    """Crystal tokens kept on their board: smashed with no Knight in play to hand them to (Vast rulebook
    §Attaccare)."""
    ruby_used: bool = False
    """The Goblin Ruby redrew a card this turn (docs/vast/facts.md §3 Secrets cards: once a turn)."""
    wisp_used: bool = False
    """The Wisp moved the Knight this turn (docs/vast/facts.md §3 Monster cards: once a turn)."""
    poison_played: bool = False
    """Poison was played this turn: the next Tribe attacking the Knight leaves her cubes on the Entrance."""
    window: str = ""
    """The phase whose Secrets window the Goblins closed (``SecretsWindowClosed``; rules revision 6): they
    play Secrets cards at any time of their turn, so each phase before the activation first offers them."""


class VastState(Struct, frozen=True, kw_only=True):
    """The whole table."""

    roles: tuple[str, ...]
    """Roles in play, in turn order (docs/vast/facts.md §7)."""
    rules_revision: int = 1
    """The revision of Vast's rules this game is played by (``GameCreated.rules_revision``): 2 adds the
    Event tokens; games of revision 1 keep playing without them, so they re-derive as they were played."""
    phase: Phase = "setup"
    """``setup``, ``play`` or ``ended``."""
    turn: str | None = None
    """The role whose turn it is."""
    round: int = 0
    """The round."""
    cells: tuple[CaveCell, ...] = ()
    """The map, in placement order."""
    rockslides: tuple[tuple[int, int, str], ...] = ()
    """Edges holding a Rockslide (``dicelog.domain.vast.cave.edge``)."""
    bombs: tuple[tuple[int, int, str], ...] = ()
    """Edges holding a Bomb token (the wall is removed)."""
    knight: KnightRole | None = None
    """The Knight's board; ``null`` when not in play."""
    cave: CaveRole | None = None
    """The Cave's board; ``null`` when not in play."""
    goblins: GoblinsRole | None = None
    """The Goblins' board; ``null`` when not in play."""
    dragon: DragonRole | None = None
    """The Dragon's board; ``null`` when not in play."""
    thief: ThiefRole | None = None
    """The Thief's board; ``null`` when not in play."""
    war_deck: tuple[str, ...] = ()
    """War cards (all 10: the deck is shuffled whole every Goblins turn; secret)."""
    monster_deck: tuple[str, ...] = ()
    """Face-down Monster cards (secret)."""
    monster_discard: tuple[str, ...] = ()
    """Monster cards discarded (shuffled back when the deck runs out)."""
    secrets_deck: tuple[str, ...] = ()
    """Face-down Secrets cards (secret)."""
    secrets_discard: tuple[str, ...] = ()
    """Secrets cards played or discarded (shuffled back when the deck runs out)."""
    stack: tuple[str, ...] = ()
    """Face-down non-Crystal tiles left in the stack (sorted; secret)."""
    crystals: tuple[str, ...] = ()
    """Crystal tiles left in the stack (sorted; secret)."""
    piles: tuple[int, ...] = ()
    """Tiles left in each of the three piles, top pile first (docs/vast/facts.md §1 Tile stack setup)."""
    pile_crystals: tuple[int, ...] = ()
    """Crystal tiles left in each pile (3 each at setup; secret)."""
    vaults: tuple[str, ...] = ()
    """Vault tiles left in the stack (sorted; secret; Thief games only: docs/vast/facts.md §1 Tile stack
    setup)."""
    pile_vaults: tuple[int, ...] = ()
    """Vault tiles left in each pile (2 each at setup with the Thief; secret)."""
    treasure_deck: tuple[str, ...] = ()
    """Face-down Treasure cards (masked)."""
    treasure_bottom: tuple[str, ...] = ()
    """Treasure cards at the bottom of the deck, in order (the Cave's)."""
    event_deck: tuple[str, ...] = ()
    """Face-down Event cards (masked)."""
    event_bottom: tuple[str, ...] = ()
    """Event cards at the bottom of the deck, in order (the Cave's)."""
    event_top: tuple[str, ...] = ()
    """From rules revision 6 with a Cave player, the top cards of the Event deck in order, first on top (up to
    3, drawn from ``event_deck`` as they come up, and still counted in it): the Cave reads them at any time
    (Vast rulebook §La Caverna, Eventi), nobody else. The cards below them are in an order nobody has seen,
    so drawing each when it comes up is the same as having shuffled the deck (``rules.flow.top_events``)."""
    sidequest_deck: tuple[str, ...] = ()
    """Face-down Sidequests (masked)."""
    sidequest_top: tuple[str, ...] = ()
    """The Sidequest deck's top cards in order, first on top, as a sandbox laid them (still counted in
    ``sidequest_deck``): the Knight's next Sidequest draws take them one by one, then the cards below come in
    an order nobody has seen (a uniform draw). Nobody sees them (masked for every reader but an auditor);
    empty in every game not laid so, whose draws are all uniform (Vast rulebook §Missioni Secondarie)."""
    omen_bag: tuple[str, ...] = ()
    """Omen tokens in the bag."""
    treasure_tokens: int = 10
    """Treasure tokens in play (docs/vast/facts.md §1: 10, 12 with the Thief)."""
    offer_to: str = "cave"
    """The role that sees ``offer`` (the Cave's Treasure and Event choices, the Goblins' War cards;
    ``knight``: the Treasure card given to her, which the Cave sees too)."""
    offer: tuple[str, ...] = ()
    """Cards drawn and not yet given (the Treasure or Event cards the Cave chooses among; secret)."""
    todo: tuple[str, ...] = ()
    """Steps still to resolve, first first (``reveal:x,y:mode``, ``resolve:x,y:mode``, ``grit:n:why``,
    ``treasure``): the order Vast rulebook sets for a chain (reveal, fill the open edges, resolve, gain
    Grit)."""
    collapse: bool = False
    """Whether the Collapse has begun (Vast rulebook §Il Collasso)."""
    crystal_tiles_collapsed: int = 0
    """Crystal tiles removed (Vast rulebook §Il Collasso: 5 and the Cave wins)."""
    revealed: int = 0
    """Cave tiles revealed in the game (Intrepid)."""
    smashed_total: int = 0
    """Crystal tokens smashed by anyone (Persistent)."""
    begun: bool = False
    """Whether ``Begin`` has set the game up."""
    variants: tuple[str, ...] = ()
    """The setup's variant cards (``RolesSeated.variants``: ``infestation:A``, ``ash-dragon``...)."""
    ambusher: str = ""
    """The Monster card ambushing the Knight (Goblin Infestation line C, docs/vast/facts.md §7 Variant cards):
    drawn when the Ambush is sprung, set aside when it is resolved; empty between Ambushes."""
    infestation_aside: tuple[str, ...] = ()
    """Line C Monster cards out of the deck and the discard pile: ``bright-beetles`` waiting beside the deck
    (the next Monster drawn gets +1 Strength), ``golem`` on the Knight's board (an Ancient Map use costs 2
    cubes) (docs/vast/facts.md §3 Monster cards, Ambush text)."""
    difficulty: dict[str, int] = field(default_factory=dict)
    """The difficulty card of each role that took one (docs/vast/facts.md §7 Difficulty cards: level 1-5, 3
    standard)."""
    setup_row: str = ""
    """The docs/vast/facts.md §7 row being played (``dicelog.domain.vast.rules.setup.SETUPS``); empty in games
    created before rows were chosen by id (their roles name it)."""
    laid_turn: str | None = None
    """A sandbox table: the role whose turn ``Begin`` starts (``dicelog.domain.vast.rules.sandbox``)."""
    open_left: tuple[tuple[int, int, str], ...] = ()
    """A sandbox table laid with its open edges left open (``VastSandbox.fill_open_edges`` false): the Lit
    tiles' sides ``(x, y, side)`` the Cave does not fill while they stay open."""
    laid_at_start: bool = False
    """A sandbox table laid at the start of its turn: ``Begin`` runs the turn's start steps (the Cave's
    Omens, the Dragon's placement and Flame Wall, the Thief's start, an Event token under the Knight)."""
    ending: bool = False
    """Without a Cave player, the turn's end is under way (``TurnEnding``: its steps are in ``todo``)."""
    turn_over: bool = False
    """The Knight lost a placed Hero cube to a Grit loss on her own turn: her turn ends at once (Vast rulebook
    §Coraggio)."""
    winner: str | None = None
    """The role that won, once the game ended; ``everyone-lost`` when nobody did."""
    end_reason: str = ""
    """Why the game ended."""
