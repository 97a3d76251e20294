"""Sandbox tables for Vast: a setup that lays an explicit table (the cave, the Knight's and the Cave's boards,
the decks) instead of Vast rulebook's setup, to teach, to test, or to carry on a game begun at a real table.

What is not laid is derived: the tile stack holds every Cave tile neither on the map nor in the Cave's hand
(one pile, its Crystal tiles shuffled in), the Treasure, Event and Sidequest decks every card of theirs
not held, played or listed elsewhere, the Omen bag every token the Cave does not hold. A new game's table
that cannot be is refused with ``RuleBroken("setup.sandbox-*")`` naming what is wrong, and nothing is stored
(``strict``, run by ``setup.check_new_game`` when the game is created); a stored game's table is laid again
as stored, unchecked (``as_stored``), so a check added later never stops it from re-deriving.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from msgspec import Meta, Struct, field

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.vast.cave import ENTRANCE, SIDES, Geometry, Pos, edge, step
from dicelog.domain.vast.content import card_file, tiles
from dicelog.domain.vast.rules.common import movement, owned_cubes, perception
from dicelog.domain.vast.rules.goblins import MONSTER_ROOM, built_monsters, built_secrets, war_deck
from dicelog.domain.vast.state import (
    AWAKE_AT,
    FLIP_ORDER,
    POWER_CARDS,
    SLOTH_ROOM,
    UPGRADES,
    CaveCell,
    CaveRole,
    DragonRole,
    GoblinsRole,
    KnightRole,
    ThiefRole,
    Tribe,
    VastState,
    stat_tokens,
    thief_stat,
    wakefulness,
)

Coord = Annotated[int, Meta(ge=-60, le=60)]
OMEN_SYMBOLS = ("bat", "boulder", "quartz", "mushroom", "trail", "chasm")
_SECTION = "docs/architecture.md, Content is data"
ENCOUNTER_STAGES = {"revealed": 0, "attacked": 1, "collected": 2, "none": 3}
"""``SandboxKnight.encounter`` as ``KnightRole.stage``."""
DRAGON_STAGES = {"moving": 0, "collected": 1, "gem-placed": 2}
"""``SandboxDragon.stage`` as ``DragonRole.stage``."""


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
    encounter: Literal["none", "revealed", "attacked", "collected"] = "none"
    """The Encounter open on her tile (Vast rulebook §2. Muovi e Agisci: reveal, attack, collect, in that
    order): ``revealed`` (its tile's Encounter had, nothing attacked or collected yet), ``attacked`` (attacks
    made, a Crystal smashed), ``collected`` (Treasure taken); ``none``: no Encounter open, the next attack or
    collection opens one. Open only on her turn laid as it stands (rules revision 6), one of
    ``encounters``."""
    dragon_attacks: Annotated[int, Meta(ge=0, le=10)] = 0
    """Attacks on the Dragon this turn (Vast rulebook §Attaccare il Drago), on her turn laid as it stands."""
    bomb_used: bool = False
    """The Bomb's cube was used this turn (it must be placed on ``bomb``)."""
    bow_used: bool = False
    """The Bow's cube was used this turn (a Hero cube placed on her Bow card)."""
    enchanted_bow_used: bool = False
    """The Enchanted Bow shot this turn (a Hero cube placed on it)."""


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
    monster_discard: tuple[str, ...] = ()
    """Monster cards in the discard pile (the deck holds the others not laid)."""
    secrets_discard: tuple[str, ...] = ()
    """Secrets cards in the discard pile, played or discarded (the deck holds the others not laid)."""


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
    stage: Literal["moving", "collected", "gem-placed"] = "moving"
    """Where its turn laid as it stands is (Vast rulebook §Il Drago, Riepilogo del Turno: 1. move and use
    Powers, 2. collect a Treasure, 3. place a Dragon Gem): past ``moving`` only on its turn (rules revision
    6)."""
    moved: bool = False
    """Its free move of this turn is made (on its turn laid as it stands)."""
    still: bool = True
    """It has not moved at all this turn (Pride); ``false`` once ``moved``."""
    advanced: tuple[Literal["greed", "hunger", "pride"], ...] = ()
    """The tracks a Sloth cube left this turn (each once a turn, Vast rulebook §Risveglio e Risalita in
    Superficie)."""
    gems_used: tuple[Literal["claw", "flame", "wing"], ...] = ()
    """Gems on the map whose symbol it used this turn (each once a turn): Gems laid on a tile or carried by
    the Thief."""


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
    event_top: tuple[str, ...] = ()
    """The Event deck's top cards, first on top (3 at most), which the Cave reads at any time (Vast rulebook
    §La Caverna, Eventi: rules revision 6, with a Cave player); the deck's other cards come up in an order
    nobody has seen."""
    event_bottom: tuple[str, ...] = ()
    """Event cards at the bottom of the deck, in order, the first drawn first once the others are gone (sent
    there by an Event tile's draw or the Crystal Curse)."""
    treasure_bottom: tuple[str, ...] = ()
    """Treasure cards at the bottom of the deck, in order (the Cave's second card of each draw, Vast rulebook
    §La Caverna, Tesori)."""
    sidequest_top: tuple[str, ...] = ()
    """The Sidequest deck's top cards, first on top: the Knight's next Sidequest draws give them in this order
    (Vast rulebook §Missioni Secondarie), then the deck's other cards come in an order nobody has seen. Each
    once, of this setup's Sidequests, none in her hand or completed; nobody sees them in play."""
    stack: tuple[str, ...] | None = None
    """The tiles left in the stack (Crystal tiles and, with the Thief, Vault tiles among them; one pile), each
    once, none on the map or in the Cave's hand; the Cave tiles in none of the three are out of the game
    (collapsed). ``null``: every tile not on the map nor in the Cave's hand."""
    goblins: SandboxGoblins = SandboxGoblins()
    """The Goblins' board (with the Goblins in play)."""
    dragon: SandboxDragon | None = None
    """The Dragon's board (with the Dragon in play; ``null``: as at the start); Gems not on a tile are in its
    reserve."""
    thief: SandboxThief | None = None
    """The Thief's board (with the Thief in play; ``null``: as at the start, off the map)."""


