"""Read models of a Vast game (docs/vast/architecture.md, Projections): the board as a grid of cells, the turn
order with each role's public tracks, and the game-log line of each event. Built from a state already masked
for its reader (``dicelog.domain.vast.visibility.view_state``), so they show only what the reader may see."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct

from dicelog.domain.core.dispatch import ByEventType
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    Event,
    GameEnded,
)
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import DRAGON_DIE, SIDES, Geometry
from dicelog.domain.vast.content import cards as card_data
from dicelog.domain.vast.content import event_kind, goblin_file, tiles
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
from dicelog.domain.vast.rules.goblins import tribe_strength
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

DIE_FACE_WORDS = {1: "centre", 2: "diamond", 3: "cross", 4: "corners", 5: "saltire", 6: "all around"}
"""The Dragon die's faces as the table names them (the web table's own labels): ``DRAGON_DIE``'s patterns."""


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
    secrets: tuple[str, ...] = ()
    """The Secrets cards in hand, one entry a card: ids for the Goblins (and for everyone once the game has
    ended: then everything is public), ``"?"`` for others (Vast rulebook §I Goblin)."""
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
            secrets=state.goblins.hand,
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


ROOMS = {
    "ambush": "Ambush",
    "event": "Event",
    "treasure-room": "Treasure Room",
    "crystal": "Crystal",
    "vault": "Vault",
    "entrance": "Entrance",
}
"""A tile's room as printed on its Lit side, by ``Tile.kind`` (docs/vast/facts.md §1 Cave tiles)."""
SYMBOLS = {"fangs": "Fangs", "bones": "Bones", "eye": "Eye"}
"""The Tribe symbols printed on the Dark side of a tile (docs/vast/facts.md §1 Cave tiles)."""


def _tile(tile: str) -> str:
    """A tile as a player reads it: its room (``an Ambush tile``, ``the Entrance``); ``a tile`` when the
    reader may not know it. The id (``ambush-13``) is printed nowhere on the tile, no line names it."""
    if tile == HIDDEN:
        return "a tile"
    room = ROOMS.get(tiles()[tile].kind, tiles()[tile].kind)
    if room == "Entrance":
        return "the Entrance"
    return f"{'an' if room[0] in 'AEIOU' else 'a'} {room} tile"


def _symbol(symbol: str | None) -> str:
    return SYMBOLS.get(symbol or "", symbol or "no symbol")


SLOTH_TRACKS = {
    "greed": "Greed",
    "hunger": "Hunger",
    "pride-events": "Pride (Events)",
    "pride-still": "Pride (still)",
    "pride-gem": "Pride (Gem)",
    "wakefulness": "Wakefulness",
}
"""The Dragon's Sloth tracks and Wakefulness by name (Vast rulebook §Il Drago, Accidia)."""


CAUSES = {
    # the Knight's Grit (docs/vast/facts.md §2 Grit gains and losses)
    "reveal": "a tile revealed",
    "crystal": "a Crystal smashed",
    "decline-treasure": "a Treasure refused",
    "no-treasure": "no Treasure card left",
    "sidequest": "a Sidequest completed",
    "loot-drop": "the Thief's Loot Drop",
    "spores": "Soporific Spores",
    "gem": "a Dragon Gem",
    # the Knight's Health: a Tribe's attack (Vast rulebook §I Goblin, Attaccare)
    "goblins": "a Goblin attack",
    # the Goblins' Rage and Population (docs/vast/facts.md §3 Scatter and Rage)
    "war": "Malaise at the War phase",
    "war-card": "the War card",
    "block": "Tribes blocked from populating",
    "attacked": "a Tribe attacked",
    "attack": "a successful Goblin attack",
    "thief": "the Thief killed",
    "plunder": "Plunder",
    "fangs": "the Fangs' special action",
    "movement": "Lit tiles crossed",
    "hiss": "Hiss",
    "backstab": "the Thief's Backstab",
    "pickpocket": "the Thief's Pickpocket",
    "fire-bomber": "Fire Bomber",
    # the Dragon's Sloth and Power cards (Vast rulebook §Il Drago, Accidia; docs/vast/facts.md §4)
    "eaten": "two Goblins eaten",
    "treasure": "a Treasure held",
    "still": "it stayed still",
    "event-tile": "an Event tile",
    "slither": "Slither",
    "claw": "Claw",
    "scratch": "Scratch",
    "flame-wall": "Flame Wall",
    "replace": "a new hand",
    "bow": "the Enchanted Bow",
}
"""Causes (``why`` of ``GritChanged``, ``HealthChanged``, ``RageChanged``, ``PopulationLost``,
``SlothCubeMoved``, ``PowerCardsDiscarded``) that are no card of the content, in players' words: a Power,
an Omen or an action by its printed name, else what happened."""


def _why(why: str) -> str:
    """What caused a change, in words (``CAUSES``), else a card (``fresh-water`` -> ``Fresh Water``, an Event
    kind ``rats`` -> ``Rats``), a Monster or a Secrets card (``hex`` -> ``Hex``) by its printed name, else the
    cause's words (``event-tile`` -> ``event tile``; ``tests/rulesets/vast/test_log_words.py`` fails on
    one)."""
    if why in CAUSES:
        return CAUSES[why]
    known = card_data()
    if why in known:
        return known[why].name
    kind = next(
        (c.name for c in known.values() if c.id.startswith(f"{why}-") and event_kind(c.id) == why), None
    )
    if kind is not None:
        return kind
    monster = _monster(why)
    if monster != why:
        return monster
    secret = _secret(why)
    return secret if secret != why else why.replace("-", " ")


