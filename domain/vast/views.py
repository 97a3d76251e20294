"""Read models of a Vast game (docs/vast/architecture.md, Projections): the board as a grid of cells, the turn
order with each role's public tracks, and the game-log line of each event. Built from a state already masked
for its reader (``dicelog.domain.vast.visibility.view_state``), so they show only what the reader may see."""

from __future__ import annotations

from msgspec import Struct

from dicelog.domain.core.events import CardsDrawn, DecisionMade, DecisionRequested, DiceRolled, Event
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import DRAGON_DIE, SIDES, Geometry
from dicelog.domain.vast.content import cards as card_data
from dicelog.domain.vast.content import goblin_file, tiles
from dicelog.domain.vast.rules.common import (
    dragon_armor,
    free_cubes,
    geometry,
    movement,
    owned_cubes,
    perception,
    stack_size,
    strength,
    treasure_supply,
)
from dicelog.domain.vast.rules.flow import agreed_crystals
from dicelog.domain.vast.state import (
    HIDDEN,
    TRIBES,
    GoblinsPhase,
    VastState,
    spirit,
    stat_tokens,
    thief_stat,
    thief_stealth,
    wakefulness,
)


class BoardCell(Struct, frozen=True, kw_only=True):
    """One tile of the cave as the reader sees it."""

    x: int
    """Columns from the Entrance (east positive)."""
    y: int
    """Rows from the Entrance (north positive)."""
    side: str
    """``entrance``, ``lit`` or ``dark``."""
    symbol: str | None
    """The Tribe symbol on a Dark tile (``fangs``, ``bones``, ``eye``); ``null`` otherwise."""
    tile: str
    """The tile id; ``"?"`` for a Dark tile the reader may not examine (the Cave examines every Dark tile, the
    Thief those he looked at)."""
    kind: str | None
    """The room (``ambush``, ``event``, ``treasure-room``, ``crystal``, ``vault``, ``entrance``) when the
    reader knows it."""
    walls: tuple[str, ...]
    """Walled sides of a Lit tile (``N``, ``E``, ``S``, ``W``), Rockslides included, Bombed walls excluded."""
    treasure: int
    """Treasure tokens on it."""
    crystal: bool
    """Whether a Crystal token lies on it."""
    pieces: tuple[str, ...]
    """Pieces on it (``knight``, ``dragon``, a revealed Tribe's name, ``thief``)."""
    gems: tuple[str, ...] = ()
    """Dragon Gems on it (``claw``, ``flame``, ``wing``)."""
    flame_wall: bool = False
    """The Dragon's Flame Wall token is on it."""
    event_token: bool = False
    """An Event token lies on it (the Knight entering resolves an Event)."""
    vault: bool = False
    """A Vault token lies on it (a revealed Vault tile, Thief games: his Pick Lock opens it, Vast rulebook
    §Cripta)."""


class TribeView(Struct, frozen=True, kw_only=True):
    """A Goblin Tribe as everyone sees it (Vast rulebook §Statistiche della Tribù)."""

    name: str
    """``fangs``, ``bones`` or ``eye``."""
    population: int
    """Goblin discs."""
    strength: int
    """Its Strength now."""
    where: str
    """``board`` (hidden on the Goblins' board), ``lurking`` (hidden, on an empty space next to the map) or
    ``map`` (revealed)."""
    x: int | None
    """Its column on the map (or where it lurks); ``null`` on the board."""
    y: int | None
    """Its row, as ``x``."""
    monsters: tuple[str, ...]
    """Its Monster cards."""
    activated: bool
    """Activated this turn."""


class VastBoard(Struct, frozen=True, kw_only=True):
    """``GET /games/{id}/board`` for a Vast game: the cave as a grid of cells, ``(0, 0)`` the Entrance."""

    cells: tuple[BoardCell, ...]
    """Every tile on the map, in ``(x, y)`` order."""
    rockslides: tuple[tuple[int, int, str], ...]
    """Edges holding a Rockslide: ``[x, y, "N"|"E"]`` names the edge north or east of ``(x, y)``."""
    bombs: tuple[tuple[int, int, str], ...]
    """Edges holding a Bomb token (the wall there is gone), named as ``rockslides``."""
    stack: int
    """Tiles left in the stack."""
    cave_hand: tuple[str, ...]
    """The Cave's tiles in hand: ids for the Cave, ``"?"`` for others."""
    cave_in_play: bool = True
    """Whether a Cave player is in play; without one, the players do its work (Vast rulebook §Varianti)."""
    collapse: bool
    """Whether the Collapse has begun (Vast rulebook §Il Collasso)."""
    crystal_tiles_collapsed: int
    """Crystal tiles removed (5: the Cave wins; with no Cave player, everyone loses)."""
    treasure_supply: int
    """Treasure tokens in the supply (the Cave's board; without a Cave player, the 10 less those on the map
    and held by the Dragon)."""
    tribes: tuple[TribeView, ...] = ()
    """The Goblin Tribes (empty without the Goblins)."""
    dragon: str | None = None
    """Where the Dragon is: ``asleep`` or ``awake`` (both underground) or ``surfaced``; ``null`` without it or
    before its first turn places it."""
    dragon_die: dict[str, tuple[tuple[int, int], ...]]
    """The Dragon die's six patterns by face (``1`` center ... ``6`` around): offsets from the roller's
    tile."""
    thief: str | None = None
    """Where the Thief is: ``map`` (his piece is on a cell's ``pieces``) or ``off`` (off the map: before his
    first turn, or killed, until the start of his next turn puts him on the Entrance); ``null`` without
    him."""