def _refuse(rule: str, detail: str) -> RuleBroken:
    return RuleBroken(f"setup.sandbox-{rule}", section=_SECTION, detail=detail)


Check = Callable[[bool, str, str], None]
"""``check(broken, rule, detail)``: what ``lay`` does with each of its checks of the table (``strict`` or
``as_stored``)."""


def strict(broken: bool, rule: str, detail: str) -> None:
    """A new game's table: one that cannot be is refused. Raises ``RuleBroken("setup.sandbox-<rule>")`` when
    ``broken``."""
    if broken:
        raise _refuse(rule, detail)


def as_stored(broken: bool, rule: str, detail: str) -> None:
    """A stored game's table, folded again: laid as it was when the game was created, whatever checks were
    added since (they apply to new games only), so every stored game re-derives."""


def _unique(items: list[str], what: str, check: Check) -> None:
    seen: set[str] = set()
    for item in items:
        check(item in seen, "duplicate", f"{what} {item!r} is laid twice")
        seen.add(item)


def lay(
    sandbox: VastSandbox,
    roles: tuple[str, ...],
    removed_sidequests: tuple[str, ...],
    revision: int = 1,
    check: Check = strict,
) -> VastState:
    """The state of the sandbox table at rules revision ``revision`` (its decks). With ``check=strict`` (a
    new game) raises ``RuleBroken("setup.sandbox-*")`` for a table that cannot be: the map (``_check_map``),
    the Cave's hand (``_check_hand``), the cards (``_check_cards``), the edges (``_check_edges``), the turn,
    the Treasure tokens, each role's board; with ``check=as_stored`` (a stored game folded again) it checks
    nothing."""

    known = tiles()
    by_pos = _check_map(sandbox, roles, revision, check)
    hand = _check_hand(sandbox, check)
    _unique([c.tile for c in sandbox.cells] + hand, "tile", check)
    k = sandbox.knight
    check((k.x, k.y) not in by_pos, "knight", "the Knight stands on a tile of the map")
    ordered = revision >= 6 and "cave" in roles  # rules.tiles.ordered_events
    decks = _check_cards(sandbox, removed_sidequests, ordered, check)
    _check_edges(sandbox, by_pos, check)
    check(sandbox.turn not in roles, "turn", f"the turn is a role in play: {list(roles)}")
    thief = _thief(sandbox, by_pos, roles, check) if "thief" in roles else None
    tokens = 12 if thief is not None else 10  # docs/vast/facts.md §1: 10 Treasure tokens, 12 with the Thief
    on_map = sum(c.treasure for c in sandbox.cells)
    off_map = (thief.carried + thief.stashed) if thief is not None else 0
    supply = sandbox.cave.supply if sandbox.cave.supply is not None else tokens - on_map - off_map
    check(
        supply < 0 or supply + on_map + off_map > tokens,
        "treasure",
        f"more than {tokens} Treasure tokens (the map, the Cave's, the Thief's)",
    )
    goblins = _goblins(sandbox, by_pos, (k.x, k.y), revision, check) if "goblins" in roles else None
    _check_crystal_tokens(sandbox, roles, check)
    pile = _stack(sandbox, roles, hand, check)
    left = sorted(t for t in pile if known[t].kind in ("ambush", "event", "treasure-room"))
    crystals = sorted(t for t in pile if known[t].kind == "crystal")
    vaults = sorted(t for t in pile if known[t].kind == "vault") if thief else []
    stack = len(left) + len(crystals) + len(vaults)
    return VastState(
        roles=roles,
        cells=_cells(sandbox, roles),
        rockslides=tuple(edge((x, y), s) for x, y, s in sandbox.rockslides),
        dragon=_dragon(sandbox, by_pos, roles, revision, check) if "dragon" in roles else None,
        bombs=tuple(edge((x, y), s) for x, y, s in sandbox.bombs),
        knight=_knight(sandbox, revision, check) if "knight" in roles else None,
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
        treasure_bottom=decks.treasure_bottom,
        event_deck=decks.events,
        event_top=decks.event_top,
        event_bottom=decks.event_bottom,
        sidequest_deck=decks.sidequests,
        sidequest_top=decks.sidequest_top,
        omen_bag=decks.omens,
        collapse=sandbox.collapse,
        open_left=() if sandbox.fill_open_edges else _open_edges(sandbox),
        crystal_tiles_collapsed=sandbox.crystal_tiles_collapsed,
        smashed_total=k.smashed,
        goblins=goblins,
        war_deck=war_deck() if goblins else (),
        monster_deck=tuple(
            m
            for m in built_monsters(revision)
            if goblins and m not in _monsters_laid(sandbox) and m not in sandbox.goblins.monster_discard
        ),
        monster_discard=sandbox.goblins.monster_discard if goblins else (),
        secrets_deck=tuple(
            c
            for c in built_secrets(revision)
            if goblins
            and c not in (*sandbox.goblins.hand, *sandbox.goblins.face_up, *sandbox.goblins.secrets_discard)
        ),
        secrets_discard=sandbox.goblins.secrets_discard if goblins else (),
        revealed=sum(1 for c in sandbox.cells if c.lit and c.tile != "entrance"),
    )