def _omen_token(token: str) -> str:
    """An Omen token by the symbol printed on it (``bat-3`` -> ``Bat``; docs/vast/facts.md §1 Tokens)."""
    return "a face-down token" if token == HIDDEN else event_kind(token).replace("-", " ").title()


def _secret(card: str) -> str:
    """A Secrets card's printed name (docs/vast/facts.md §3 Secrets cards)."""
    return next((c.name for c in goblin_file().secrets if c.id == card), card)


def _power_card(card: str) -> str:
    """A Power card by its suit and value (``flame-4`` -> ``Flame 4``; docs/vast/facts.md §4 Power cards)."""
    return "a face-down card" if card == HIDDEN else card.replace("-", " ").capitalize()


Describer = Callable[[VastState, Any], str | None]
DESCRIBE: ByEventType[VastState, str | None] = ByEventType("describer", lambda state, event: None)
"""The describer of each event type (``dicelog.domain.core.dispatch``); an unknown type has no line."""
DESCRIBERS = DESCRIBE.handlers
_describes = DESCRIBE.on


def describe(state: VastState, event: Event) -> str | None:
    """The game-log line of ``event`` (already masked for the reader), ``state`` being the state after it;
    ``None`` for an event with no line. One describer per event type, looked up by ``type(event)`` in
    ``DESCRIBERS``, registered once at import by ``@_describes(...)`` (``dicelog.domain.core.dispatch``, as
    ``evolve``)."""
    return DESCRIBE(state, event)


@_describes(ev.RolesSeated)
def _roles_seated(state: VastState, event: ev.RolesSeated) -> str | None:
    roles, setup = event.roles, event.setup
    return f"Setup {setup}: {', '.join(roles)}"


@_describes(ev.VastRoundStarted)
def _vast_round_started(state: VastState, event: ev.VastRoundStarted) -> str | None:
    n = event.round
    return f"Round {n}"


@_describes(ev.VastTurnStarted)
def _vast_turn_started(state: VastState, event: ev.VastTurnStarted) -> str | None:
    role = event.role
    owner = f"{role.capitalize()}'" if role == "goblins" else f"{role.capitalize()}'s"
    return f"The {owner} turn"


@_describes(ev.DarkTilePlaced)
def _dark_tile_placed(state: VastState, event: ev.DarkTilePlaced) -> str | None:
    x, y, tile, symbol, by = event.x, event.y, event.tile, event.symbol, event.by
    who = "The setup" if by == "setup" else f"The {_role(by)}"
    what = "a Dark tile" if tile == HIDDEN else f"{_tile(tile)} Dark side up"
    verb = "place" if by == "goblins" else "places"
    return f"{who} {verb} {what} ({_symbol(symbol)}) at {x},{y}"


@_describes(ev.TileRevealed)
def _tile_revealed(state: VastState, event: ev.TileRevealed) -> str | None:
    if event.by == "thief":
        x, y, tile = event.x, event.y, event.tile
        return f"The Thief reveals {_tile(tile)} at {x},{y}"
    x, y, tile = event.x, event.y, event.tile
    role = state.turn or "knight"
    verb = "reveal" if role == "goblins" else "reveals"
    return f"The {_role(role)} {verb} {_tile(tile)} at {x},{y}"


@_describes(ev.TileOriented)
def _tile_oriented(state: VastState, event: ev.TileOriented) -> str | None:
    x, y, r = event.x, event.y, event.rotation
    return f"The tile at {x},{y} is turned {r * 90}°"


@_describes(ev.TileResolved)
def _tile_resolved(state: VastState, event: ev.TileResolved) -> str | None:
    kind, treasure, crystal, x, y, mode = (
        event.kind,
        event.treasure,
        event.crystal,
        event.x,
        event.y,
        event.mode,
    )
    if treasure:
        return f"A Treasure token appears at {x},{y}"
    if crystal:
        return f"A Crystal token appears at {x},{y}"
    if mode == "full" and kind in ("event", "ambush"):
        return f"The {ROOMS[kind]} tile at {x},{y} takes effect"
    return None


@_describes(ev.HeroCubeRecovered)
def _hero_cube_recovered(state: VastState, event: ev.HeroCubeRecovered) -> str | None:
    return "The Knight gets a Hero cube back (Cave Bread)"


@_describes(ev.HeroCubeDiscarded)
def _hero_cube_discarded(state: VastState, event: ev.HeroCubeDiscarded) -> str | None:
    spent = event.spent
    return "The Knight spends a Hero cube" if spent else "The Knight discards a Hero cube"


@_describes(ev.HeroCubeReturned)
def _hero_cube_returned(state: VastState, event: ev.HeroCubeReturned) -> str | None:
    target = event.target
    return f"Grit falls below a cube's space: the cube on {target} goes back and her turn ends"


@_describes(ev.OmensCollected)
def _omens_collected(state: VastState, event: ev.OmensCollected) -> str | None:
    count, tokens = event.count, event.tokens_on_map
    return f"The Cave collects {count} Omen(s) ({tokens} Treasure and Crystal tokens on the map)"