class KnightTrack(Struct, frozen=True, kw_only=True):
    """The Knight's public board (Vast rulebook §Il Cavaliere)."""

    x: int
    """Her column (from the Entrance, east positive)."""
    y: int
    """Her row (from the Entrance, north positive)."""
    health: int
    """Health (7 at the start)."""
    grit: int
    """Grit, 0-45."""
    hero_cubes: int
    """Hero cubes she has (2 + Grit spaces reached - discarded)."""
    free_cubes: int
    """Hero cubes not placed this turn."""
    placed: dict[str, int]
    """Cubes placed this turn by target."""
    movement: int
    """Movement this turn (tiles)."""
    perception: int
    """Perception this turn (Encounters)."""
    strength: int
    """Strength now (her own turn's bonuses included on her turn)."""
    moves: int
    """Tiles moved this turn."""
    encounters: int
    """Encounters had this turn."""
    smashed: int
    """Crystal tokens smashed."""
    bombs: int
    """Bomb tokens left."""
    treasures: tuple[str, ...]
    """Face-down Treasure cards (ids for the Knight and the Cave, ``"?"`` for others)."""
    face_up: tuple[str, ...]
    """Face-up Treasure cards."""
    sidequests: tuple[str, ...]
    """Sidequests in hand (ids for the Knight, ``"?"`` for others)."""
    completed: tuple[str, ...]
    """Sidequests completed."""
    poisoned: int = 0
    """Hero cubes Poison left on the Entrance, hers again when she enters it (docs/vast/facts.md §3 Secrets
    cards)."""
    max_health: int = 7
    """Her Health at the start, the most she heals to (5-9 by the Goblins' difficulty card, docs/vast/facts.md
    §7)."""


class CaveTrack(Struct, frozen=True, kw_only=True):
    """The Cave's public board (Vast rulebook §La Caverna)."""

    hand: int
    """Tiles in hand."""
    omens: tuple[str, ...]
    """Omen tokens held."""
    treasure_supply: int
    """Treasure tokens on the Cave's board."""
    placed_this_turn: int
    """Tiles placed (or, during the Collapse, removed) this turn."""


class GoblinsTrack(Struct, frozen=True, kw_only=True):
    """The Goblins' public board (Vast rulebook §I Goblin)."""

    rage: int
    """Rage, 0-3 (0: Malaise)."""
    phase: GoblinsPhase
    """The phase of their turn (``GoblinsPhase``)."""
    war: str | None
    """The War card of this turn."""
    hand: int
    """Secrets cards in hand."""
    face_up: tuple[str, ...]
    """Secrets cards face up (Trap)."""
    crystals_smashed: int = 0
    """Crystal tokens kept on their board, smashed with no Knight in play (5 win with neither Knight nor
    Dragon: Vast rulebook §I Goblin, Come Vincere)."""
    flared: tuple[str, ...] = ()
    """Tribes that used Flare this turn (docs/vast/facts.md §7 Variant cards, Goblins vs Cave)."""
    poison_played: bool = False
    """Poison is played this turn: the next Tribe attacking the Knight leaves her cubes on the Entrance."""


class DragonTrack(Struct, frozen=True, kw_only=True):
    """The Dragon's public board (Vast rulebook §Il Drago)."""

    x: int | None
    """Its column; ``null`` before its first turn."""
    y: int | None
    """Its row, as ``x``."""
    health: int
    """Health (5 at the start)."""
    sloth: dict[str, int]
    """Sloth cubes left on each Sloth track (``greed``, ``hunger``, ``pride-events``, ``pride-still``,
    ``pride-gem``)."""
    wakefulness: int
    """Cubes on the Wakefulness track (``awake_at`` awakens it)."""
    armor: int
    """Armor."""
    spirit: int
    """Spirit (Power cards drawn at the end of its turn)."""
    awake: bool
    """Awakened."""
    surfaced: bool
    """On the surface (else underground)."""
    eaten: int
    """The Eaten Goblins track."""
    hand: tuple[str, ...]
    """Power cards in hand: ids for the Dragon, ``"?"`` for others."""
    gems: tuple[str, ...]
    """Dragon Gems in its reserve."""
    held: int
    """Treasure tokens held for later Greed cubes."""
    shriek: bool
    """The Shriek token is ready to re-roll the Dragon die."""
    flame_wall: tuple[int, int] | None
    """Where its Flame Wall is, ``null`` in reserve."""
    stage: int
    """Its turn's phase: 0 moving and Powers, 1 Treasure collected, 2 Gem placed."""
    awake_at: int = 11
    """The Wakefulness that awakens it (11; 7-13 by the Dragon's difficulty card, docs/vast/facts.md §7)."""