def _check_map(
    sandbox: VastSandbox, roles: tuple[str, ...], revision: int, check: Check
) -> dict[Pos, SandboxCell]:
    """The map's tiles by space: one tile a space, the Entrance at ``(0, 0)``, tiles of this game, a Crystal
    token on a Lit Crystal tile, an Event token on a Lit Event tile with the Knight (rules revision 2 on), a
    Vault token on a Lit Vault tile with the Thief. Raises ``setup.sandbox-space``, ``-entrance``, ``-tile``,
    ``-crystal``, ``-token``."""
    known = tiles()
    positions = [(c.x, c.y) for c in sandbox.cells]
    check(len(set(positions)) != len(positions), "space", "two tiles on one space")
    by_pos = {(c.x, c.y): c for c in sandbox.cells}
    entrance = by_pos.get(ENTRANCE)
    check(entrance is None or entrance.tile != "entrance", "entrance", "the Entrance is the tile at (0, 0)")
    for cell in sandbox.cells:
        check(
            cell.tile not in known or (known[cell.tile].kind == "vault" and "thief" not in roles),
            "tile",
            f"no tile {cell.tile!r} in this game",
        )
        check(
            cell.tile == "entrance" and (cell.x, cell.y) != ENTRANCE,
            "entrance",
            "the Entrance is the tile at (0, 0)",
        )
        kind = known[cell.tile].kind
        check(
            cell.crystal and not (cell.lit and kind == "crystal"),
            "crystal",
            f"a Crystal token lies on a Lit Crystal tile, not at {cell.x},{cell.y}",
        )
        check(
            cell.event_token and not (cell.lit and kind == "event" and "knight" in roles and revision >= 2),
            "token",
            f"an Event token lies on a Lit Event tile with the Knight, not at {cell.x},{cell.y}",
        )
        check(
            cell.vault and not (cell.lit and kind == "vault"),
            "token",
            f"a Vault token lies on a Lit Vault tile, not at {cell.x},{cell.y}",
        )
    return by_pos