@_describes(ev.GritChanged)
def _grit_changed(state: VastState, event: ev.GritChanged) -> str | None:
    delta, why = event.delta, event.why
    k = state.knight
    if delta == 0:  # a loss at 0 Grit, or a gain at 45
        return f"The Knight's Grit stays at {k.grit if k else '?'} ({_why(why)})"
    verb = "gains" if delta > 0 else "loses"
    return f"The Knight {verb} {abs(delta)} Grit ({_why(why)}): {k.grit if k else '?'}"


@_describes(ev.KnightMoved)
def _knight_moved(state: VastState, event: ev.KnightMoved) -> str | None:
    x, y, through, forced, why = event.x, event.y, event.through_wall, event.forced, event.why
    how = " through a wall (Ancient Map)" if through else (" off a collapsing tile" if forced else "")
    if forced and why:
        how = f" ({_monster(why)})"
    return f"The Knight moves to {x},{y}{how}"


@_describes(ev.HeroCubePlaced)
def _hero_cube_placed(state: VastState, event: ev.HeroCubePlaced) -> str | None:
    target = event.target
    return f"The Knight places a Hero cube on {_name(target) if target in card_data() else target}"


@_describes(ev.CrystalSmashed)
def _crystal_smashed(state: VastState, event: ev.CrystalSmashed) -> str | None:
    x, y = event.x, event.y
    return f"The Knight smashes the Crystal at {x},{y}"


@_describes(ev.TreasureTokenTaken)
def _treasure_token_taken(state: VastState, event: ev.TreasureTokenTaken) -> str | None:
    count = event.count
    return f"The Knight collects {count} Treasure token{'s' if count != 1 else ''}"


@_describes(ev.TreasureOffered)
def _treasure_offered(state: VastState, event: ev.TreasureOffered) -> str | None:
    card = event.card
    return f"The Cave gives the Knight {_name(card)}"


@_describes(ev.TreasureKept)
def _treasure_kept(state: VastState, event: ev.TreasureKept) -> str | None:
    card = event.card
    return f"The Knight keeps {_name(card)} face down"


@_describes(ev.TreasureDeclined)
def _treasure_declined(state: VastState, event: ev.TreasureDeclined) -> str | None:
    card = event.card
    return f"The Knight declines {_name(card)}"


@_describes(ev.TreasureUsed)
def _treasure_used(state: VastState, event: ev.TreasureUsed) -> str | None:
    card, heal = event.card, event.heal
    return f"The Knight uses {_name(card)}" + (f" and heals {heal}" if heal else "")


@_describes(ev.EventPlayed)
def _event_played(state: VastState, event: ev.EventPlayed) -> str | None:
    card = event.card
    if state.cave is None:  # without a Cave player she draws and resolves the top card
        return f"The Event {_name(card)} is played on the Knight"
    return f"The Cave plays the Event {_name(card)} on the Knight"


@_describes(ev.HealthChanged)
def _health_changed(state: VastState, event: ev.HealthChanged) -> str | None:
    delta, why = event.delta, event.why
    k = state.knight
    verb = "heals" if delta > 0 else "loses"
    return f"The Knight {verb} {abs(delta)} Health ({_why(why)}): {k.health if k else '?'}"


@_describes(ev.VastAmbushResolved)
def _vast_ambush_resolved(state: VastState, event: ev.VastAmbushResolved) -> str | None:
    s, a, hurt, monster = event.strength, event.ambusher, event.hurt, event.monster
    by = f" by the {_monster(monster)}" if monster else ""
    return f"Ambush{by}! Strength {s} against {a}: " + ("the Knight is hurt" if hurt else "the Knight holds")


@_describes(ev.InfestationMonsterPlaced)
def _infestation_monster_placed(state: VastState, event: ev.InfestationMonsterPlaced) -> str | None:
    card, to = event.card, event.to
    where = {
        "discard": "is discarded",
        "knight-board": "goes on the Knight's board: each Ancient Map use costs 2 cubes",
        "beside-deck": "waits beside the deck: the next Monster drawn gets +1 Strength",
    }.get(to, to)
    return f"The {_monster(card)} {where}"


@_describes(ev.TreasureCardDiscarded)
def _treasure_card_discarded(state: VastState, event: ev.TreasureCardDiscarded) -> str | None:
    card, why, hidden = event.card, event.why, event.hidden
    which = (
        ("a face-down Treasure card" + ("" if card in (HIDDEN, "") else f" ({_name(card)})"))
        if (hidden)
        else _name(card)
    )
    return f"The Knight discards {which} ({_monster(why)}): it goes to the bottom of the Treasure deck"


@_describes(CardsDrawn)
def _cards_drawn(state: VastState, event: CardsDrawn) -> str | None:
    if event.deck == "infestation":
        cards = event.cards
        if cards:
            return f"Goblin Infestation: the {_monster(cards[0])} springs the Ambush"
    if event.deck == "omens":
        cards = event.cards
        return f"The Cave draws Omens: {', '.join(_omen_token(c) for c in cards)}"
    return None


@_describes(ev.SidequestCompleted)
def _sidequest_completed(state: VastState, event: ev.SidequestCompleted) -> str | None:
    card = event.card
    return f"The Knight completes the Sidequest {_name(card)}"


@_describes(ev.BombPlaced)
def _bomb_placed(state: VastState, event: ev.BombPlaced) -> str | None:
    x, y, side = event.x, event.y, event.side
    return f"The Knight bombs the {side} wall of {x},{y}"


