"""Sandbox tables for Vast: a setup that lays an explicit table (the cave, the Knight's and the Cave's boards,
the decks) instead of Vast rulebook's setup, to teach, to test, or to carry on a game begun at a real table.

What is not laid is derived: the tile stack holds every Cave tile neither on the map nor in the Cave's hand
(one pile, its Crystal tiles shuffled in), the Treasure, Event and Sidequest decks every card of theirs
not held, played or listed elsewhere, the Omen bag every token the Cave does not hold. A table that cannot
be is refused with ``RuleBroken("setup.sandbox-*")`` naming what is wrong, and nothing is stored.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct, field

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.vast.cave import ENTRANCE, SIDES, Pos, step
from dicelog.domain.vast.content import card_file, tiles
from dicelog.domain.vast.rules.goblins import built_monsters, built_secrets, war_deck
from dicelog.domain.vast.state import (
    CaveCell,
    CaveRole,
    DragonRole,
    GoblinsRole,
    KnightRole,
    ThiefRole,
    Tribe,
    VastState,
)

Coord = Annotated[int, Meta(ge=-60, le=60)]
OMEN_SYMBOLS = ("bat", "boulder", "quartz", "mushroom", "trail", "chasm")
_SECTION = "docs/architecture.md, Content is data"


class SandboxCell(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A tile on the sandbox map."""

    x: Coord
    """Column from the Entrance (east positive)."""
    y: Coord
    """Row from the Entrance (north positive)."""
    tile: str
    """The tile id (``/content/vast/tiles``); ``entrance`` at ``(0, 0)``."""
    lit: bool = False
    """Lit side up (revealed); the Entrance always is."""
    rotation: Annotated[int, Meta(ge=0, le=3)] = 0
    """Quarter turns clockwise of a Lit tile."""
    treasure: Annotated[int, Meta(ge=0, le=12)] = 0
    """Treasure tokens on it."""
    crystal: bool = False
    """A Crystal token on it (a Lit Crystal tile only)."""
    gems: tuple[Literal["claw", "flame", "wing"], ...] = ()
    """Dragon Gems on it (with the Dragon in play)."""
    event_token: bool = False
    """An Event token on it (a Lit Event tile, with the Knight in play; rules revision 2 on)."""
    vault: bool = False
    """A Vault token on it (a Lit Vault tile, with the Thief in play)."""