def _stack(sandbox: VastSandbox, roles: tuple[str, ...], hand: list[str], check: Check) -> list[str]:
    """The tiles left in the stack: those laid (``VastSandbox.stack``), each once, Cave tiles of this game
    (Vault tiles with the Thief) on neither the map nor the Cave's hand; else every such tile. Raises
    ``setup.sandbox-tile``, ``-duplicate``."""
    known = tiles()
    used = {c.tile for c in sandbox.cells} | set(hand)
    kinds = ("ambush", "event", "treasure-room", "crystal", *(("vault",) if "thief" in roles else ()))
    game = {t.id for t in known.values() if t.kind in kinds}
    if sandbox.stack is None:
        return sorted(game - used)
    laid = list(sandbox.stack)
    _unique(laid, "tile", check)
    for tile_id in laid:
        check(tile_id not in game, "tile", f"no tile {tile_id!r} in this game's stack")
        check(tile_id in used, "duplicate", f"tile {tile_id!r} is laid twice (in the stack and on the table)")
    return [t for t in dict.fromkeys(laid) if t in game and t not in used]


def _check_crystal_tokens(sandbox: VastSandbox, roles: tuple[str, ...], check: Check) -> None:
    """The Crystal tokens laid, on the map, smashed by the Knight and kept by the Goblins, are at most the
    game's: one per Crystal tile (docs/vast/facts.md §1: 9; Vast rulebook §Il Drago, Rivelare le Tessere: a
    Crystal tile revealed gets one). The others are in the supply beside the Cave's board (Vast rulebook §La
    Caverna, Preparazione, Segnalini) or out of the game (smashed by the Dragon, removed in the Collapse).
    Raises ``setup.sandbox-crystal``."""
    count = sum(1 for t in tiles().values() if t.kind == "crystal")
    laid = sum(1 for c in sandbox.cells if c.crystal)
    laid += sandbox.knight.smashed if "knight" in roles else 0
    laid += sandbox.goblins.smashed if "goblins" in roles else 0
    check(
        laid > count,
        "crystal",
        f"{laid} Crystal tokens laid (on the map, smashed, kept by the Goblins): the game has {count}",
    )


def _check_hand(sandbox: VastSandbox, check: Check) -> list[str]:
    """The Cave's hand: 3 tiles at most (none in the Collapse), Cave tiles. Raises ``setup.sandbox-hand``,
    ``-tile``."""
    known = tiles()
    hand = list(sandbox.cave.hand)
    check(
        len(hand) > 3 or (sandbox.collapse and bool(hand)),
        "hand",
        "the Cave holds at most 3 tiles, and none once the Collapse has begun",
    )
    for tile_id in hand:
        check(
            tile_id not in known or known[tile_id].kind in ("entrance", "vault"),
            "tile",
            f"no tile {tile_id!r} in the Cave's hand",
        )
    return hand


class _Decks(Struct, frozen=True, kw_only=True):
    treasure: tuple[str, ...]
    treasure_bottom: tuple[str, ...]
    events: tuple[str, ...]
    event_top: tuple[str, ...]
    event_bottom: tuple[str, ...]
    sidequests: tuple[str, ...]
    sidequest_top: tuple[str, ...]
    omens: tuple[str, ...]