@_describes(ev.FlareUsed)
def _flare_used(state: VastState, event: ev.FlareUsed) -> str | None:
    x, y, tribe = event.x, event.y, event.tribe
    who = f"The {tribe.capitalize()} Tribe" if tribe else "The Knight"
    return f"{who} lights a Flare at {x},{y}"


@_describes(ev.FlareHit)
def _flare_hit(state: VastState, event: ev.FlareHit) -> str | None:
    face, reveals = event.face, event.reveals
    return f"The Flare ({DIE_FACE_WORDS[face]}) lights {len(reveals)} Dark tile(s)"


@_describes(ev.OmenUsed)
def _omen_used(state: VastState, event: ev.OmenUsed) -> str | None:
    omen, paid = event.omen, event.paid
    name = omen.replace("-", " ").title()
    return f"The Cave uses the Omen {name} ({len(paid)} token{'s' if len(paid) != 1 else ''})"


@_describes(ev.RockslidePlaced)
def _rockslide_placed(state: VastState, event: ev.RockslidePlaced) -> str | None:
    x, y, side = event.x, event.y, event.side
    return f"A Rockslide falls on the {side} edge of {x},{y}"


@_describes(ev.CarriedByBats)
def _carried_by_bats(state: VastState, event: ev.CarriedByBats) -> str | None:
    target, x, y = event.target, event.x, event.y
    what = "a Treasure token" if target == "treasure" else _piece(target)
    return f"Giant Bats carry {what} to {x},{y}"


@_describes(ev.TileRotated)
def _tile_rotated(state: VastState, event: ev.TileRotated) -> str | None:
    x, y, r = event.x, event.y, event.rotation
    return f"Crystal Curse: the tile at {x},{y} turns to {r * 90}°"


@_describes(ev.EventsSentToBottom)
def _events_sent_to_bottom(state: VastState, event: ev.EventsSentToBottom) -> str | None:
    cards = event.cards
    return f"Crystal Curse: the top {len(cards)} Event cards go to the bottom of the deck"


@_describes(ev.TreasureTokenPlaced)
def _treasure_token_placed(state: VastState, event: ev.TreasureTokenPlaced) -> str | None:
    if event.step == "plunder":
        x, y = event.x, event.y
        return f"Past Plunder: a Treasure token at {x},{y}"
    x, y = event.x, event.y
    return f"The Cave places a Treasure token at {x},{y}"


@_describes(ev.TurnEnding)
def _turn_ending(state: VastState, event: ev.TurnEnding) -> str | None:
    role, steps = event.role, event.steps
    removed = steps.count("remove")
    s = "" if role == "goblins" else "s"
    work = f"remove{s} {_count(removed, 'tile')}" if removed else f"place{s} a Dark tile"
    plunder = " after Past Plunder" if "plunder" in steps else ""
    return f"No Cave player: the {_role(role)} {work}{plunder}"


@_describes(ev.StepPassed)
def _step_passed(state: VastState, event: ev.StepPassed) -> str | None:
    step, why = event.step, event.why
    return f"No {step}: {why}"


@_describes(ev.CollapseBegun)
def _collapse_begun(state: VastState, event: ev.CollapseBegun) -> str | None:
    return "The Collapse begins"


@_describes(ev.TileRemoved)
def _tile_removed(state: VastState, event: ev.TileRemoved) -> str | None:
    x, y, tile, crystal = event.x, event.y, event.tile, event.crystal_tile
    extra = f": a Crystal tile ({state.crystal_tiles_collapsed} of 5)" if crystal else ""
    return f"The tile at {x},{y} collapses ({_tile(tile)}){extra}"


@_describes(ev.GoblinsPhaseBegun)
def _goblins_phase_begun(state: VastState, event: ev.GoblinsPhaseBegun) -> str | None:
    phase = event.phase
    if phase in GOBLIN_PHASES:
        return f"The Goblins: {phase}"
    return None


@_describes(ev.SecretsWindowClosed)
def _secrets_window_closed(state: VastState, event: ev.SecretsWindowClosed) -> str | None:
    return f"The Goblins play no Secrets card before {event.phase}"


@_describes(ev.WarCardChosen)
def _war_card_chosen(state: VastState, event: ev.WarCardChosen) -> str | None:
    card = event.card
    return f"The Goblins take the War card {card}"


@_describes(ev.RageChanged)
def _rage_changed(state: VastState, event: ev.RageChanged) -> str | None:
    delta, why = event.delta, event.why
    if delta:
        g = state.goblins
        return f"Rage {'+' if delta > 0 else ''}{delta} ({_why(why)}): {g.rage if g else '?'}"
    return None


@_describes(ev.TribesPopulated)
def _tribes_populated(state: VastState, event: ev.TribesPopulated) -> str | None:
    added, blocked = event.added, event.blocked
    text = ", ".join(f"{n} +{a}" for n, a in zip(("Fangs", "Bones", "Eye"), added, strict=True) if a)
    held = f" (blocked: {', '.join(blocked)})" if blocked else ""
    return f"The Tribes grow: {text or 'none'}{held}"


@_describes(ev.TribeScattered)
def _tribe_scattered(state: VastState, event: ev.TribeScattered) -> str | None:
    name, loss = event.tribe, event.loss
    return f"The {name.capitalize()} Tribe scatters and loses {loss}"


@_describes(ev.PopulationLost)
def _population_lost(state: VastState, event: ev.PopulationLost) -> str | None:
    name, count, why = event.tribe, event.count, event.why
    return f"The {name.capitalize()} Tribe loses {count} ({_why(why)})"