class SandboxKnight(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Knight's board on the sandbox table."""

    x: Coord = 0
    """Her column."""
    y: Coord = 0
    """Her row."""
    health: Annotated[int, Meta(ge=1, le=7)] = 7
    """Her Health (1-7)."""
    grit: Annotated[int, Meta(ge=0, le=45)] = 0
    """Her Grit (0-45): the Hero cubes she has follow from it."""
    discarded: Annotated[int, Meta(ge=0, le=5)] = 0
    """Hero cubes on the Discarded space."""
    bombs: Annotated[int, Meta(ge=0, le=3)] = 3
    """Bomb tokens left."""
    smashed: Annotated[int, Meta(ge=0, le=9)] = 0
    """Crystal tokens smashed."""
    treasures: tuple[str, ...] = ()
    """Her face-down Treasure cards."""
    face_up: tuple[str, ...] = ()
    """Her face-up Treasure cards."""
    sidequests: tuple[str, ...] = ()
    """Her Sidequests in hand."""
    completed: tuple[str, ...] = ()
    """Sidequests completed (out of the game)."""
    poisoned: Annotated[int, Meta(ge=0, le=5)] = 0
    """Hero cubes Poison left on the Entrance (docs/vast/facts.md §3 Secrets cards; rules revision 3): hers
    again when she enters it."""
    placed: dict[str, Annotated[int, Meta(ge=1, le=7)]] = field(default_factory=dict)
    """Hero cubes placed this turn (or left placed since her last turn), by target: ``movement``,
    ``perception``, ``strength``, ``map``, ``bomb``, ``shield``, ``spent``, or one of her Treasure cards;
    at most the cubes she has (Vast rulebook §Cubetti Eroe)."""
    moves: Annotated[int, Meta(ge=0, le=20)] = 0
    """Tiles moved this turn (at most her Movement as placed)."""
    encounters: Annotated[int, Meta(ge=0, le=10)] = 0
    """Encounters had this turn (at most her Perception as placed)."""


class SandboxCave(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Cave's board on the sandbox table."""

    hand: tuple[str, ...] = ()
    """Tiles in hand (at most 3)."""
    omens: tuple[str, ...] = ()
    """Omen tokens held (``bat-1`` ... ``chasm-6``)."""
    supply: Annotated[int, Meta(ge=0, le=12)] | None = None
    """Treasure tokens on its board; ``null``: 10 less those on the map."""


class SandboxTribe(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Goblin Tribe on the sandbox table."""

    name: Literal["fangs", "bones", "eye"]
    """The Tribe."""
    population: Annotated[int, Meta(ge=0, le=4)] = 0
    """Goblin discs (0-4)."""
    x: Coord | None = None
    """Its column on the map (or the empty space it lurks on); ``null``: hidden on the Goblins' board."""
    y: Coord | None = None
    """Its row, as ``x``."""
    lurking: bool = False
    """Waiting on an empty space next to the map (still hidden)."""
    monsters: tuple[str, ...] = ()
    """Its Monster cards."""
    activated: bool = False
    """Activated this turn (a Goblins' turn laid in its activate phase)."""


class SandboxGoblins(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Goblins' board on the sandbox table."""

    tribes: tuple[SandboxTribe, ...] = ()
    """The Tribes laid (those left out are hidden with Population 0)."""
    rage: Annotated[int, Meta(ge=0, le=3)] = 1
    """Rage (0-3)."""
    hand: tuple[str, ...] = ()
    """Secrets cards in hand."""
    face_up: tuple[str, ...] = ()
    """Secrets cards face up (Trap, Goblin Ruby)."""
    smashed: Annotated[int, Meta(ge=0, le=4)] = 0
    """Crystal tokens kept on their board (smashed with no Knight in play; 5 win)."""
    phase: Literal["war", "populate", "monsters", "secrets", "activate"] = "war"
    """Where their turn laid as it stands begins (Vast rulebook §I Goblin, Riepilogo del Turno: 1. the War
    card ... 5. activate the Tribes); a phase past ``war`` only on their turn, not ``at_start``, rules
    revision 6 on."""
    war: str | None = None
    """The War card chosen this turn (``consumption`` ... ``waste``): given past the ``war`` phase only."""


class SandboxDragon(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Dragon's board on the sandbox table."""

    x: Coord | None = None
    """Its column; ``null``: not placed yet (its first turn places it)."""
    y: Coord | None = None
    """Its row, as ``x``."""
    health: Annotated[int, Meta(ge=1, le=5)] = 5
    """Health (1-5)."""
    sloth: dict[str, Annotated[int, Meta(ge=0, le=4)]] = field(default_factory=dict)
    """Sloth cubes left on each Sloth track (``greed`` 4, ``hunger`` 4, ``pride-events`` 4, ``pride-still``
    1, ``pride-gem`` 1 at most); a track left out is full. The other cubes are on Wakefulness."""
    awake: bool = False
    """Awakened (it must be, with 11 Wakefulness or more)."""
    surfaced: bool = False
    """On the surface (only awake, on a tile of the map)."""
    eaten: Annotated[int, Meta(ge=0, le=20)] = 0
    """The Eaten Goblins track."""
    hand: tuple[str, ...] = ()
    """Power cards in hand (``claw-1`` ... ``wing-6``)."""
    held: Annotated[int, Meta(ge=0, le=12)] = 0
    """Treasure tokens held for later Greed cubes."""
    shriek: bool = False
    """The Shriek token is placed."""
    flame_wall: tuple[Coord, Coord] | None = None
    """Where its Flame Wall is (a Lit tile next to it); ``null`` in reserve."""


class SandboxThief(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Thief's board on the sandbox table (Vast rulebook §Il Ladro)."""

    x: Coord | None = None
    """His column; ``null``: off the map (before his first turn, or killed: his next turn starts him on the
    Entrance, Vast rulebook §Morire)."""
    y: Coord | None = None
    """His row, as ``x``."""
    movement: Annotated[int, Meta(ge=0, le=4)] = 0
    """The Stat token on Movement (2, 3 or 4, as flipped by his Upgrades); 0 with ``stealth`` and
    ``thievery``: not assigned this turn (Vast rulebook §1. Assegna i Segnalini Statistica)."""
    stealth: Annotated[int, Meta(ge=0, le=4)] = 0
    """The Stat token on Stealth, as ``movement``."""
    thievery: Annotated[int, Meta(ge=0, le=4)] = 0
    """The Stat token on Thievery, as ``movement``."""
    cubes: Annotated[int, Meta(ge=0, le=5)] = 0
    """Action cubes left on his board this turn (at most Thievery with its Stat Boost; 0 unassigned)."""
    moves: Annotated[int, Meta(ge=0, le=5)] = 0
    """Tiles moved this turn (at most his Movement)."""
    loot_drop: Annotated[int, Meta(ge=0, le=3)] = 3
    """The Loot Drop level (0-3)."""
    carried: Annotated[int, Meta(ge=0, le=12)] = 0
    """Treasure tokens carried, not yet stashed."""
    gems: tuple[Literal["claw", "flame", "wing"], ...] = ()
    """Dragon Gems carried (with the Dragon in play)."""
    stashed: Annotated[int, Meta(ge=0, le=12)] = 0
    """Tokens stashed at the Entrance (6 win)."""
    upgrades: tuple[str, ...] = ()
    """Upgrade spaces filled (``sticky-fingers`` ... ``all-4``), at most one per token stashed; the Flip Stat
    Tokens spaces left to right (Vast rulebook §Migliorie)."""
    peeked: tuple[str, ...] = ()
    """Dark tiles of the map he has looked at, by tile id (his secret, and the Cave's)."""


class VastSandbox(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An explicit Vast table for a setup this release plays: the ``sandbox`` of a ``POST /games`` setup."""

    cells: tuple[SandboxCell, ...]
    """Every tile on the map, the Entrance at ``(0, 0)`` included."""
    knight: SandboxKnight = field(default_factory=SandboxKnight)
    """The Knight's board."""
    cave: SandboxCave = SandboxCave()
    """The Cave's board."""
    turn: str = "knight"
    """The role whose turn begins (as laid: the Cave's Omens are not collected again)."""
    at_start: bool = False
    """``true``: the turn is laid at its start, so its start steps run at ``Begin`` (the Cave collects its
    Omens, the Dragon is placed and its Flame Wall returns, the Thief's start, an Event token under the
    Knight); ``false``: it begins as laid (a Dragon not yet on the map is still placed)."""
    round: Annotated[int, Meta(ge=1)] = 1
    """The round."""
    fill_open_edges: bool = True
    """``true``: the Cave fills the laid map's open edges at once, as Vast rulebook §Tessere Caverna asks of
    every open edge; ``false``: they are left as laid, open for the rest of the game (a table where the Cave
    could not fill them, its hand empty or the Collapse begun)."""
    rockslides: tuple[tuple[Coord, Coord, str], ...] = ()
    """Edges holding a Rockslide: ``[x, y, side]``, between two tiles of the map."""
    bombs: tuple[tuple[Coord, Coord, str], ...] = ()
    """Edges holding a Bomb token: ``[x, y, side]``."""
    collapse: bool = False
    """Whether the Collapse has begun (the Cave's hand must then be empty)."""
    crystal_tiles_collapsed: Annotated[int, Meta(ge=0, le=4)] = 0
    """Crystal tiles removed so far."""
    events_played: tuple[str, ...] = ()
    """Event cards played (out of the game); the others are in the deck."""
    treasures_gone: tuple[str, ...] = ()
    """Treasure cards declined (out of the game)."""
    goblins: SandboxGoblins = SandboxGoblins()
    """The Goblins' board (with the Goblins in play)."""
    dragon: SandboxDragon | None = None
    """The Dragon's board (with the Dragon in play; ``null``: as at the start); Gems not on a tile are in its
    reserve."""
    thief: SandboxThief | None = None
    """The Thief's board (with the Thief in play; ``null``: as at the start, off the map)."""


def _refuse(rule: str, detail: str) -> RuleBroken:
    return RuleBroken(f"setup.sandbox-{rule}", section=_SECTION, detail=detail)


def _unique(items: list[str], what: str) -> None:
    seen: set[str] = set()
    for item in items:
        if item in seen:
            raise _refuse("duplicate", f"{what} {item!r} is laid twice")
        seen.add(item)


def lay(
    sandbox: VastSandbox, roles: tuple[str, ...], removed_sidequests: tuple[str, ...], revision: int = 1
) -> VastState:
    """The state of the sandbox table at rules revision ``revision`` (its decks). Raises
    ``RuleBroken("setup.sandbox-*")`` for a table that cannot be: the map (``_check_map``), the Cave's hand
    (``_check_hand``), the cards (``_check_cards``), the edges (``_check_edges``), the turn, the Treasure
    tokens, each role's board."""
    from dicelog.domain.vast.cave import edge

    known = tiles()
    by_pos = _check_map(sandbox, roles, revision)
    hand = _check_hand(sandbox)
    _unique([c.tile for c in sandbox.cells] + hand, "tile")
    k = sandbox.knight
    if (k.x, k.y) not in by_pos:
        raise _refuse("knight", "the Knight stands on a tile of the map")
    decks = _check_cards(sandbox, removed_sidequests)
    _check_edges(sandbox, by_pos)
    if sandbox.turn not in roles:
        raise _refuse("turn", f"the turn is a role in play: {list(roles)}")
    thief = _thief(sandbox, by_pos, roles) if "thief" in roles else None
    tokens = 12 if thief is not None else 10  # docs/vast/facts.md §1: 10 Treasure tokens, 12 with the Thief
    on_map = sum(c.treasure for c in sandbox.cells)
    off_map = (thief.carried + thief.stashed) if thief is not None else 0
    supply = sandbox.cave.supply if sandbox.cave.supply is not None else tokens - on_map - off_map
    if supply < 0 or supply + on_map + off_map > tokens:
        raise _refuse("treasure", f"more than {tokens} Treasure tokens (the map, the Cave's, the Thief's)")
    goblins = _goblins(sandbox, by_pos, (k.x, k.y), revision) if "goblins" in roles else None
    used = {c.tile for c in sandbox.cells} | set(hand)
    left = sorted(
        t.id for t in known.values() if t.id not in used and t.kind in ("ambush", "event", "treasure-room")
    )
    crystals = sorted(t.id for t in known.values() if t.id not in used and t.kind == "crystal")
    vaults = sorted(t.id for t in known.values() if t.id not in used and t.kind == "vault") if thief else []
    stack = len(left) + len(crystals) + len(vaults)
    return VastState(
        roles=roles,
        cells=_cells(sandbox, roles),
        rockslides=tuple(edge((x, y), s) for x, y, s in sandbox.rockslides),
        dragon=_dragon(sandbox, by_pos, roles) if "dragon" in roles else None,
        bombs=tuple(edge((x, y), s) for x, y, s in sandbox.bombs),
        knight=_knight(k) if "knight" in roles else None,
        cave=CaveRole(
            hand=tuple(sorted(hand)),
            omens=tuple(sorted(sandbox.cave.omens)),
            supply=supply,
            rockslides=3 - len(sandbox.rockslides),
        )
        if "cave" in roles
        else None,
        stack=tuple(left),
        crystals=tuple(crystals),
        piles=(stack,) if stack else (),
        pile_crystals=(len(crystals),) if stack else (),
        vaults=tuple(vaults),
        pile_vaults=(len(vaults),) if stack and thief else (),
        thief=thief,
        treasure_tokens=tokens,
        treasure_deck=decks.treasure,
        event_deck=decks.events,
        sidequest_deck=decks.sidequests,
        omen_bag=decks.omens,
        collapse=sandbox.collapse,
        open_left=() if sandbox.fill_open_edges else _open_edges(sandbox),
        crystal_tiles_collapsed=sandbox.crystal_tiles_collapsed,
        smashed_total=k.smashed,
        goblins=goblins,
        war_deck=war_deck() if goblins else (),
        monster_deck=tuple(
            m for m in built_monsters(revision) if goblins and m not in _monsters_laid(sandbox)
        ),
        secrets_deck=tuple(
            c
            for c in built_secrets(revision)
            if goblins and c not in (*sandbox.goblins.hand, *sandbox.goblins.face_up)
        ),
        revealed=sum(1 for c in sandbox.cells if c.lit and c.tile != "entrance"),
    )


def _check_map(sandbox: VastSandbox, roles: tuple[str, ...], revision: int) -> dict[Pos, SandboxCell]:
    """The map's tiles by space: one tile a space, the Entrance at ``(0, 0)``, tiles of this game, a Crystal
    token on a Lit Crystal tile, an Event token on a Lit Event tile with the Knight (rules revision 2 on), a
    Vault token on a Lit Vault tile with the Thief. Raises ``setup.sandbox-space``, ``-entrance``, ``-tile``,
    ``-crystal``, ``-token``."""
    known = tiles()
    positions = [(c.x, c.y) for c in sandbox.cells]
    if len(set(positions)) != len(positions):
        raise _refuse("space", "two tiles on one space")
    by_pos = {(c.x, c.y): c for c in sandbox.cells}
    entrance = by_pos.get(ENTRANCE)
    if entrance is None or entrance.tile != "entrance":
        raise _refuse("entrance", "the Entrance is the tile at (0, 0)")
    for cell in sandbox.cells:
        if cell.tile not in known or (known[cell.tile].kind == "vault" and "thief" not in roles):
            raise _refuse("tile", f"no tile {cell.tile!r} in this game")
        if cell.tile == "entrance" and (cell.x, cell.y) != ENTRANCE:
            raise _refuse("entrance", "the Entrance is the tile at (0, 0)")
        kind = known[cell.tile].kind
        if cell.crystal and not (cell.lit and kind == "crystal"):
            raise _refuse("crystal", f"a Crystal token lies on a Lit Crystal tile, not at {cell.x},{cell.y}")
        if cell.event_token and not (cell.lit and kind == "event" and "knight" in roles and revision >= 2):
            raise _refuse(
                "token", f"an Event token lies on a Lit Event tile with the Knight, not at {cell.x},{cell.y}"
            )
        if cell.vault and not (cell.lit and kind == "vault"):
            raise _refuse("token", f"a Vault token lies on a Lit Vault tile, not at {cell.x},{cell.y}")
    return by_pos


def _check_hand(sandbox: VastSandbox) -> list[str]:
    """The Cave's hand: 3 tiles at most (none in the Collapse), Cave tiles. Raises ``setup.sandbox-hand``,
    ``-tile``."""
    known = tiles()
    hand = list(sandbox.cave.hand)
    if len(hand) > 3 or (sandbox.collapse and hand):
        raise _refuse("hand", "the Cave holds at most 3 tiles, and none once the Collapse has begun")
    for tile_id in hand:
        if tile_id not in known or known[tile_id].kind in ("entrance", "vault"):
            raise _refuse("tile", f"no tile {tile_id!r} in the Cave's hand")
    return hand


class _Decks(Struct, frozen=True, kw_only=True):
    treasure: tuple[str, ...]
    events: tuple[str, ...]
    sidequests: tuple[str, ...]
    omens: tuple[str, ...]


def _check_cards(sandbox: VastSandbox, removed_sidequests: tuple[str, ...]) -> _Decks:
    """The cards and Omen tokens laid, each once and of its kind; the decks and the bag hold the rest.
    Raises ``setup.sandbox-card``, ``-duplicate``, ``-omen``."""
    k = sandbox.knight
    cards = card_file()
    treasure_ids = {c.id for c in cards.treasures}
    event_ids = {c.id for c in cards.events}
    sidequest_ids = {c.id for c in cards.sidequests} - set(removed_sidequests)
    held = [*k.treasures, *k.face_up, *sandbox.treasures_gone]
    if not set(held) <= treasure_ids:
        raise _refuse("card", "a Treasure card that is not one")
    _unique(held, "Treasure card")
    if not set(k.sidequests) | set(k.completed) <= sidequest_ids or len(k.sidequests) > 3:
        raise _refuse("card", "Sidequests are 3 at most in hand, of this setup's deck")
    _unique([*k.sidequests, *k.completed], "Sidequest")
    if not set(sandbox.events_played) <= event_ids:
        raise _refuse("card", "an Event card that is not one")
    _unique(list(sandbox.events_played), "Event card")
    omens = {f"{s}-{n}" for s in OMEN_SYMBOLS for n in range(1, 7)}
    if not set(sandbox.cave.omens) <= omens:
        raise _refuse("omen", "Omen tokens are bat-1 ... chasm-6")
    _unique(list(sandbox.cave.omens), "Omen token")
    return _Decks(
        treasure=tuple(sorted(treasure_ids - set(held))),
        events=tuple(sorted(event_ids - set(sandbox.events_played))),
        sidequests=tuple(sorted(sidequest_ids - set(k.sidequests) - set(k.completed))),
        omens=tuple(sorted(omens - set(sandbox.cave.omens))),
    )


def _check_edges(sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell]) -> None:
    """Rockslides and Bombs on edges between two tiles, one per edge, 3 Rockslides and 3 Bombs at most (with
    the Knight's). Raises ``setup.sandbox-edge``."""
    from dicelog.domain.vast.cave import edge

    edges = []
    for x, y, side in (*sandbox.rockslides, *sandbox.bombs):
        if side not in SIDES or (x, y) not in by_pos or step((x, y), side) not in by_pos:
            raise _refuse("edge", f"{x},{y},{side} is not an edge between two tiles")
        edges.append(edge((x, y), side))
    if (
        len(sandbox.rockslides) > 3
        or len(sandbox.bombs) + sandbox.knight.bombs > 3
        or len(set(edges)) != len(edges)
    ):
        raise _refuse("edge", "3 Rockslides and 3 Bombs at most, one per edge")


def _cells(sandbox: VastSandbox, roles: tuple[str, ...]) -> tuple[CaveCell, ...]:
    known = tiles()
    return tuple(
        CaveCell(
            x=c.x,
            y=c.y,
            tile=c.tile,
            symbol=known[c.tile].symbol,
            lit=c.lit or c.tile == "entrance",
            rotation=c.rotation,
            treasure=c.treasure,
            crystal=c.crystal,
            gems=c.gems if "dragon" in roles else (),
            event_token=c.event_token,
            vault=c.vault,
        )
        for c in sandbox.cells
    )


def _knight(k: SandboxKnight) -> KnightRole:
    """The Knight's board laid; what she placed this turn within her cubes, her moves and Encounters within
    the Movement and Perception it gives (Vast rulebook §Cubetti Eroe, §2. Muovi e Agisci). Raises
    ``setup.sandbox-knight``."""
    from dicelog.domain.vast.rules.common import movement, owned_cubes, perception

    targets = {
        "movement",
        "perception",
        "strength",
        "map",
        "bomb",
        "shield",
        "spent",
        *k.treasures,
        *k.face_up,
    }
    board = _knight_board(k)
    if not set(k.placed) <= targets or sum(k.placed.values()) > owned_cubes(board):
        raise _refuse(
            "knight", f"Hero cubes are placed on {sorted(targets)}, at most the {owned_cubes(board)} she has"
        )
    if k.moves > movement(board) or k.encounters > perception(board):
        raise _refuse("knight", "her moves and Encounters this turn are at most her Movement and Perception")
    return board


def _knight_board(k: SandboxKnight) -> KnightRole:
    return KnightRole(
        x=k.x,
        y=k.y,
        health=k.health,
        grit=k.grit,
        discarded=k.discarded,
        bombs=k.bombs,
        smashed=k.smashed,
        treasures=tuple(sorted(k.treasures)),
        face_up=k.face_up,
        sidequests=tuple(sorted(k.sidequests)),
        completed=k.completed,
        poisoned=k.poisoned,
        placed=dict(k.placed),
        moves=k.moves,
        encounters=k.encounters,
    )


def _dragon(sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell], roles: tuple[str, ...]) -> DragonRole:
    """The Dragon's board laid: on a tile of the map (or not yet placed), its tracks within their spaces,
    awake from 11 Wakefulness, surfaced only awake, Power cards once each, Gems once each between the map and
    its reserve, the Flame Wall on a Lit tile next to it. Raises ``setup.sandbox-dragon``."""
    from dicelog.domain.vast.state import AWAKE_AT, POWER_CARDS, SLOTH_ROOM, wakefulness

    laid = sandbox.dragon or SandboxDragon()
    where = (laid.x, laid.y) if laid.x is not None and laid.y is not None else None
    if (laid.x is None) != (laid.y is None) or (where is not None and where not in by_pos):
        raise _refuse("dragon", "the Dragon stands on a tile of the map, or gives no x, y")
    unknown = set(laid.sloth) - set(SLOTH_ROOM)
    if unknown or any(n > SLOTH_ROOM[t] for t, n in laid.sloth.items()):
        raise _refuse("dragon", f"Sloth tracks are {dict(SLOTH_ROOM)} (cubes left at most)")
    role = DragonRole(sloth={**SLOTH_ROOM, **laid.sloth})
    if wakefulness(role) >= AWAKE_AT and not laid.awake:
        raise _refuse("dragon", "with 11 Wakefulness or more the Dragon is awake")
    if laid.surfaced and (not laid.awake or where is None):
        raise _refuse("dragon", "only an awake Dragon on the map is surfaced")
    if not set(laid.hand) <= set(POWER_CARDS) or len(set(laid.hand)) != len(laid.hand) or len(laid.hand) > 7:
        raise _refuse("dragon", "Power cards are claw-1 ... wing-6, once each, 7 at most")
    on_map = [g for c in sandbox.cells for g in c.gems]
    on_map += list(sandbox.thief.gems) if sandbox.thief is not None and "thief" in roles else []
    if len(set(on_map)) != len(on_map):
        raise _refuse("dragon", "each Gem (claw, flame, wing) is laid once (on the map or the Thief's)")
    wall = laid.flame_wall
    if wall is not None and (
        where is None
        or wall not in [step(where, s) for s in SIDES]
        or wall not in by_pos
        or not by_pos[wall].lit
    ):
        raise _refuse("dragon", "the Flame Wall is on a Lit tile next to the Dragon")
    return DragonRole(
        x=laid.x,
        y=laid.y,
        health=laid.health,
        sloth=dict(role.sloth),
        awake=laid.awake,
        surfaced=laid.surfaced,
        eaten=laid.eaten,
        hand=tuple(sorted(laid.hand)),
        gems=tuple(g for g in ("claw", "flame", "wing") if g not in on_map),
        held=laid.held,
        shriek=laid.shriek,
        flame_wall=wall,
    )


def _monsters_laid(sandbox: VastSandbox) -> set[str]:
    return {m for t in sandbox.goblins.tribes for m in t.monsters}


def _goblins(sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell], knight: Pos, revision: int) -> GoblinsRole:
    """The Goblins' board laid: Tribes once each, on a tile (not the Knight's) or lurking on an empty space
    next to the map; Monsters within each Tribe's room; Secrets in hand and face up of the cards this release
    plays. Raises ``setup.sandbox-goblins``."""
    from dicelog.domain.vast.rules.goblins import MONSTER_ROOM

    laid = sandbox.goblins
    names = [t.name for t in laid.tribes]
    if len(set(names)) != len(names):
        raise _refuse("goblins", "each Tribe is laid once")
    monsters = [m for t in laid.tribes for m in t.monsters]
    if not set(monsters) <= set(built_monsters(revision)) or len(set(monsters)) != len(monsters):
        raise _refuse(
            "goblins", f"Monsters are cards this release plays, once each: {list(built_monsters(revision))}"
        )
    secrets = [*laid.hand, *laid.face_up]
    if (
        not set(secrets) <= set(built_secrets(revision))
        or len(set(secrets)) != len(secrets)
        or len(secrets) > 5
    ):
        raise _refuse(
            "goblins", f"Secrets (5 at most) are cards this release plays: {list(built_secrets(revision))}"
        )
    if any(c not in ("trap", "goblin-ruby") for c in laid.face_up):
        raise _refuse("goblins", "only Trap and the Goblin Ruby stay face up")
    if laid.phase != "war" and (sandbox.turn != "goblins" or sandbox.at_start or revision < 6):
        raise _refuse(
            "goblins", "a phase past the War card is laid on their turn as it stands (rules revision 6)"
        )
    if (laid.war is None) != (laid.phase == "war") or (laid.war is not None and laid.war not in war_deck()):
        raise _refuse(
            "goblins", f"past the war phase the War card chosen is one of {list(war_deck())}, else none"
        )
    if any(t.activated for t in laid.tribes) and laid.phase != "activate":
        raise _refuse("goblins", "Tribes are activated in the activate phase")
    empty = {step(p, s) for p in by_pos for s in SIDES} - set(by_pos)
    tribes = []
    for name in ("fangs", "bones", "eye"):
        t = next((t for t in laid.tribes if t.name == name), None) or SandboxTribe(name=name)
        if len(t.monsters) > MONSTER_ROOM[name]:
            raise _refuse("goblins", f"the {name} Tribe holds {MONSTER_ROOM[name]} Monster(s) at most")
        where = (t.x, t.y) if t.x is not None and t.y is not None else None
        if (t.x is None) != (t.y is None) or (t.lurking and where not in empty):
            raise _refuse(
                "goblins", f"the {name} Tribe lurks on an empty space next to the map, or gives no x, y"
            )
        if where is not None and not t.lurking and (where not in by_pos or where == knight):
            raise _refuse("goblins", f"the {name} Tribe stands on a tile of the map, not the Knight's")
        tribes.append(
            Tribe(
                name=name,
                population=t.population,
                x=t.x,
                y=t.y,
                lurking=t.lurking,
                monsters=t.monsters,
                activated=t.activated,
            )
        )
    return GoblinsRole(
        tribes=tuple(tribes),
        rage=laid.rage,
        hand=tuple(sorted(laid.hand)),
        face_up=laid.face_up,
        smashed=laid.smashed,
        phase="" if laid.phase == "war" else laid.phase,
        war=laid.war,
    )


def _thief(sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell], roles: tuple[str, ...]) -> ThiefRole:
    """The Thief's board laid (Vast rulebook §Il Ladro): on a tile of the map or off it; his three Stat
    tokens all placed (the values his Flip Upgrades leave: 2, 3, 4 at the start) or none; Action cubes and
    tiles moved within Thievery and Movement; Upgrade spaces each once, Flip Stat Tokens left to right, one
    per token stashed at most; Gems with the Dragon in play; peeked tiles Dark tiles of the map; a Thief's
    turn laid as it stands (not ``at_start``) has him on the map with his Stat tokens placed. Raises
    ``setup.sandbox-thief``."""
    from dicelog.domain.vast.state import FLIP_ORDER, UPGRADES, stat_tokens, thief_stat

    laid = sandbox.thief or SandboxThief()
    where = (laid.x, laid.y) if laid.x is not None and laid.y is not None else None
    if (laid.x is None) != (laid.y is None) or (where is not None and where not in by_pos):
        raise _refuse("thief", "the Thief stands on a tile of the map, or gives no x, y (off the map)")
    ups = list(laid.upgrades)
    if not set(ups) <= set(UPGRADES) or len(set(ups)) != len(ups):
        raise _refuse("thief", f"Upgrade spaces are {list(UPGRADES)}, each once")
    flips = [u for u in ups if u in FLIP_ORDER]
    if tuple(sorted(flips, key=FLIP_ORDER.index)) != FLIP_ORDER[: len(flips)]:
        raise _refuse("thief", "the Flip Stat Tokens spaces fill left to right: flip-2, flip-3, all-4")
    if len(ups) > laid.stashed:
        raise _refuse(
            "thief", "each Upgrade space holds a stashed token: no more Upgrades than tokens stashed"
        )
    board = ThiefRole(upgrades=tuple(ups))
    placed = (laid.movement, laid.stealth, laid.thievery)
    assigned = placed != (0, 0, 0)
    if assigned and sorted(placed) != sorted(stat_tokens(board)):
        raise _refuse("thief", f"his Stat tokens are {list(stat_tokens(board))}, one on each Stat (or none)")
    stats = ThiefRole(movement=laid.movement, thievery=laid.thievery, upgrades=tuple(ups))
    if laid.cubes > (min(5, thief_stat(stats, "thievery")) if assigned else 0):
        raise _refuse("thief", "Action cubes left are at most his Thievery (with its Stat Boost)")
    if laid.moves > (thief_stat(stats, "movement") if assigned and where is not None else 0):
        raise _refuse("thief", "tiles moved are at most his Movement, on the map")
    if (laid.gems and "dragon" not in roles) or len(set(laid.gems)) != len(laid.gems):
        raise _refuse("thief", "he carries Dragon Gems only with the Dragon in play, each once")
    dark = {c.tile for c in by_pos.values() if not c.lit and c.tile != "entrance"}
    if not set(laid.peeked) <= dark:
        raise _refuse("thief", "the tiles he looked at are Dark tiles of the map")
    if sandbox.turn == "thief" and not sandbox.at_start and (where is None or not assigned):
        raise _refuse(
            "thief",
            "his turn laid as it stands has him on the map with his Stat tokens placed (else at_start)",
        )
    return ThiefRole(
        x=laid.x,
        y=laid.y,
        movement=laid.movement,
        stealth=laid.stealth,
        thievery=laid.thievery,
        assigned=assigned,
        cubes=laid.cubes,
        moves=laid.moves,
        loot_drop=laid.loot_drop,
        carried=laid.carried,
        gems=laid.gems,
        stashed=laid.stashed,
        upgrades=tuple(ups),
        peeked=tuple(sorted(laid.peeked)),
    )


def _open_edges(sandbox: VastSandbox) -> tuple[tuple[int, int, str], ...]:
    """The open edges of the laid map: the sides of its Lit tiles with no wall and no tile beyond."""
    from dicelog.domain.vast.cave import Geometry, edge

    lit = {(c.x, c.y): (c.tile, c.rotation) for c in sandbox.cells if c.lit or c.tile == "entrance"}
    rockslides = tuple(edge((x, y), s) for x, y, s in sandbox.rockslides)
    bombs = tuple(edge((x, y), s) for x, y, s in sandbox.bombs)
    shape = Geometry(((c.x, c.y) for c in sandbox.cells), lit, rockslides, bombs)
    return tuple((x, y, side) for (x, y), side in shape.all_open_edges())