def _check_cards(
    sandbox: VastSandbox, removed_sidequests: tuple[str, ...], ordered_events: bool, check: Check
) -> _Decks:
    """The cards and Omen tokens laid, each once and of its kind (a deck's bottom and top among them); the
    decks and the bag hold the rest. The Event deck's top is laid only where it has an order the Cave reads
    (``ordered_events``), 3 cards at most; the Sidequest deck's top of its own cards, none dealt. Raises
    ``setup.sandbox-card``, ``-duplicate``, ``-omen``, ``-deck``."""
    k = sandbox.knight
    cards = card_file()
    treasure_ids = {c.id for c in cards.treasures}
    event_ids = {c.id for c in cards.events}
    sidequest_ids = {c.id for c in cards.sidequests} - set(removed_sidequests)
    held = [*k.treasures, *k.face_up, *sandbox.treasures_gone, *sandbox.treasure_bottom]
    check(not set(held) <= treasure_ids, "card", "a Treasure card that is not one")
    _unique(held, "Treasure card", check)
    check(
        not set(k.sidequests) | set(k.completed) <= sidequest_ids or len(k.sidequests) > 3,
        "card",
        "Sidequests are 3 at most in hand, of this setup's deck",
    )
    _unique([*k.sidequests, *k.completed], "Sidequest", check)
    check(
        not set(sandbox.sidequest_top) <= sidequest_ids,
        "card",
        "the Sidequest deck's top: this setup's Sidequests",
    )
    check(
        bool(set(sandbox.sidequest_top) & (set(k.sidequests) | set(k.completed))),
        "deck",
        "a Sidequest on the deck's top is not in her hand nor completed",
    )
    _unique(list(sandbox.sidequest_top), "Sidequest", check)
    events = [*sandbox.events_played, *sandbox.event_bottom, *sandbox.event_top]
    check(not set(events) <= event_ids, "card", "an Event card that is not one")
    _unique(events, "Event card", check)
    check(
        bool(sandbox.event_top) and (not ordered_events or len(sandbox.event_top) > 3),
        "deck",
        "the Event deck's top (3 cards at most) is laid from rules revision 6 with a Cave, who reads it",
    )
    omens = {f"{s}-{n}" for s in OMEN_SYMBOLS for n in range(1, 7)}
    check(not set(sandbox.cave.omens) <= omens, "omen", "Omen tokens are bat-1 ... chasm-6")
    _unique(list(sandbox.cave.omens), "Omen token", check)
    return _Decks(
        treasure=tuple(sorted(treasure_ids - set(held))),
        treasure_bottom=sandbox.treasure_bottom,
        events=tuple(sorted(event_ids - set(sandbox.events_played) - set(sandbox.event_bottom))),
        event_top=sandbox.event_top,
        event_bottom=sandbox.event_bottom,
        sidequests=tuple(sorted(sidequest_ids - set(k.sidequests) - set(k.completed))),
        sidequest_top=sandbox.sidequest_top,
        omens=tuple(sorted(omens - set(sandbox.cave.omens))),
    )


def _check_edges(sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell], check: Check) -> None:
    """Rockslides and Bombs on edges between two tiles, one per edge, 3 Rockslides and 3 Bombs at most (with
    the Knight's). Raises ``setup.sandbox-edge``."""

    edges = []
    for x, y, side in (*sandbox.rockslides, *sandbox.bombs):
        check(
            side not in SIDES or (x, y) not in by_pos or step((x, y), side) not in by_pos,
            "edge",
            f"{x},{y},{side} is not an edge between two tiles",
        )
        edges.append(edge((x, y), side))
    check(
        len(sandbox.rockslides) > 3
        or len(sandbox.bombs) + sandbox.knight.bombs > 3
        or len(set(edges)) != len(edges),
        "edge",
        "3 Rockslides and 3 Bombs at most, one per edge",
    )


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