@_describes(ev.MonsterAssigned)
def _monster_assigned(state: VastState, event: ev.MonsterAssigned) -> str | None:
    card, name = event.card, event.tribe
    return f"The {name.capitalize()} Tribe gets the Monster {_monster(card)}"


@_describes(ev.SecretPlayed)
def _secret_played(state: VastState, event: ev.SecretPlayed) -> str | None:
    card, name = event.card, event.tribe
    on = f" on the {name.capitalize()} Tribe" if name else ""
    return f"The Goblins play the Secret {_secret(card)}{on}"


@_describes(ev.TribeRevealed)
def _tribe_revealed(state: VastState, event: ev.TribeRevealed) -> str | None:
    name, x, y, lurking = event.tribe, event.x, event.y, event.lurking
    return f"The {name.capitalize()} Tribe {'lurks next to' if lurking else 'comes out at'} {x},{y}"


@_describes(ev.TribeMoved)
def _tribe_moved(state: VastState, event: ev.TribeMoved) -> str | None:
    name, x, y = event.tribe, event.x, event.y
    return f"The {name.capitalize()} Tribe moves to {x},{y}"


@_describes(ev.TribeHidden)
def _tribe_hidden(state: VastState, event: ev.TribeHidden) -> str | None:
    name = event.tribe
    return f"The {name.capitalize()} Tribe hides"


@_describes(ev.TribeAttackedKnight)
def _tribe_attacked_knight(state: VastState, event: ev.TribeAttackedKnight) -> str | None:
    name, ambush = event.tribe, event.ambush
    return f"{'Ambush! ' if ambush else ''}The {name.capitalize()} Tribe attacks the Knight"


@_describes(ev.TribeAttackedCrystal)
def _tribe_attacked_crystal(state: VastState, event: ev.TribeAttackedCrystal) -> str | None:
    name, smashed = event.tribe, event.smashed
    return f"The {name.capitalize()} Tribe {'smashes' if smashed else 'attacks'} the Crystal"


@_describes(ev.TribeAttackedDragon)
def _tribe_attacked_dragon(state: VastState, event: ev.TribeAttackedDragon) -> str | None:
    name = event.tribe
    return f"The {name.capitalize()} Tribe attacks the Dragon: it loses 1 Health"


@_describes(ev.TrapSprung)
def _trap_sprung(state: VastState, event: ev.TrapSprung) -> str | None:
    power = event.power
    return f"The Goblins spring their Trap: the Dragon's {power.replace('-', ' ').title()} does nothing"


@_describes(ev.TribePlundered)
def _tribe_plundered(state: VastState, event: ev.TribePlundered) -> str | None:
    name = event.tribe
    return f"The {name.capitalize()} Tribe plunders a Treasure token"


@_describes(ev.KnightAttackedTribes)
def _knight_attacked_tribes(state: VastState, event: ev.KnightAttackedTribes) -> str | None:
    names = event.tribes
    if names:
        return f"The Knight attacks the {', '.join(n.capitalize() for n in names)} Tribe(s)"
    return None


@_describes(ev.BowShot)
def _bow_shot(state: VastState, event: ev.BowShot) -> str | None:
    name, loss = event.tribe, event.loss
    return f"The Knight's Bow hits the {name.capitalize()} Tribe: -{loss}"


@_describes(ev.KnightDied)
def _knight_died(state: VastState, event: ev.KnightDied) -> str | None:
    return "The Knight dies"


@_describes(ev.DragonPlaced)
def _dragon_placed(state: VastState, event: ev.DragonPlaced) -> str | None:
    x, y = event.x, event.y
    return f"The Sleeping Dragon is placed at {x},{y}"


@_describes(ev.DragonMoved)
def _dragon_moved(state: VastState, event: ev.DragonMoved) -> str | None:
    x, y, how = event.x, event.y, event.how
    verb = {"free": "moves", "wing": "flies (Wing)", "forced": "is moved"}.get(how, "moves")
    return f"The Dragon {verb} to {x},{y}"


@_describes(ev.PowerUsed)
def _power_used(state: VastState, event: ev.PowerUsed) -> str | None:
    power, cards, gems = event.power, event.cards, event.gems
    costs = [*map(_power_card, cards), *(f"the {g.capitalize()} Gem" for g in gems)]
    return f"The Dragon uses {power.replace('-', ' ').title()} ({', '.join(costs) or 'free'})"


@_describes(ev.PowerStruck)
def _power_struck(state: VastState, event: ev.PowerStruck) -> str | None:
    power, face, hit = event.power, event.face, event.tiles
    pattern = f" ({DIE_FACE_WORDS[face]})" if face else ""
    return f"{power.title()}{pattern} reaches {len(hit)} tile(s)"


@_describes(ev.SlothCubeMoved)
def _sloth_cube_moved(state: VastState, event: ev.SlothCubeMoved) -> str | None:
    source, target, why = event.source, event.target, event.why
    d = state.dragon
    w = f": Wakefulness {wakefulness(d)}" if d is not None else ""
    tracks = SLOTH_TRACKS.get(source, source), SLOTH_TRACKS.get(target, target)
    return f"A Sloth cube moves from {tracks[0]} to {tracks[1]} ({_why(why)}){w}"


@_describes(ev.DragonAwoke)
def _dragon_awoke(state: VastState, event: ev.DragonAwoke) -> str | None:
    return "The Dragon awakens"