class ThiefTrack(Struct, frozen=True, kw_only=True):
    """The Thief's public board (Vast rulebook §Il Ladro; docs/vast/facts.md §6)."""

    x: int | None
    """His column; ``null`` off the map (before his first turn, or killed: the start of his next turn puts
    him on the Entrance, Vast rulebook §Morire)."""
    y: int | None
    """His row, as ``x``."""
    movement: int
    """Movement: tiles he may move this turn (the Stat token on it and its Stat Boost, at most 5)."""
    stealth: int
    """Stealth now: the Stat token on it and its Stat Boost (at most 5), -1 for each Treasure token and Gem
    he carries, at least 0. Targeting a player takes Stealth above its Perception (the Dragon: Armor); a
    player whose Perception is above it may attack him (Vast rulebook §Interagire con gli Altri)."""
    thievery: int
    """Thievery: the Action cubes he takes at the start of his turn (token and Stat Boost, at most 5)."""
    stat_tokens: tuple[int, int, int]
    """The values of his three Stat tokens (2, 3, 4 at the start; the Flip Stat Tokens upgrades raise them,
    docs/vast/facts.md §6)."""
    assigned: bool
    """He assigned his Stat tokens this turn (Vast rulebook §1. Assegna i Segnalini Statistica)."""
    cubes: int
    """Action cubes left this turn."""
    moves: int
    """Tiles moved this turn."""
    moving_done: bool
    """His movement ended this turn (he looked at the Dark tile he stands on)."""
    loot_drop: int
    """The Loot Drop level, 0-3: the bonus of whoever kills him (Hide Loot lowers it; stashing sets it back
    to 3)."""
    carried: int
    """Treasure tokens carried, not yet stashed (each -1 Stealth; dropped on his tile if he is killed)."""
    gems: tuple[str, ...]
    """Dragon Gems carried, not yet stashed (each -1 Stealth)."""
    stashed: int
    """Tokens stashed at the Entrance: 6 win (Vast rulebook §Come Vincere)."""
    stash_goal: int = 6
    """Tokens stashed to win (Vast rulebook §Come Vincere: 6)."""
    upgrades: tuple[str, ...]
    """Upgrade spaces holding a stashed token, in the order filled (``sticky-fingers``, ``lock-picking-kit``,
    ``climbing-gear``, ``hand-crossbow``, ``unnatural-evasion``, ``movement+1``, ``stealth+1``,
    ``thievery+1``, ``flip-2``, ``flip-3``, ``all-4``: Vast rulebook §Migliorie)."""
    targeted: tuple[str, ...]
    """Players he targeted this turn (``knight``, ``dragon``, ``goblins`` for any Tribe): each once a turn."""
    peeked: tuple[str, ...] = ()
    """The Dark tiles he looked at: ids for the Thief and the Cave, ``"?"`` for others."""
    evaded: bool = False
    """Unnatural Evasion was rolled this turn (it turns only the first attack of each turn)."""
    sticky_used: bool = False
    """Sticky Fingers re-rolled a Pickpocket this turn (once a turn)."""
    hexed: int = 0
    """Stealth Hex takes from him until the Goblins' next turn (docs/vast/facts.md §3 Secrets cards; already
    counted in ``stealth``)."""


class VastInitiative(Struct, frozen=True, kw_only=True):
    """``GET /games/{id}/initiative`` for a Vast game: the turn order (docs/vast/facts.md §7) and each role's
    public tracks."""

    order: tuple[str, ...]
    """Roles in play, in turn order."""
    turn: str | None
    """The role whose turn it is."""
    round: int
    """The round (a round is one turn of every role)."""
    phase: str
    """``setup``, ``play`` or ``ended``."""
    knight: KnightTrack | None
    """The Knight's public board; ``null`` when not in play."""
    cave: CaveTrack | None
    """The Cave's public board; ``null`` when not in play."""
    goblins: GoblinsTrack | None = None
    """The Goblins' public board; ``null`` when not in play."""
    dragon: DragonTrack | None = None
    """The Dragon's public board; ``null`` when not in play."""
    thief: ThiefTrack | None = None
    """The Thief's public board; ``null`` when not in play."""
    winner: str | None
    """The winning role once the game ended; ``everyone-lost`` when the Cave collapsed with no Cave player
    (Vast rulebook §Il Collasso)."""


def board_view(state: VastState) -> VastBoard:
    g = geometry(state)
    k = state.knight
    cells = []
    for c in sorted(state.cells, key=lambda c: (c.x, c.y)):
        known = c.tile != HIDDEN
        side = "entrance" if c.tile == "entrance" else ("lit" if c.lit else "dark")
        walls = tuple(s for s in SIDES if g.wall_between((c.x, c.y), s)) if c.lit else ()
        pieces: tuple[str, ...] = ("knight",) if k is not None and (k.x, k.y) == (c.x, c.y) else ()
        d = state.dragon
        if d is not None and (d.x, d.y) == (c.x, c.y):
            pieces += ("dragon",)
        if state.goblins is not None:
            here = (c.x, c.y)
            pieces += tuple(t.name for t in state.goblins.tribes if not t.lurking and (t.x, t.y) == here)
        th = state.thief
        if th is not None and th.x is not None and (th.x, th.y) == (c.x, c.y):
            pieces += ("thief",)
        cells.append(
            BoardCell(
                x=c.x,
                y=c.y,
                side=side,
                symbol=c.symbol,
                tile=c.tile,
                kind=tiles()[c.tile].kind if known else None,
                walls=walls,
                treasure=c.treasure,
                crystal=c.crystal,
                pieces=pieces,
                gems=c.gems,
                flame_wall=state.dragon is not None and state.dragon.flame_wall == (c.x, c.y),
                event_token=c.event_token,
                vault=c.vault,
            )
        )
    cave = state.cave
    return VastBoard(
        cells=tuple(cells),
        rockslides=state.rockslides,
        bombs=state.bombs,
        stack=stack_size(state),
        cave_hand=cave.hand if cave else (),
        cave_in_play=cave is not None,
        collapse=state.collapse,
        crystal_tiles_collapsed=state.crystal_tiles_collapsed,
        treasure_supply=treasure_supply(state),
        tribes=_tribes(state),
        dragon=_dragon_where(state),
        dragon_die={str(face): offsets for face, (_, offsets) in DRAGON_DIE.items()},
        thief=None if state.thief is None else ("off" if state.thief.x is None else "map"),
    )


def _dragon_where(state: VastState) -> str | None:
    d = state.dragon
    if d is None or d.x is None:
        return None
    return "surfaced" if d.surfaced else ("awake" if d.awake else "asleep")


def _tribes(state: VastState) -> tuple[TribeView, ...]:
    from dicelog.domain.vast.rules.goblins import tribe_strength

    gob = state.goblins
    if gob is None:
        return ()
    return tuple(
        TribeView(
            name=t.name,
            population=t.population,
            strength=tribe_strength(state, t),
            where="lurking" if t.lurking else ("board" if t.x is None else "map"),
            x=t.x,
            y=t.y,
            monsters=t.monsters,
            activated=t.activated,
        )
        for t in gob.tribes
    )