def _knight(sandbox: VastSandbox, revision: int, check: Check) -> KnightRole:
    """The Knight's board laid; what she placed this turn within her cubes, her moves and Encounters within
    the Movement and Perception it gives (Vast rulebook §Cubetti Eroe, §2. Muovi e Agisci); an Encounter
    open, attacks on the Dragon and the Bow's, the Enchanted Bow's and the Bomb's cubes used only on her turn
    laid as it stands (rules revision 6), an open Encounter one of those she had, each cube used placed.
    Raises ``setup.sandbox-knight``."""
    k = sandbox.knight

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
    check(
        not set(k.placed) <= targets or sum(k.placed.values()) > owned_cubes(board),
        "knight",
        f"Hero cubes are placed on {sorted(targets)}, at most the {owned_cubes(board)} she has",
    )
    check(
        k.moves > movement(board) or k.encounters > perception(board),
        "knight",
        "her moves and Encounters this turn are at most her Movement and Perception",
    )
    used = k.encounter != "none" or k.dragon_attacks or k.bomb_used or k.bow_used or k.enchanted_bow_used
    check(
        bool(used) and (sandbox.turn != "knight" or sandbox.at_start or revision < 6),
        "knight",
        "an open Encounter and what she used this turn are laid on her turn as it stands (rules revision 6)",
    )
    check(k.encounter != "none" and k.encounters < 1, "knight", "an open Encounter is one she had this turn")
    check(
        k.dragon_attacks > k.encounters,
        "knight",
        "each attack on the Dragon spends an Encounter (Vast rulebook §Attaccare il Drago)",
    )
    for cube, target in (("bomb_used", "bomb"), ("bow_used", "bow"), ("enchanted_bow_used", "enchanted-bow")):
        check(
            getattr(k, cube) and not k.placed.get(target),
            "knight",
            f"{cube}: its cube is placed on {target!r} (Vast rulebook §Cubetti Eroe)",
        )
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
        stage=ENCOUNTER_STAGES[k.encounter],
        dragon_attacks=k.dragon_attacks,
        bomb_used=k.bomb_used,
        bow_used=k.bow_used,
        enchanted_bow_used=k.enchanted_bow_used,
    )


def _dragon(
    sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell], roles: tuple[str, ...], revision: int, check: Check
) -> DragonRole:
    """The Dragon's board laid: on a tile of the map (or not yet placed), its tracks within their spaces,
    awake from 11 Wakefulness, surfaced only awake, Power cards once each, Gems once each between the map and
    its reserve, the Flame Wall on a Lit tile next to it; its turn mid-way (Vast rulebook §Il Drago, Riepilogo
    del Turno: the stage reached, the free move made, the tracks advanced and the Gems used) only on its turn
    laid as it stands, on the map (rules revision 6). Raises ``setup.sandbox-dragon``."""

    laid = sandbox.dragon or SandboxDragon()
    where = (laid.x, laid.y) if laid.x is not None and laid.y is not None else None
    check(
        (laid.x is None) != (laid.y is None) or (where is not None and where not in by_pos),
        "dragon",
        "the Dragon stands on a tile of the map, or gives no x, y",
    )
    unknown = set(laid.sloth) - set(SLOTH_ROOM)
    check(
        bool(unknown) or any(n > SLOTH_ROOM[t] for t, n in laid.sloth.items()),
        "dragon",
        f"Sloth tracks are {dict(SLOTH_ROOM)} (cubes left at most)",
    )
    role = DragonRole(sloth={**SLOTH_ROOM, **laid.sloth})
    check(
        wakefulness(role) >= AWAKE_AT and not laid.awake,
        "dragon",
        "with 11 Wakefulness or more the Dragon is awake",
    )
    check(
        laid.surfaced and (not laid.awake or where is None),
        "dragon",
        "only an awake Dragon on the map is surfaced",
    )
    check(
        not set(laid.hand) <= set(POWER_CARDS) or len(set(laid.hand)) != len(laid.hand) or len(laid.hand) > 7,
        "dragon",
        "Power cards are claw-1 ... wing-6, once each, 7 at most",
    )
    on_map = [g for c in sandbox.cells for g in c.gems]
    on_map += list(sandbox.thief.gems) if sandbox.thief is not None and "thief" in roles else []
    check(
        len(set(on_map)) != len(on_map),
        "dragon",
        "each Gem (claw, flame, wing) is laid once (on the map or the Thief's)",
    )
    wall = laid.flame_wall
    check(
        wall is not None
        and (
            where is None
            or wall not in [step(where, s) for s in SIDES]
            or wall not in by_pos
            or not by_pos[wall].lit
        ),
        "dragon",
        "the Flame Wall is on a Lit tile next to the Dragon",
    )
    mid_turn = laid.stage != "moving" or laid.moved or not laid.still or laid.advanced or laid.gems_used
    check(
        bool(mid_turn) and (sandbox.turn != "dragon" or sandbox.at_start or revision < 6 or where is None),
        "dragon",
        "its turn mid-way is laid on its turn as it stands, on the map (rules revision 6)",
    )
    check(laid.moved and laid.still, "dragon", "once it has moved it is not still (Pride)")
    check(
        len(set(laid.advanced)) != len(laid.advanced),
        "dragon",
        "a Sloth cube leaves each track once a turn (Vast rulebook §Risveglio e Risalita in Superficie)",
    )
    check(
        len(set(laid.gems_used)) != len(laid.gems_used) or not set(laid.gems_used) <= set(on_map),
        "dragon",
        "the Gems used this turn are Gems on the map, each once",
    )
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
        moved=laid.moved,
        still=laid.still,
        advanced=laid.advanced,
        gems_used=laid.gems_used,
        stage=DRAGON_STAGES[laid.stage],
    )