@_describes(ev.DragonSurfaced)
def _dragon_surfaced(state: VastState, event: ev.DragonSurfaced) -> str | None:
    x, y, crystal = event.x, event.y, event.crystal
    return f"The Dragon surfaces at {x},{y}" + (" and smashes the Crystal" if crystal else "")


@_describes(ev.GoblinsEaten)
def _goblins_eaten(state: VastState, event: ev.GoblinsEaten) -> str | None:
    count = event.count
    return f"The Dragon eats {count} Goblin{'s' if count != 1 else ''}"


@_describes(ev.DragonTreasureTaken)
def _dragon_treasure_taken(state: VastState, event: ev.DragonTreasureTaken) -> str | None:
    count = event.count
    return f"The Dragon collects {count} Treasure token{'s' if count != 1 else ''}"


@_describes(ev.GemPlaced)
def _gem_placed(state: VastState, event: ev.GemPlaced) -> str | None:
    gem, x, y = event.gem, event.x, event.y
    return f"The Dragon places its {gem} Gem at {x},{y}"


@_describes(ev.GemTaken)
def _gem_taken(state: VastState, event: ev.GemTaken) -> str | None:
    gem, by, trapped = event.gem, event.by, event.trapped
    who = "The Knight" if by == "knight" else f"The {by.capitalize()} Tribe"
    return f"{who} takes the {gem} Gem" + (": a trap!" if trapped else "")


@_describes(ev.GemMoved)
def _gem_moved(state: VastState, event: ev.GemMoved) -> str | None:
    token, x, y = event.token, event.x, event.y
    return f"Swat sends a {token if token == 'treasure' else token + ' Gem'} token to {x},{y}"


@_describes(ev.PowerCardsDiscarded)
def _power_cards_discarded(state: VastState, event: ev.PowerCardsDiscarded) -> str | None:
    cards, why = event.cards, event.why
    return f"The Dragon discards {len(cards)} Power card(s) ({_why(why)})"


@_describes(ev.DragonAttacked)
def _dragon_attacked(state: VastState, event: ev.DragonAttacked) -> str | None:
    s, a, hit = event.strength, event.armor, event.hit
    return f"The Knight attacks the Dragon, Strength {s} against Armor {a}: " + (
        "a hit" if hit else "it holds"
    )


@_describes(ev.DragonDied)
def _dragon_died(state: VastState, event: ev.DragonDied) -> str | None:
    return "The Dragon dies"


@_describes(ev.EventTokenPlaced)
def _event_token_placed(state: VastState, event: ev.EventTokenPlaced) -> str | None:
    x, y = event.x, event.y
    return f"The Cave places an Event token at {x},{y}"


@_describes(ev.EventTokenTaken)
def _event_token_taken(state: VastState, event: ev.EventTokenTaken) -> str | None:
    x, y = event.x, event.y
    return f"The Knight meets the Event token at {x},{y}"


@_describes(ev.FlameWallPlaced)
def _flame_wall_placed(state: VastState, event: ev.FlameWallPlaced) -> str | None:
    x, y = event.x, event.y
    return f"A Flame Wall rises at {x},{y}"


@_describes(ev.FlameWallBurned)
def _flame_wall_burned(state: VastState, event: ev.FlameWallBurned) -> str | None:
    piece = event.piece
    return f"The Flame Wall burns {_piece(piece)}"


@_describes(ev.FlameWallReturned)
def _flame_wall_returned(state: VastState, event: ev.FlameWallReturned) -> str | None:
    return "The Flame Wall dies down"


@_describes(ev.ShriekSpent)
def _shriek_spent(state: VastState, event: ev.ShriekSpent) -> str | None:
    return "The Dragon shrieks: the die is rolled again"


@_describes(ev.CrystalDestroyed)
def _crystal_destroyed(state: VastState, event: ev.CrystalDestroyed) -> str | None:
    x, y = event.x, event.y
    return f"The Dragon destroys the Crystal at {x},{y}"


@_describes(ev.TileCollapsed)
def _tile_collapsed(state: VastState, event: ev.TileCollapsed) -> str | None:
    x, y, tile, crystal, by = event.x, event.y, event.tile, event.crystal_tile, event.by
    extra = f": a Crystal tile ({state.crystal_tiles_collapsed} of 5)" if crystal else ""
    cause = "Cave-In" if by == "goblins" else "Wrath"
    return f"{cause}: the tile at {x},{y} collapses ({_tile(tile)}){extra}"


@_describes(ev.MapGroupSlid)
def _map_group_slid(state: VastState, event: ev.MapGroupSlid) -> str | None:
    tiles, dx, dy = event.tiles, event.dx, event.dy
    return f"{len(tiles)} tile(s) cut off slide by {dx},{dy} to join the map again"


@_describes(ev.CaveInStruck)
def _cave_in_struck(state: VastState, event: ev.CaveInStruck) -> str | None:
    tiles = event.tiles
    return f"Cave-In: {len(tiles)} tile(s) collapse"


@_describes(ev.WispUsed)
def _wisp_used(state: VastState, event: ev.WispUsed) -> str | None:
    tribe = event.tribe
    return f"The {tribe.capitalize()} Tribe's Wisp moves the Knight"


@_describes(ev.KnightPoisoned)
def _knight_poisoned(state: VastState, event: ev.KnightPoisoned) -> str | None:
    cubes = event.cubes
    return f"Poison: the Knight leaves {cubes} Hero cube(s) on the Entrance"