def initiative_view(state: VastState) -> VastInitiative:
    k = state.knight
    knight = None
    if k is not None:
        knight = KnightTrack(
            x=k.x,
            y=k.y,
            health=k.health,
            grit=k.grit,
            hero_cubes=owned_cubes(k),
            free_cubes=free_cubes(k),
            placed=dict(k.placed),
            movement=movement(k),
            perception=perception(k),
            strength=strength(k, state.turn == "knight"),
            moves=k.moves,
            encounters=k.encounters,
            smashed=k.smashed,
            bombs=k.bombs,
            treasures=k.treasures,
            face_up=k.face_up,
            sidequests=k.sidequests,
            completed=k.completed,
            poisoned=k.poisoned,
            max_health=k.max_health,
        )
    c = state.cave
    cave = None
    if c is not None:
        cave = CaveTrack(hand=len(c.hand), omens=c.omens, treasure_supply=c.supply, placed_this_turn=c.placed)
    return VastInitiative(
        order=state.roles,
        turn=state.turn,
        round=state.round,
        phase=state.phase,
        knight=knight,
        cave=cave,
        goblins=None
        if state.goblins is None
        else GoblinsTrack(
            rage=state.goblins.rage,
            phase=state.goblins.phase,
            war=state.goblins.war,
            hand=len(state.goblins.hand),
            face_up=state.goblins.face_up,
            crystals_smashed=state.goblins.smashed,
            flared=state.goblins.flared,
            poison_played=state.goblins.poison_played,
        ),
        dragon=_dragon(state),
        thief=_thief(state),
        winner=state.winner,
    )


def _thief(state: VastState) -> ThiefTrack | None:
    th = state.thief
    if th is None:
        return None
    return ThiefTrack(
        x=th.x,
        y=th.y,
        movement=thief_stat(th, "movement"),
        stealth=thief_stealth(th),
        thievery=thief_stat(th, "thievery"),
        stat_tokens=stat_tokens(th),
        assigned=th.assigned,
        cubes=th.cubes,
        moves=th.moves,
        moving_done=th.moving_done,
        loot_drop=th.loot_drop,
        carried=th.carried,
        gems=th.gems,
        stashed=th.stashed,
        upgrades=th.upgrades,
        targeted=th.targeted,
        peeked=th.peeked,
        evaded=th.evaded,
        sticky_used=th.sticky_used,
        hexed=th.hexed,
    )


def _dragon(state: VastState) -> DragonTrack | None:
    d = state.dragon
    if d is None:
        return None
    return DragonTrack(
        x=d.x,
        y=d.y,
        health=d.health,
        sloth=dict(d.sloth),
        wakefulness=wakefulness(d),
        armor=dragon_armor(state),
        spirit=spirit(d),
        awake=d.awake,
        awake_at=d.awake_at,
        surfaced=d.surfaced,
        eaten=d.eaten,
        hand=d.hand,
        gems=d.gems,
        held=d.held,
        shriek=d.shriek,
        flame_wall=d.flame_wall,
        stage=d.stage,
    )


GOBLIN_PHASES = ("war", "populate", "monsters", "secrets", "activate")
THIEF_ACTIONS = {
    "loot": "Loot",
    "pickpocket": "Pickpocket",
    "pick-lock": "Pick Lock",
    "backstab": "Backstab",
    "hide-loot": "Hide Loot",
    "flare": "Flare",
}
"""The Thief's actions by name (Vast rulebook §Il Ladro, 2. Muovi e Agisci)."""
UPGRADE_NAMES = {
    "sticky-fingers": "Sticky Fingers",
    "lock-picking-kit": "Lock Picking Kit",
    "climbing-gear": "Climbing Gear",
    "hand-crossbow": "Hand Crossbow",
    "unnatural-evasion": "Unnatural Evasion",
    "movement+1": "Movement +1",
    "stealth+1": "Stealth +1",
    "thievery+1": "Thievery +1",
    "flip-2": "Flip Stat Tokens (2 to 3)",
    "flip-3": "Flip Stat Tokens (3 to 4)",
    "all-4": "Flip Stat Tokens (all 4)",
}
"""The Thief's Upgrade spaces by name (Vast rulebook §Migliorie; ``dicelog.domain.vast.state.UPGRADES``)."""
THIEF_HITS = {"claw": "Claw", "scratch": "Scratch", "flame-wall": "Flame Wall"}
"""The Dragon's ways of striking the Thief (``ThiefAttacked.why``)."""
WOUNDS = {1: "Light", 2: "Moderate", 3: "Heavy"}
"""Backstab's wounds by cubes spent (Vast rulebook §Pugnalare alle Spalle)."""


def _monster(card: str) -> str:
    """A Monster card's name (docs/vast/facts.md §3 Monster cards)."""
    return next((m.name for m in goblin_file().monsters if m.id == card), card)


def _name(card: str) -> str:
    return "a card" if card == HIDDEN else card_data()[card].name if card in card_data() else card


def _tile(tile: str) -> str:
    return "a tile" if tile == HIDDEN else f"{tiles()[tile].kind} tile {tile}"