def _monsters_laid(sandbox: VastSandbox) -> set[str]:
    return {m for t in sandbox.goblins.tribes for m in t.monsters}


def _goblins(
    sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell], knight: Pos, revision: int, check: Check
) -> GoblinsRole:
    """The Goblins' board laid: Tribes once each, on a tile (not the Knight's) or lurking on an empty space
    next to the map; Monsters within each Tribe's room; Secrets in hand and face up of the cards this release
    plays; the discard piles of those cards, each card once. Raises ``setup.sandbox-goblins``, ``-card``,
    ``-duplicate``."""

    laid = sandbox.goblins
    names = [t.name for t in laid.tribes]
    check(len(set(names)) != len(names), "goblins", "each Tribe is laid once")
    monsters = [m for t in laid.tribes for m in t.monsters]
    check(
        not set(monsters) <= set(built_monsters(revision)) or len(set(monsters)) != len(monsters),
        "goblins",
        f"Monsters are cards this release plays, once each: {list(built_monsters(revision))}",
    )
    secrets = [*laid.hand, *laid.face_up]
    check(
        not set(secrets) <= set(built_secrets(revision))
        or len(set(secrets)) != len(secrets)
        or len(secrets) > 5,
        "goblins",
        f"Secrets (5 at most) are cards this release plays: {list(built_secrets(revision))}",
    )
    discards = (
        (laid.monster_discard, monsters, built_monsters(revision), "Monster card"),
        (laid.secrets_discard, secrets, built_secrets(revision), "Secrets card"),
    )
    for discard, elsewhere, built, what in discards:
        check(not set(discard) <= set(built), "card", f"the {what}s discarded are cards this release plays")
        _unique([*elsewhere, *discard], what, check)
    check(
        any(c not in ("trap", "goblin-ruby") for c in laid.face_up),
        "goblins",
        "only Trap and the Goblin Ruby stay face up",
    )
    check(
        laid.phase != "war" and (sandbox.turn != "goblins" or sandbox.at_start or revision < 6),
        "goblins",
        "a phase past the War card is laid on their turn as it stands (rules revision 6)",
    )
    check(
        (laid.war is None) != (laid.phase == "war") or (laid.war is not None and laid.war not in war_deck()),
        "goblins",
        f"past the war phase the War card chosen is one of {list(war_deck())}, else none",
    )
    check(
        any(t.activated for t in laid.tribes) and laid.phase != "activate",
        "goblins",
        "Tribes are activated in the activate phase",
    )
    empty = {step(p, s) for p in by_pos for s in SIDES} - set(by_pos)
    tribes = []
    for name in ("fangs", "bones", "eye"):
        t = next((t for t in laid.tribes if t.name == name), None) or SandboxTribe(name=name)
        check(
            len(t.monsters) > MONSTER_ROOM[name],
            "goblins",
            f"the {name} Tribe holds {MONSTER_ROOM[name]} Monster(s) at most",
        )
        where = (t.x, t.y) if t.x is not None and t.y is not None else None
        check(
            (t.x is None) != (t.y is None) or (t.lurking and where not in empty),
            "goblins",
            f"the {name} Tribe lurks on an empty space next to the map, or gives no x, y",
        )
        check(
            where is not None and not t.lurking and (where not in by_pos or where == knight),
            "goblins",
            f"the {name} Tribe stands on a tile of the map, not the Knight's",
        )
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