@_describes(ev.OmenDiscarded)
def _omen_discarded(state: VastState, event: ev.OmenDiscarded) -> str | None:
    token = event.token
    return f"Hex: the Cave discards the Omen token {_omen_token(token)}"


@_describes(ev.ThiefEntered)
def _thief_entered(state: VastState, event: ev.ThiefEntered) -> str | None:
    return "The Thief enters the cave at the Entrance"


@_describes(ev.ThiefStatsAssigned)
def _thief_stats_assigned(state: VastState, event: ev.ThiefStatsAssigned) -> str | None:
    m, st, t, cubes = event.movement, event.stealth, event.thievery, event.cubes
    return (
        f"The Thief assigns his Stat tokens: Movement {m}, Stealth {st}, Thievery {t} "
        f"({_count(cubes, 'Action cube')})"
    )


@_describes(ev.ThiefMoved)
def _thief_moved(state: VastState, event: ev.ThiefMoved) -> str | None:
    if event.forced is True:
        x, y = event.x, event.y
        return f"Unnatural Evasion: the Thief slips to {x},{y}"
    x, y, climbed = event.x, event.y, event.climbed
    how = f", climbing the wall ({_count(climbed, 'Action cube')})" if climbed else ""
    return f"The Thief moves to {x},{y}{how}"


@_describes(ev.TilePeeked)
def _tile_peeked(state: VastState, event: ev.TilePeeked) -> str | None:
    x, y, tile = event.x, event.y, event.tile
    what = "" if tile == HIDDEN else f": {_tile(tile)}"
    return f"The Thief looks at the Dark tile at {x},{y}{what}"


@_describes(ev.ThiefActed)
def _thief_acted(state: VastState, event: ev.ThiefActed) -> str | None:
    action, cubes, target = event.action, event.cubes, event.target
    name = THIEF_ACTIONS.get(action, action)
    if action == "loot" and target:
        on = f" (the {target} Gem)"
    elif target:
        on = f" on {_piece(target)}"
    else:
        on = ""
    return f"The Thief spends {_count(cubes, 'Action cube')} on {name}{on}"


@_describes(ev.ThiefLooted)
def _thief_looted(state: VastState, event: ev.ThiefLooted) -> str | None:
    source, gem, x, y = event.source, event.gem, event.x, event.y
    what = f"the {gem} Gem" if gem else "a Treasure token"
    if source == "supply":
        supply = "the Cave's supply" if state.cave else "the supply"
        return f"The Thief takes {what} from {supply}"
    if source == "map":
        return f"The Thief takes {what} from {x},{y} (the supply is empty)"
    return f"The Thief loots {what} at {x},{y}"


@_describes(ev.ThiefActionRolled)
def _thief_action_rolled(state: VastState, event: ev.ThiefActionRolled) -> str | None:
    action, ok, face, target, again = event.action, event.success, event.face, event.target, event.rerolled
    name = THIEF_ACTIONS.get(action, action)
    on = f" on {_piece(target)}" if target else ""
    die = f"Action die {face}" if face else "3 cubes: no roll"
    first = "Sticky Fingers re-roll: " if again else ""
    return f"{first}{name}{on} {'succeeds' if ok else 'fails'} ({die})"


@_describes(ev.ThiefStole)
def _thief_stole(state: VastState, event: ev.ThiefStole) -> str | None:
    if event.target == "dragon":
        return "The Thief picks the Dragon's pocket: a Wakefulness cube goes back to Greed"
    target, card, hidden = event.target, event.card, event.hidden
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


@_describes(ev.VaultOpened)
def _vault_opened(state: VastState, event: ev.VaultOpened) -> str | None:
    x, y = event.x, event.y
    return f"The Thief opens the Vault at {x},{y}"


@_describes(ev.LootHidden)
def _loot_hidden(state: VastState, event: ev.LootHidden) -> str | None:
    count = event.count
    th = state.thief
    now = f": Loot Drop level {th.loot_drop}" if th is not None else ""
    return f"The Thief hides his loot (-{count}){now}"


@_describes(ev.TreasureStashed)
def _treasure_stashed(state: VastState, event: ev.TreasureStashed) -> str | None:
    tokens, gems = event.tokens, event.gems
    th = state.thief
    back = f" ({_listed([f'the {g} Gem' for g in gems])} back to the Dragon)" if gems else ""
    total = f": {th.stashed} of {agreed_crystals(state) or 6}" if th is not None else ""
    return f"The Thief stashes {_count(tokens, 'token')} at the Entrance{back}{total}"


@_describes(ev.UpgradeTaken)
def _upgrade_taken(state: VastState, event: ev.UpgradeTaken) -> str | None:
    upgrade = event.upgrade
    return f"The Thief takes the Upgrade {UPGRADE_NAMES.get(upgrade, upgrade)}"


@_describes(ev.UpgradeLost)
def _upgrade_lost(state: VastState, event: ev.UpgradeLost) -> str | None:
    upgrade = event.upgrade
    name = UPGRADE_NAMES.get(upgrade, upgrade)
    return f"Soporific Spores: the Thief loses the Upgrade {name} (its token still counts)"