def describe(state: VastState, event: Event) -> str | None:
    """The game-log line of ``event`` (already masked for the reader), ``state`` being the state after it."""
    match event:
        case ev.RolesSeated(roles=roles, setup=setup):
            return f"Setup {setup}: {', '.join(roles)}"
        case ev.VastRoundStarted(round=n):
            return f"Round {n}"
        case ev.VastTurnStarted(role=role):
            owner = f"{role.capitalize()}'" if role == "goblins" else f"{role.capitalize()}'s"
            return f"The {owner} turn"
        case ev.DarkTilePlaced(x=x, y=y, tile=tile, symbol=symbol, by=by):
            who = "The setup" if by == "setup" else f"The {_role(by)}"
            what = "a Dark tile" if tile == HIDDEN else f"{_tile(tile)} Dark side up"
            return f"{who} places {what} ({symbol}) at {x},{y}"
        case ev.TileRevealed(x=x, y=y, tile=tile, by="thief"):
            return f"The Thief reveals {_tile(tile)} at {x},{y}"
        case ev.TileRevealed(x=x, y=y, tile=tile):
            return f"The {state.turn or 'Knight'} reveals {_tile(tile)} at {x},{y}".replace(
                "The knight", "The Knight"
            )
        case ev.TileOriented(x=x, y=y, rotation=r):
            return f"The tile at {x},{y} is turned {r * 90}°"
        case ev.TileResolved(kind=kind, treasure=treasure, crystal=crystal, x=x, y=y, mode=mode):
            if treasure:
                return f"A Treasure token appears at {x},{y}"
            if crystal:
                return f"A Crystal token appears at {x},{y}"
            if mode == "full" and kind in ("event", "ambush"):
                return f"The {kind} tile at {x},{y} takes effect"
            return None
        case ev.HeroCubeRecovered():
            return "The Knight gets a Hero cube back (Cave Bread)"
        case ev.HeroCubeDiscarded(spent=spent):
            return "The Knight spends a Hero cube" if spent else "The Knight discards a Hero cube"
        case ev.HeroCubeReturned(target=target):
            return f"Grit falls below a cube's space: the cube on {target} goes back and her turn ends"
        case ev.OmensCollected(count=count, tokens_on_map=tokens):
            return f"The Cave collects {count} Omen(s) ({tokens} Treasure and Crystal tokens on the map)"
        case ev.GritChanged(delta=delta, why=why):
            k = state.knight
            if delta == 0:  # a loss at 0 Grit, or a gain at 45
                return f"The Knight's Grit stays at {k.grit if k else '?'} ({why})"
            verb = "gains" if delta > 0 else "loses"
            return f"The Knight {verb} {abs(delta)} Grit ({why}): {k.grit if k else '?'}"
        case ev.KnightMoved(x=x, y=y, through_wall=through, forced=forced, why=why):
            how = " through a wall (Ancient Map)" if through else (" off a collapsing tile" if forced else "")
            if forced and why:
                how = f" ({_monster(why)})"
            return f"The Knight moves to {x},{y}{how}"
        case ev.HeroCubePlaced(target=target):
            return f"The Knight places a Hero cube on {_name(target) if target in card_data() else target}"
        case ev.CrystalSmashed(x=x, y=y):
            return f"The Knight smashes the Crystal at {x},{y}"
        case ev.TreasureTokenTaken(count=count):
            return f"The Knight collects {count} Treasure token{'s' if count != 1 else ''}"
        case ev.TreasureOffered(card=card):
            return f"The Cave gives the Knight {_name(card)}"
        case ev.TreasureKept(card=card):
            return f"The Knight keeps {_name(card)} face down"
        case ev.TreasureDeclined(card=card):
            return f"The Knight declines {_name(card)}"
        case ev.TreasureUsed(card=card, heal=heal):
            return f"The Knight uses {_name(card)}" + (f" and heals {heal}" if heal else "")
        case ev.EventPlayed(card=card):
            if state.cave is None:  # without a Cave player she draws and resolves the top card
                return f"The Event {_name(card)} is played on the Knight"
            return f"The Cave plays the Event {_name(card)} on the Knight"
        case ev.HealthChanged(delta=delta, why=why):
            k = state.knight
            verb = "heals" if delta > 0 else "loses"
            return f"The Knight {verb} {abs(delta)} Health ({why}): {k.health if k else '?'}"
        case ev.VastAmbushResolved(strength=s, ambusher=a, hurt=hurt, monster=monster):
            by = f" by the {_monster(monster)}" if monster else ""
            return f"Ambush{by}! Strength {s} against {a}: " + (
                "the Knight is hurt" if hurt else "the Knight holds"
            )
        case ev.InfestationMonsterPlaced(card=card, to=to):
            where = {
                "discard": "is discarded",
                "knight-board": "goes on the Knight's board: each Ancient Map use costs 2 cubes",
                "beside-deck": "waits beside the deck: the next Monster drawn gets +1 Strength",
            }.get(to, to)
            return f"The {_monster(card)} {where}"
        case ev.TreasureCardDiscarded(card=card, why=why, hidden=hidden):
            which = (
                ("a face-down Treasure card" + ("" if card in (HIDDEN, "") else f" ({_name(card)})"))
                if (hidden)
                else _name(card)
            )
            return (
                f"The Knight discards {which} ({_monster(why)}): it goes to the bottom of the Treasure deck"
            )
        case CardsDrawn(deck="infestation", cards=cards) if cards:
            return f"Goblin Infestation: the {_monster(cards[0])} springs the Ambush"
        case ev.SidequestCompleted(card=card):
            return f"The Knight completes the Sidequest {_name(card)}"
        case ev.BombPlaced(x=x, y=y, side=side):
            return f"The Knight bombs the {side} wall of {x},{y}"
        case ev.FlareUsed(x=x, y=y, tribe=tribe):
            who = f"The {tribe.capitalize()} Tribe" if tribe else "The Knight"
            return f"{who} lights a Flare at {x},{y}"
        case ev.FlareHit(face=face, reveals=reveals):
            return f"The Flare ({DRAGON_DIE[face][0]}) lights {len(reveals)} Dark tile(s)"
        case ev.OmenUsed(omen=omen, paid=paid):
            return f"The Cave uses the Omen {omen} ({len(paid)} token{'s' if len(paid) != 1 else ''})"
        case ev.RockslidePlaced(x=x, y=y, side=side):
            return f"A Rockslide falls on the {side} edge of {x},{y}"
        case ev.CarriedByBats(target=target, x=x, y=y):
            what = "a Treasure token" if target == "treasure" else _piece(target)
            return f"Giant Bats carry {what} to {x},{y}"
        case ev.TileRotated(x=x, y=y, rotation=r):
            return f"Crystal Curse: the tile at {x},{y} turns to {r * 90}°"
        case ev.EventsSentToBottom(cards=cards):
            return f"Crystal Curse: the top {len(cards)} Event cards go to the bottom of the deck"
        case ev.TreasureTokenPlaced(x=x, y=y, step="plunder"):
            return f"Past Plunder: a Treasure token at {x},{y}"
        case ev.TreasureTokenPlaced(x=x, y=y):
            return f"The Cave places a Treasure token at {x},{y}"
        case ev.TurnEnding(role=role, steps=steps):
            removed = steps.count("remove")
            work = f"removes {_count(removed, 'tile')}" if removed else "places a Dark tile"
            plunder = " after Past Plunder" if "plunder" in steps else ""
            return f"No Cave player: the {_role(role)} {work}{plunder}"
        case ev.StepPassed(step=step, why=why):
            return f"No {step}: {why}"
        case ev.CollapseBegun():
            return "The Collapse begins"
        case ev.TileRemoved(x=x, y=y, tile=tile, crystal_tile=crystal):
            extra = f": a Crystal tile ({state.crystal_tiles_collapsed} of 5)" if crystal else ""
            return f"The tile at {x},{y} collapses ({_tile(tile)}){extra}"
        case ev.GoblinsPhaseBegun(phase=phase) if phase in GOBLIN_PHASES:
            return f"The Goblins: {phase}"
        case ev.WarCardChosen(card=card):
            return f"The Goblins take the War card {card}"
        case ev.RageChanged(delta=delta, why=why) if delta:
            g = state.goblins
            return f"Rage {'+' if delta > 0 else ''}{delta} ({why}): {g.rage if g else '?'}"
        case ev.TribesPopulated(added=added, blocked=blocked):
            text = ", ".join(f"{n} +{a}" for n, a in zip(("Fangs", "Bones", "Eye"), added, strict=True) if a)
            held = f" (blocked: {', '.join(blocked)})" if blocked else ""
            return f"The Tribes grow: {text or 'none'}{held}"
        case ev.TribeScattered(tribe=name, loss=loss):
            return f"The {name.capitalize()} Tribe scatters and loses {loss}"
        case ev.PopulationLost(tribe=name, count=count, why=why):
            return f"The {name.capitalize()} Tribe loses {count} ({why})"
        case ev.MonsterAssigned(card=card, tribe=name):
            return f"The {name.capitalize()} Tribe gets the Monster {card}"
        case ev.SecretPlayed(card=card, tribe=name):
            on = f" on the {name.capitalize()} Tribe" if name else ""
            return f"The Goblins play the Secret {card}{on}"
        case ev.TribeRevealed(tribe=name, x=x, y=y, lurking=lurking):
            return f"The {name.capitalize()} Tribe {'lurks next to' if lurking else 'comes out at'} {x},{y}"
        case ev.TribeMoved(tribe=name, x=x, y=y):
            return f"The {name.capitalize()} Tribe moves to {x},{y}"
        case ev.TribeHidden(tribe=name):
            return f"The {name.capitalize()} Tribe hides"
        case ev.TribeAttackedKnight(tribe=name, ambush=ambush):
            return f"{'Ambush! ' if ambush else ''}The {name.capitalize()} Tribe attacks the Knight"
        case ev.TribeAttackedCrystal(tribe=name, smashed=smashed):
            return f"The {name.capitalize()} Tribe {'smashes' if smashed else 'attacks'} the Crystal"
        case ev.TribeAttackedDragon(tribe=name):
            return f"The {name.capitalize()} Tribe attacks the Dragon: it loses 1 Health"
        case ev.TrapSprung(power=power):
            return (
                f"The Goblins spring their Trap: the Dragon's {power.replace('-', ' ').title()} does nothing"
            )
        case ev.TribePlundered(tribe=name):
            return f"The {name.capitalize()} Tribe plunders a Treasure token"
        case ev.KnightAttackedTribes(tribes=names) if names:
            return f"The Knight attacks the {', '.join(n.capitalize() for n in names)} Tribe(s)"
        case ev.BowShot(tribe=name, loss=loss):
            return f"The Knight's Bow hits the {name.capitalize()} Tribe: -{loss}"
        case ev.KnightDied():
            return "The Knight dies"
        case ev.DragonPlaced(x=x, y=y):
            return f"The Sleeping Dragon is placed at {x},{y}"
        case ev.DragonMoved(x=x, y=y, how=how):
            verb = {"free": "moves", "wing": "flies (Wing)", "forced": "is moved"}.get(how, "moves")
            return f"The Dragon {verb} to {x},{y}"
        case ev.PowerUsed(power=power, cards=cards, gems=gems):
            costs = [*cards, *(f"the {g} Gem" for g in gems)]
            return f"The Dragon uses {power.replace('-', ' ').title()} ({', '.join(costs) or 'free'})"
        case ev.PowerStruck(power=power, face=face, tiles=hit):
            pattern = f" ({DRAGON_DIE[face][0]})" if face else ""
            return f"{power.title()}{pattern} reaches {len(hit)} tile(s)"
        case ev.SlothCubeMoved(source=source, target=target, why=why):
            d = state.dragon
            w = f": Wakefulness {wakefulness(d)}" if d is not None else ""
            return f"A Sloth cube moves from {source} to {target} ({why}){w}"
        case ev.DragonAwoke():
            return "The Dragon awakens"
        case ev.DragonSurfaced(x=x, y=y, crystal=crystal):
            return f"The Dragon surfaces at {x},{y}" + (" and smashes the Crystal" if crystal else "")
        case ev.GoblinsEaten(count=count):
            return f"The Dragon eats {count} Goblin{'s' if count != 1 else ''}"
        case ev.DragonTreasureTaken(count=count):
            return f"The Dragon collects {count} Treasure token{'s' if count != 1 else ''}"
        case ev.GemPlaced(gem=gem, x=x, y=y):
            return f"The Dragon places its {gem} Gem at {x},{y}"
        case ev.GemTaken(gem=gem, by=by, trapped=trapped):
            who = "The Knight" if by == "knight" else f"The {by.capitalize()} Tribe"
            return f"{who} takes the {gem} Gem" + (": a trap!" if trapped else "")
        case ev.GemMoved(token=token, x=x, y=y):
            return f"Swat sends a {token if token == 'treasure' else token + ' Gem'} token to {x},{y}"
        case ev.PowerCardsDiscarded(cards=cards, why=why):
            return f"The Dragon discards {len(cards)} Power card(s) ({why})"
        case ev.DragonAttacked(strength=s, armor=a, hit=hit):
            return f"The Knight attacks the Dragon, Strength {s} against Armor {a}: " + (
                "a hit" if hit else "it holds"
            )
        case ev.DragonDied():
            return "The Dragon dies"
        case ev.EventTokenPlaced(x=x, y=y):
            return f"The Cave places an Event token at {x},{y}"
        case ev.EventTokenTaken(x=x, y=y):
            return f"The Knight meets the Event token at {x},{y}"
        case ev.FlameWallPlaced(x=x, y=y):
            return f"A Flame Wall rises at {x},{y}"
        case ev.FlameWallBurned(piece=piece):
            return f"The Flame Wall burns {_piece(piece)}"
        case ev.FlameWallReturned():
            return "The Flame Wall dies down"
        case ev.ShriekSpent():
            return "The Dragon shrieks: the die is rolled again"
        case ev.CrystalDestroyed(x=x, y=y):
            return f"The Dragon destroys the Crystal at {x},{y}"
        case ev.TileCollapsed(x=x, y=y, tile=tile, crystal_tile=crystal, by=by):
            extra = f": a Crystal tile ({state.crystal_tiles_collapsed} of 5)" if crystal else ""
            cause = "Cave-In" if by == "goblins" else "Wrath"
            return f"{cause}: the tile at {x},{y} collapses ({_tile(tile)}){extra}"
        case ev.MapGroupSlid(tiles=tiles, dx=dx, dy=dy):
            return f"{len(tiles)} tile(s) cut off slide by {dx},{dy} to join the map again"
        case ev.CaveInStruck(tiles=tiles):
            return f"Cave-In: {len(tiles)} tile(s) collapse"
        case ev.WispUsed(tribe=tribe):
            return f"The {tribe.capitalize()} Tribe's Wisp moves the Knight"
        case ev.KnightPoisoned(cubes=cubes):
            return f"Poison: the Knight leaves {cubes} Hero cube(s) on the Entrance"
        case ev.OmenDiscarded(token=token):
            return f"Hex: the Cave discards the Omen {token}"
        case ev.ThiefEntered():
            return "The Thief enters the cave at the Entrance"
        case ev.ThiefStatsAssigned(movement=m, stealth=st, thievery=t, cubes=cubes):
            return (
                f"The Thief assigns his Stat tokens: Movement {m}, Stealth {st}, Thievery {t} "
                f"({_count(cubes, 'Action cube')})"
            )
        case ev.ThiefMoved(x=x, y=y, forced=True):
            return f"Unnatural Evasion: the Thief slips to {x},{y}"
        case ev.ThiefMoved(x=x, y=y, climbed=climbed):
            how = f", climbing the wall ({_count(climbed, 'Action cube')})" if climbed else ""
            return f"The Thief moves to {x},{y}{how}"
        case ev.TilePeeked(x=x, y=y, tile=tile):
            what = "" if tile == HIDDEN else f": {_tile(tile)}"
            return f"The Thief looks at the Dark tile at {x},{y}{what}"
        case ev.ThiefActed(action=action, cubes=cubes, target=target):
            name = THIEF_ACTIONS.get(action, action)
            if action == "loot" and target:
                on = f" (the {target} Gem)"
            elif target:
                on = f" on {_piece(target)}"
            else:
                on = ""
            return f"The Thief spends {_count(cubes, 'Action cube')} on {name}{on}"
        case ev.ThiefLooted(source=source, gem=gem, x=x, y=y):
            what = f"the {gem} Gem" if gem else "a Treasure token"
            if source == "supply":
                supply = "the Cave's supply" if state.cave else "the supply"
                return f"The Thief takes {what} from {supply}"
            if source == "map":
                return f"The Thief takes {what} from {x},{y} (the supply is empty)"
            return f"The Thief loots {what} at {x},{y}"
        case ev.ThiefActionRolled(action=action, success=ok, face=face, target=target, rerolled=again):
            name = THIEF_ACTIONS.get(action, action)
            on = f" on {_piece(target)}" if target else ""
            die = f"Action die {face}" if face else "3 cubes: no roll"
            first = "Sticky Fingers re-roll: " if again else ""
            return f"{first}{name}{on} {'succeeds' if ok else 'fails'} ({die})"
        case ev.ThiefStole(target="dragon"):
            return "The Thief picks the Dragon's pocket: a Wakefulness cube goes back to Greed"
        case ev.ThiefStole(target=target, card=card, hidden=hidden):
            if target == "knight":
                kind, where = "Treasure card", "it goes to the bottom of the Treasure deck"
            else:
                kind, where = "Secrets card", "the Goblins discard it"
            if hidden:
                which = "" if card in (HIDDEN, "") else f" ({_name(card)})"
                what = f"a face-down {kind}{which}"
            else:
                what = f"the {kind} {_name(card)}"
            return f"The Thief steals {what} from the {_role(target)}: {where}"
        case ev.VaultOpened(x=x, y=y):
            return f"The Thief opens the Vault at {x},{y}"
        case ev.LootHidden(count=count):
            th = state.thief
            now = f": Loot Drop level {th.loot_drop}" if th is not None else ""
            return f"The Thief hides his loot (-{count}){now}"
        case ev.TreasureStashed(tokens=tokens, gems=gems):
            th = state.thief
            back = f" ({_listed([f'the {g} Gem' for g in gems])} back to the Dragon)" if gems else ""
            total = f": {th.stashed} of {agreed_crystals(state) or 6}" if th is not None else ""
            return f"The Thief stashes {_count(tokens, 'token')} at the Entrance{back}{total}"
        case ev.UpgradeTaken(upgrade=upgrade):
            return f"The Thief takes the Upgrade {UPGRADE_NAMES.get(upgrade, upgrade)}"
        case ev.UpgradeLost(upgrade=upgrade):
            name = UPGRADE_NAMES.get(upgrade, upgrade)
            return f"Soporific Spores: the Thief loses the Upgrade {name} (its token still counts)"
        case ev.ThiefAttacked(by="trap"):
            return "The Gem was a trap: the Dragon die strikes the Thief"
        case ev.ThiefAttacked(by="dragon", why=why) if why != "attack":
            return f"The Dragon's {THIEF_HITS.get(why, why)} strikes the Thief"
        case ev.ThiefAttacked(by=by):
            who = _piece(by)
            return f"{who[0].upper()}{who[1:]} attacks the Thief"
        case ev.ThiefShot():
            return "The Knight shoots at the Thief with the Enchanted Bow"
        case ev.ThiefHexed(count=count):
            th = state.thief
            now = f": Stealth {thief_stealth(th)}" if th is not None else ""
            return f"Hex: the Thief loses {count} Stealth until the Goblins' next turn{now}"
        case ev.ThiefEvaded(face=face):
            return f"Unnatural Evasion (Action die {face}): the attack misses the Thief"
        case ev.ThiefKilled(by=by, loot_drop=level):
            cause = "a Gem's trap" if by == "trap" else _piece(by)
            bonus = f"; {_piece(by)} gains the Loot Drop bonus ({level})" if level else ""
            return f"The Thief is killed by {cause}: he drops his loot and leaves the map{bonus}"
        case ev.ThiefWounded(target=target, wound=wound):
            return f"The Thief backstabs {_piece(target)}: a {WOUNDS.get(wound, str(wound))} wound"
        case ev.GameWon(winner="everyone-lost", reason=reason):
            return f"Everyone loses: {reason}"
        case ev.GameWon(winner=winner, reason=reason):
            return f"The {winner.capitalize()} wins: {reason}"
        case CardsDrawn(deck="omens", cards=cards):
            return f"The Cave draws Omens: {', '.join(cards)}"
        case DiceRolled(reason=reason, faces=faces) if faces and reason.startswith(
            ("thief-action:", "evasion:")
        ):
            return f"Action die ({_action_roll(reason)}): {faces[0]}"
        case DiceRolled(reason=reason, faces=faces) if (
            faces and reason.startswith("thief-gem:") and faces[0] in DRAGON_DIE
        ):
            gem = reason.removeprefix("thief-gem:")
            return f"Dragon die (the {gem} Gem the Thief took): {DRAGON_DIE[faces[0]][0]}"
        case DiceRolled(reason=reason, faces=faces) if (
            faces and reason.startswith("thief-flare:") and faces[0] in DRAGON_DIE
        ):
            at = reason.removeprefix("thief-flare:")
            return f"Dragon die (the Thief's Flare at {at}): {DRAGON_DIE[faces[0]][0]}"
        case DiceRolled(reason=reason, faces=faces) if faces and 1 <= faces[0] <= 6:
            return f"Dragon die ({reason}): {DRAGON_DIE[faces[0]][0]}"
        case DecisionMade(decision=decision, option="keep") if decision.startswith("peek:"):
            return f"The Thief keeps the tile at {decision.removeprefix('peek:')} Dark"
        case DecisionRequested(decision=decision, piece=piece) if decision.startswith("fill:"):
            return f"The {str(piece).capitalize()} fills the open edge at {decision.removeprefix('fill:')}"
    return None


def _role(role: str) -> str:
    return "Goblins" if role == "goblins" else role.capitalize()


def _action_roll(reason: str) -> str:
    """What an Action die roll is for: ``thief-action:<action>:<target>:<cubes>[:reroll]`` or
    ``evasion:<by>:<why>``."""
    if reason.startswith("evasion:"):
        return "Unnatural Evasion"
    _, action, target, cubes, again = (*reason.split(":"), "", "", "", "")[:5]
    on = f" on {_piece(target)}" if target not in ("", "-") else ""
    cost = f", {_count(int(cubes), 'cube')}" if cubes.isdigit() else ""
    return f"{'Sticky Fingers re-roll of ' if again else ''}{THIEF_ACTIONS.get(action, action)}{on}{cost}"


def _piece(piece: str) -> str:
    """``the Knight``, ``the Dragon``, ``the Thief``, ``the Goblins``, ``the Fangs Tribe``..."""
    if piece in TRIBES:
        return f"the {piece.capitalize()} Tribe"
    return f"the {_role(piece)}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


__all__ = ["Geometry", "board_view", "describe", "initiative_view"]