def _thief(
    sandbox: VastSandbox, by_pos: dict[Pos, SandboxCell], roles: tuple[str, ...], check: Check
) -> ThiefRole:
    """The Thief's board laid (Vast rulebook §Il Ladro): on a tile of the map or off it; his three Stat
    tokens all placed (the values his Flip Upgrades leave: 2, 3, 4 at the start) or none; Action cubes and
    tiles moved within Thievery and Movement; Upgrade spaces each once, Flip Stat Tokens left to right, one
    per token stashed at most; Gems with the Dragon in play; peeked tiles Dark tiles of the map; a Thief's
    turn laid as it stands (not ``at_start``) has him on the map with his Stat tokens placed. Raises
    ``setup.sandbox-thief``."""

    laid = sandbox.thief or SandboxThief()
    where = (laid.x, laid.y) if laid.x is not None and laid.y is not None else None
    check(
        (laid.x is None) != (laid.y is None) or (where is not None and where not in by_pos),
        "thief",
        "the Thief stands on a tile of the map, or gives no x, y (off the map)",
    )
    ups = list(laid.upgrades)
    check(
        not set(ups) <= set(UPGRADES) or len(set(ups)) != len(ups),
        "thief",
        f"Upgrade spaces are {list(UPGRADES)}, each once",
    )
    flips = [u for u in ups if u in FLIP_ORDER]
    check(
        tuple(sorted(flips, key=FLIP_ORDER.index)) != FLIP_ORDER[: len(flips)],
        "thief",
        "the Flip Stat Tokens spaces fill left to right: flip-2, flip-3, all-4",
    )
    check(
        len(ups) > laid.stashed,
        "thief",
        "each Upgrade space holds a stashed token: no more Upgrades than tokens stashed",
    )
    board = ThiefRole(upgrades=tuple(ups))
    placed = (laid.movement, laid.stealth, laid.thievery)
    assigned = placed != (0, 0, 0)
    check(
        assigned and sorted(placed) != sorted(stat_tokens(board)),
        "thief",
        f"his Stat tokens are {list(stat_tokens(board))}, one on each Stat (or none)",
    )
    stats = ThiefRole(movement=laid.movement, thievery=laid.thievery, upgrades=tuple(ups))
    check(
        laid.cubes > (min(5, thief_stat(stats, "thievery")) if assigned else 0),
        "thief",
        "Action cubes left are at most his Thievery (with its Stat Boost)",
    )
    check(
        laid.moves > (thief_stat(stats, "movement") if assigned and where is not None else 0),
        "thief",
        "tiles moved are at most his Movement, on the map",
    )
    check(
        (laid.gems and "dragon" not in roles) or len(set(laid.gems)) != len(laid.gems),
        "thief",
        "he carries Dragon Gems only with the Dragon in play, each once",
    )
    dark = {c.tile for c in by_pos.values() if not c.lit and c.tile != "entrance"}
    check(not set(laid.peeked) <= dark, "thief", "the tiles he looked at are Dark tiles of the map")
    check(
        sandbox.turn == "thief" and not sandbox.at_start and (where is None or not assigned),
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

    lit = {(c.x, c.y): (c.tile, c.rotation) for c in sandbox.cells if c.lit or c.tile == "entrance"}
    rockslides = tuple(edge((x, y), s) for x, y, s in sandbox.rockslides)
    bombs = tuple(edge((x, y), s) for x, y, s in sandbox.bombs)
    shape = Geometry(((c.x, c.y) for c in sandbox.cells), lit, rockslides, bombs)
    return tuple((x, y, side) for (x, y), side in shape.all_open_edges())