@_describes(ev.ThiefAttacked)
def _thief_attacked(state: VastState, event: ev.ThiefAttacked) -> str | None:
    if event.by == "trap":
        return "The Gem was a trap: the Dragon die strikes the Thief"
    if event.by == "dragon":
        why = event.why
        if why != "attack":
            return f"The Dragon's {THIEF_HITS.get(why, why)} strikes the Thief"
    by = event.by
    who = _piece(by)
    return f"{who[0].upper()}{who[1:]} attacks the Thief"


@_describes(ev.ThiefShot)
def _thief_shot(state: VastState, event: ev.ThiefShot) -> str | None:
    return "The Knight shoots at the Thief with the Enchanted Bow"


@_describes(ev.ThiefHexed)
def _thief_hexed(state: VastState, event: ev.ThiefHexed) -> str | None:
    count = event.count
    th = state.thief
    now = f": Stealth {thief_stealth(th)}" if th is not None else ""
    return f"Hex: the Thief loses {count} Stealth until the Goblins' next turn{now}"


@_describes(ev.ThiefEvaded)
def _thief_evaded(state: VastState, event: ev.ThiefEvaded) -> str | None:
    face = event.face
    return f"Unnatural Evasion (Action die {face}): the attack misses the Thief"


@_describes(ev.ThiefKilled)
def _thief_killed(state: VastState, event: ev.ThiefKilled) -> str | None:
    by, level = event.by, event.loot_drop
    cause = "a Gem's trap" if by == "trap" else _piece(by)
    bonus = f"; {_piece(by)} gains the Loot Drop bonus ({level})" if level else ""
    return f"The Thief is killed by {cause}: he drops his loot and leaves the map{bonus}"


@_describes(ev.ThiefWounded)
def _thief_wounded(state: VastState, event: ev.ThiefWounded) -> str | None:
    target, wound = event.target, event.wound
    return f"The Thief backstabs {_piece(target)}: a {WOUNDS.get(wound, str(wound))} wound"


@_describes(ev.GameWon)
def _game_won(state: VastState, event: ev.GameWon) -> str | None:
    if event.winner == "everyone-lost":
        reason = event.reason
        return f"Everyone loses: {reason}"
    winner, reason = event.winner, event.reason
    return f"The {_role(winner)} {'win' if winner == 'goblins' else 'wins'}: {reason}"


@_describes(GameEnded)
def _game_ended(state: VastState, event: GameEnded) -> str | None:
    kind, _, who = event.result.partition(":")
    if kind == "won" and who:
        outcome = f"the {_role(who)} {'win' if who == 'goblins' else 'wins'}"
    elif event.result == "lost:everyone":
        outcome = "everyone loses"
    else:  # a game closed by the server (CloseGame) ends with the result it was given
        outcome = event.result
    reveal = f"; dice seed revealed: {event.seed}" if event.seed else ""
    return f"The game ends: {outcome}{reveal}"


@_describes(DiceRolled)
def _dice_rolled(state: VastState, event: DiceRolled) -> str | None:
    reason, faces = event.reason, event.faces
    if faces and reason.startswith(("thief-action:", "evasion:")):
        return f"Action die ({_action_roll(reason)}): {faces[0]}"
    if faces and reason.startswith("thief-gem:") and faces[0] in DRAGON_DIE:
        gem = reason.removeprefix("thief-gem:")
        return f"Dragon die (the {gem} Gem the Thief took): {DIE_FACE_WORDS[faces[0]]}"
    if faces and reason.startswith("thief-flare:") and faces[0] in DRAGON_DIE:
        at = reason.removeprefix("thief-flare:")
        return f"Dragon die (the Thief's Flare at {at}): {DIE_FACE_WORDS[faces[0]]}"
    if faces and 1 <= faces[0] <= 6:
        return f"Dragon die ({_dragon_roll(reason)}): {DIE_FACE_WORDS[faces[0]]}"
    return None


def _dragon_roll(reason: str) -> str:
    """What a Dragon die roll is for, in players' words, from its ``RollRequested.reason`` (``flare:x,y``,
    ``goblin-flare:x,y``, ``power:<power>:x,y``, ``gem:<who>:<gem>:x,y``, ``dragon-attack:<s>:<bomb>``,
    ``ambush``; ``...:reroll`` for a second roll)."""
    if reason.endswith(":reroll"):
        return f"{_dragon_roll(reason.removesuffix(':reroll'))}, rolled again"
    kind, _, rest = reason.partition(":")
    parts = rest.split(":")
    match kind:
        case "flare":
            return f"the Flare at {rest}"
        case "goblin-flare":
            return f"the Goblins' Flare at {rest}"
        case "power" if len(parts) == 2:
            return f"{parts[0].replace('-', ' ').capitalize()} at {parts[1]}"
        case "gem" if len(parts) == 3:
            return f"the {parts[1].capitalize()} Gem's trap at {parts[2]}"
        case "dragon-attack" if len(parts) == 2:
            bomb = " with a Bomb" if parts[1] == "1" else ""
            return f"an attack on the Dragon at Strength {parts[0]}{bomb}"
        case "ambush":
            return "an ambush"
    return reason


@_describes(DecisionMade)
def _decision_made(state: VastState, event: DecisionMade) -> str | None:
    if event.option == "keep":
        decision = event.decision
        if decision.startswith("peek:"):
            return f"The Thief keeps the tile at {decision.removeprefix('peek:')} Dark"
    return None


@_describes(DecisionRequested)
def _decision_requested(state: VastState, event: DecisionRequested) -> str | None:
    decision, piece = event.decision, event.piece
    if decision.startswith("fill:"):
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
