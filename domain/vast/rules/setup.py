"""Setting up a game of Vast (each role's §Preparazione in Vast rulebook; docs/vast/facts.md §1 Tile stack
setup, §7 Setup by player count).

This release plays every docs/vast/facts.md §7 setup (``SETUPS``), each with its variant cards: 5 players,
standard rules; 4 players, the Knight, Goblins, Dragon and Cave (standard rules) or any 3 of them with the
Thief, the 3 by their 3-player row; 3 players, any 2 roles with the Thief (their 2-player rules without Past
Plunder, the Cave's Place Treasure optional, Flare for the Thief); 2 players Knight vs Thief (Goblin
Infestation line C, Flare for the Thief, 5 or 6 Crystals agreed), Goblins vs Thief (Flare for both), Dragon vs
Thief (the Ash Dragon; Flare for the Thief) and Cave vs Thief (Flare for the Thief, Place Treasure optional).
Without the Thief: 3 players Knight, Goblins and Dragon (no Cave: the Dragon takes Past Plunder), Knight,
Goblins and Cave (the Knight takes Flare and, with no Dragon, wins with 5 Crystals and the Entrance), Knight,
Dragon and Cave (Goblin Infestation line A, 2 Hunger cubes locked), Goblins, Dragon and Cave (the Ash Dragon
card); 2 players Knight vs Goblins (no Cave: the Goblins take Past Plunder), Knight vs Dragon (no Cave:
Infestation line A, 2 Hunger cubes locked, the Dragon takes Past Plunder and also wins by an Ambush killing
the Knight), Knight vs Cave (Daring and Eagle-Eyed leave the Sidequest deck, the Knight takes Flare and
Infestation line B), Goblins vs Dragon (no Cave: the Ash Dragon, the Goblins take Past Plunder), Goblins vs
Cave (the Goblins take Flare and win with 5 Crystals), Dragon vs Cave (2 Hunger cubes locked); the solo rows
(Alone in the Dark). Without a Cave player every turn ends with the Cave's work (``flow.end_of_turn``) and a
Collapse of 5 Crystal tiles loses for everyone.

``Begin`` seats the roles and draws the 4 tiles placed Dark side up round the Entrance; then the stack is
built (three piles, each with 3 Crystal tiles), the Knight draws 3 Sidequests and the Cave a hand of 3
tiles."""

from __future__ import annotations

from typing import Annotated, TypeGuard

import msgspec
from msgspec import Meta, Struct, field
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, DrawRequested, Event, GameCreated
from dicelog.domain.core.ruleset import Answer
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import ENTRANCE, SIDES, step
from dicelog.domain.vast.content import card_file, tiles
from dicelog.domain.vast.evolve import fold
from dicelog.domain.vast.rules.common import refill_hand
from dicelog.domain.vast.rules.flow import advance, start_turn, then_advance
from dicelog.domain.vast.rules.goblins import built_monsters, built_secrets, war_deck
from dicelog.domain.vast.rules.sandbox import VastSandbox, as_stored, lay, strict
from dicelog.domain.vast.state import (
    POWER_CARDS,
    SLOTH_ROOM,
    TURN_ORDER,
    CaveCell,
    CaveRole,
    DragonRole,
    GoblinsRole,
    KnightRole,
    ThiefRole,
    VastState,
)

OMEN_SYMBOLS = ("bat", "boulder", "quartz", "mushroom", "trail", "chasm")
"""docs/vast/facts.md §5 Omens: 6 symbols x 6 tokens, in their cycle (HRF's names, uncertain as official
names)."""


class SetupRow(Struct, frozen=True, kw_only=True):
    """A docs/vast/facts.md §7 setup: its roles in turn order, the variant cards in play, the Sidequests
    removed, and why the row is provisional when docs/vast/facts.md §7 leaves part of it open (empty: as the
    sources say)."""

    roles: tuple[str, ...]
    variants: tuple[str, ...]
    removed_sidequests: tuple[str, ...]
    provisional: str = ""


ANY_TWO_AND_THIEF = (
    "docs/vast/facts.md §7 'Any 2 roles + Thief': the two play their 2-player rules without "
    "Past Plunder, the Cave's Place "
    "Treasure is optional and the Thief takes Flare; which of the pair's other 2-player changes carry over "
    "is read from its 2-player row (docs/vast/rulings.md)"
)


LINE_C_PROVISIONAL = (
    "Goblin Infestation line C (docs/vast/facts.md §3 Monster cards, Ambush STR and text): "
    "the Ogre's and the Troll's Ambush "
    "texts are not applied (how the Ogre token is defeated and the Canyon terrain's rules are in no source) "
    "and the Wisp's Ambush Strength, uncertain in docs/vast/facts.md, is read as none (docs/vast/rulings.md)"
)


SETUPS: dict[str, SetupRow] = {
    "knight-vs-cave": SetupRow(
        roles=("knight", "cave"),
        variants=("flare:knight", "infestation:B"),
        removed_sidequests=("daring", "eagle-eyed"),
    ),
    "knight-goblins-cave": SetupRow(
        roles=("knight", "goblins", "cave"),
        variants=("flare:knight",),
        removed_sidequests=(),
    ),
    "knight-goblins-dragon-cave": SetupRow(
        roles=("knight", "goblins", "dragon", "cave"),
        variants=(),
        removed_sidequests=(),
    ),
    "knight-dragon-cave": SetupRow(
        roles=("knight", "dragon", "cave"),
        variants=("infestation:A", "hunger-locked:2"),
        removed_sidequests=(),
    ),
    "goblins-dragon-cave": SetupRow(
        roles=("goblins", "dragon", "cave"),
        variants=("ash-dragon",),
        removed_sidequests=(),
    ),
    "dragon-vs-cave": SetupRow(
        roles=("dragon", "cave"),
        variants=("hunger-locked:2",),
        removed_sidequests=(),
    ),
    "goblins-vs-cave": SetupRow(
        roles=("goblins", "cave"),
        variants=("flare:goblins",),
        removed_sidequests=(),
    ),
    "knight-goblins-dragon": SetupRow(
        roles=("knight", "goblins", "dragon"),
        variants=("past-plunder:dragon",),
        removed_sidequests=(),
    ),
    "knight-vs-goblins": SetupRow(
        roles=("knight", "goblins"),
        variants=("past-plunder:goblins",),
        removed_sidequests=(),
    ),
    "knight-vs-dragon": SetupRow(
        roles=("knight", "dragon"),
        variants=("infestation:A", "hunger-locked:2", "past-plunder:dragon"),
        removed_sidequests=(),
    ),
    "goblins-vs-dragon": SetupRow(
        roles=("goblins", "dragon"),
        variants=("ash-dragon", "past-plunder:goblins"),
        removed_sidequests=(),
    ),
    "knight-goblins-dragon-cave-thief": SetupRow(
        roles=("knight", "goblins", "dragon", "cave", "thief"),
        variants=(),
        removed_sidequests=(),
    ),
    "knight-goblins-dragon-thief": SetupRow(
        roles=("knight", "goblins", "dragon", "thief"),
        variants=("past-plunder:dragon",),
        removed_sidequests=(),
    ),
    "knight-goblins-cave-thief": SetupRow(
        roles=("knight", "goblins", "cave", "thief"),
        variants=("flare:knight",),
        removed_sidequests=(),
    ),
    "knight-dragon-cave-thief": SetupRow(
        roles=("knight", "dragon", "cave", "thief"),
        variants=("infestation:A", "hunger-locked:2"),
        removed_sidequests=(),
    ),
    "goblins-dragon-cave-thief": SetupRow(
        roles=("goblins", "dragon", "cave", "thief"),
        variants=("ash-dragon",),
        removed_sidequests=(),
    ),
    "knight-goblins-thief": SetupRow(
        roles=("knight", "goblins", "thief"),
        variants=("flare:thief",),
        removed_sidequests=(),
        provisional=ANY_TWO_AND_THIEF,
    ),
    "knight-dragon-thief": SetupRow(
        roles=("knight", "dragon", "thief"),
        variants=("infestation:A", "hunger-locked:2", "flare:thief"),
        removed_sidequests=(),
        provisional=ANY_TWO_AND_THIEF,
    ),
    "knight-cave-thief": SetupRow(
        roles=("knight", "cave", "thief"),
        variants=("flare:knight", "infestation:B", "flare:thief", "place-treasure-optional"),
        removed_sidequests=("daring", "eagle-eyed"),
        provisional=ANY_TWO_AND_THIEF,
    ),
    "goblins-dragon-thief": SetupRow(
        roles=("goblins", "dragon", "thief"),
        variants=("ash-dragon", "flare:thief"),
        removed_sidequests=(),
        provisional=ANY_TWO_AND_THIEF,
    ),
    "goblins-cave-thief": SetupRow(
        roles=("goblins", "cave", "thief"),
        variants=("flare:goblins", "flare:thief", "place-treasure-optional"),
        removed_sidequests=(),
        provisional=ANY_TWO_AND_THIEF,
    ),
    "dragon-cave-thief": SetupRow(
        roles=("dragon", "cave", "thief"),
        variants=("hunger-locked:2", "flare:thief", "place-treasure-optional"),
        removed_sidequests=(),
        provisional=ANY_TWO_AND_THIEF,
    ),
    "goblins-vs-thief": SetupRow(
        roles=("goblins", "thief"),
        variants=("flare:goblins", "flare:thief"),
        removed_sidequests=(),
        provisional="docs/vast/facts.md §7 says 'Flare shared by the map': "
        "read as the Goblins' Tribes and the Thief each "
        "using Flare as their variant card says (docs/vast/rulings.md)",
    ),
    "knight-vs-thief": SetupRow(
        roles=("knight", "thief"),
        variants=("infestation:C", "flare:thief", "crystals:5"),
        removed_sidequests=(),
        provisional=LINE_C_PROVISIONAL,
    ),
    "dragon-vs-thief": SetupRow(
        roles=("dragon", "thief"),
        variants=("ash-dragon", "flare:thief"),
        removed_sidequests=(),
    ),
    "cave-vs-thief": SetupRow(
        roles=("cave", "thief"),
        variants=("flare:thief", "place-treasure-optional"),
        removed_sidequests=(),
    ),
    "knight-solo-easy": SetupRow(
        roles=("knight",),
        variants=("alone-in-the-dark", "infestation:A"),
        removed_sidequests=("daring", "eagle-eyed"),
    ),
    "knight-solo-medium": SetupRow(
        roles=("knight",),
        variants=("alone-in-the-dark", "infestation:B"),
        removed_sidequests=("daring", "eagle-eyed"),
    ),
    "knight-solo-hard": SetupRow(
        roles=("knight",),
        variants=("alone-in-the-dark", "infestation:C"),
        removed_sidequests=("daring", "eagle-eyed"),
        provisional=LINE_C_PROVISIONAL,
    ),
    "goblins-solo": SetupRow(
        roles=("goblins",),
        variants=("alone-in-the-dark", "flare:goblins"),
        removed_sidequests=(),
    ),
    "dragon-solo-easy": SetupRow(
        roles=("dragon",),
        variants=("alone-in-the-dark", "hunger-locked:4"),
        removed_sidequests=(),
    ),
    "dragon-solo-medium": SetupRow(
        roles=("dragon",),
        variants=("alone-in-the-dark", "hunger-locked:2"),
        removed_sidequests=(),
    ),
    "dragon-solo-hard": SetupRow(
        roles=("dragon",),
        variants=("alone-in-the-dark",),
        removed_sidequests=(),
    ),
    "thief-solo": SetupRow(
        roles=("thief",),
        variants=("alone-in-the-dark", "flare:thief"),
        removed_sidequests=(),
    ),
}
"""The docs/vast/facts.md §7 setups this release plays, by id."""


class VastSetup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The setup document of a Vast game (``POST /games`` ``setup``): a docs/vast/facts.md §7 row by ``setup``
    id, or by its ``roles``."""

    roles: tuple[str, ...] | None = None
    """The roles in play (``knight``, ``goblins``, ``dragon``, ``cave``, ``thief``); a seat controls one or
    several of them (``Seat.controls``). Any docs/vast/facts.md §7 setup (``GET /content/vast/setups``), in
    any order; with several rows of the same roles (the solo levels), the first listed. ``null``: the roles of
    ``setup``, else Knight vs Cave."""
    setup: str | None = None
    """A row's id of ``GET /content/vast/setups`` (``knight-goblins-dragon-cave-thief``,
    ``dragon-solo-hard``); with ``roles`` too, they must be the row's. ``null``: the row of ``roles``."""
    difficulty: dict[str, Annotated[int, Meta(ge=1, le=5)]] = field(default_factory=dict)
    """A difficulty card per role (docs/vast/facts.md §7 Difficulty cards; level 1 easiest, 3 standard, 5
    hardest), by role in play: ``knight`` sets the Dragon's starting Health (3-7), ``goblins`` the Knight's
    (5-9), ``dragon`` the Wakefulness that awakens it (7, 9, 11, 13; its level 5 is not built), ``thief`` 4 or
    5 his first 1 or 2 stashed tokens without an Upgrade (Prowler, Invader; his levels 1-2 are not built); the
    Cave's cards are not built (level 3 only). A role left out plays standard."""
    crystals: Annotated[int, Meta(ge=5, le=6)] | None = None
    """Knight vs Thief only: the Crystals the Knight smashes before escaping, and the Treasures the Thief
    stashes, to win, agreed at the table (docs/vast/facts.md §7: 5 or 6). ``null``: 5."""
    sandbox: VastSandbox | None = None
    """An explicit table instead of Vast rulebook's setup (``dicelog.domain.vast.rules.sandbox``); ``null``:
    set up as Vast rulebook and docs/vast/facts.md §1 say."""


def _check_seats(created: GameCreated, roles: tuple[str, ...]) -> None:
    """From rules revision 6 every role in play is controlled by exactly one seat and no seat controls a role
    that is not in play, so that every game created can be played (docs/vast/index.md). Raises
    ``RuleBroken("setup.seat-controls")``."""
    controlled = [piece for seat in created.seats for piece in seat.controls]
    for role in roles:
        if controlled.count(role) != 1:
            raise RuleBroken(
                "setup.seat-controls",
                section="Vast rulebook §Preparazione",
                detail=f"the {role} must be controlled by exactly one seat, not {controlled.count(role)}",
            )
    strangers = sorted(set(controlled) - set(roles))
    if strangers:
        raise RuleBroken(
            "setup.seat-controls",
            section="Vast rulebook §Preparazione",
            detail=f"not a role of this game: {strangers} (its roles: {list(roles)})",
        )


def initial_state(created: GameCreated, new: bool = False) -> VastState:
    """The table before ``Begin``. Raises ``RuleBroken("setup.invalid")`` for a setup this release does not
    play (docs/vast/facts.md §7 lists the setups; the Cave alone is none), a line C row before rules revision
    5, or ``crystals`` outside Knight vs Thief. Only when ``new`` (``check_new_game``): from rules revision 6
    ``RuleBroken("setup.seat-controls")`` when a role in play is controlled by no seat or by two, or a seat
    controls a role not in play, and a sandbox table's ``RuleBroken("setup.sandbox-*")``; folded again, a
    stored game keeps its seats and its table is laid as stored (``sandbox.as_stored``)."""
    try:
        setup = msgspec.json.decode(created.setup, type=VastSetup)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise RuleBroken("setup.invalid", section="Vast rulebook §Preparazione", detail=str(e)) from None
    row_id, roles = _row(setup)
    _check_revision(row_id, created.rules_revision)
    if created.rules_revision >= 6 and new:  # added after games of revision 6 were stored: new games only
        _check_seats(created, roles)
    if setup.crystals is not None and row_id != "knight-vs-thief":
        raise RuleBroken(
            "setup.invalid",
            section="docs/vast/facts.md §7 Setup by player count",
            detail="crystals is agreed only in Knight vs Thief (5 or 6)",
        )
    if setup.sandbox is not None:
        return _sandbox_table(setup, setup.sandbox, row_id, roles, created.rules_revision, new)
    return _new_table(setup, row_id, roles, created.rules_revision)


def check_new_game(created: GameCreated) -> None:
    """The checks of a new game's setup (``dicelog.domain.core.game.create`` runs them before the game is
    stored): those of ``initial_state`` and the sandbox table's (``sandbox.strict``). Raises ``RuleBroken``
    (``setup.invalid``, ``setup.seat-controls``, ``setup.sandbox-*``). A stored game is never checked again,
    so a check added later never stops it from re-deriving."""
    initial_state(created, new=True)


def _row(setup: VastSetup) -> tuple[str, tuple[str, ...]]:
    """The setup row asked (by id, else by its roles; default Knight vs Cave) and its roles in turn order.
    Raises ``RuleBroken("setup.invalid")`` for an unknown row, roles not distinct or not played together."""
    if setup.setup is not None and setup.setup not in SETUPS:
        raise RuleBroken(
            "setup.invalid",
            section="docs/vast/facts.md §7 Setup by player count",
            detail=f"unknown setup {setup.setup!r}: this release plays {sorted(SETUPS)} "
            "(GET /content/vast/setups)",
        )
    asked = setup.roles
    if asked is None:
        asked = SETUPS[setup.setup].roles if setup.setup is not None else ("knight", "cave")
    unknown = [r for r in asked if r not in TURN_ORDER]
    if unknown or len(set(asked)) != len(asked):
        raise RuleBroken(
            "setup.invalid",
            section="docs/vast/facts.md §7 Setup by player count",
            detail=f"roles must be distinct of {list(TURN_ORDER)}",
        )
    roles = tuple(r for r in TURN_ORDER if r in asked)
    row_id = setup.setup or setup_id(roles)
    if row_id is None:
        raise RuleBroken(
            "setup.invalid",
            section="docs/vast/facts.md §7 Setup by player count",
            detail=f"this release plays the setups {[list(r.roles) for r in SETUPS.values()]} (roles in turn "
            "order; GET /content/vast/setups); the Cave cannot be played solo (docs/vast/facts.md §7 Solo)",
        )
    if SETUPS[row_id].roles != roles:
        raise RuleBroken(
            "setup.invalid",
            section="docs/vast/facts.md §7 Setup by player count",
            detail=f"setup {row_id!r} seats {list(SETUPS[row_id].roles)}, not {list(roles)}",
        )
    return row_id, roles


def _check_revision(row_id: str, revision: int) -> None:
    """The solo rows are played from rules revision 4, the rows with Goblin Infestation line C from 5.
    Raises ``RuleBroken("setup.invalid")``."""
    if row_id.endswith(("-solo", "-solo-easy", "-solo-medium", "-solo-hard")) and revision < 4:
        raise RuleBroken(
            "setup.invalid",
            section="docs/vast/facts.md §7 Solo",
            detail="the solo setups are played from rules revision 4",
        )
    if _line_c(row_id) and revision < 5:
        raise RuleBroken(
            "setup.invalid",
            section="docs/vast/facts.md §7 Variant cards",
            detail=f"{row_id!r} (Goblin Infestation line C) is played from rules revision 5",
        )


def _line_c(row_id: str) -> bool:
    """Whether the row plays Goblin Infestation line C (its Monsters are drawn from rules revision 5)."""
    return "infestation:C" in SETUPS[row_id].variants


def _sandbox_table(
    setup: VastSetup, sandbox: VastSandbox, row_id: str, roles: tuple[str, ...], revision: int, new: bool
) -> VastState:
    """The sandbox table laid (``sandbox.lay``, checked when ``new``), with the row's difficulty and the
    crystals agreed."""
    row = SETUPS[row_id]
    difficulty = _difficulty(setup, roles)
    laid = lay(sandbox, roles, row.removed_sidequests, revision, strict if new else as_stored)
    laid = replace(
        laid,
        setup_row=row_id,
        laid_turn=sandbox.turn,
        laid_at_start=sandbox.at_start,
        variants=_agreed(setup.crystals),  # empty: the row's, seated by Begin
        round=sandbox.round,
        rules_revision=revision,
        difficulty=difficulty,
    )
    if _line_c(row_id):
        laid = replace(laid, monster_deck=built_monsters(revision))
    if laid.knight is not None:
        laid = replace(laid, knight=replace(laid.knight, max_health=knight_health(difficulty)))
    if laid.dragon is not None:
        laid = replace(laid, dragon=replace(laid.dragon, awake_at=awake_at(difficulty)))
    return laid


def _new_table(setup: VastSetup, row_id: str, roles: tuple[str, ...], revision: int) -> VastState:
    """The table of a new game: the Entrance, each role's board, the decks, the tile stack and the Omen bag
    (docs/vast/facts.md §1)."""
    difficulty = _difficulty(setup, roles)
    all_tiles = tiles().values()
    cards = card_file()
    health = knight_health(difficulty)
    thief = "thief" in roles
    with_goblins = "goblins" in roles
    tokens = 12 if thief else 10  # docs/vast/facts.md §1: 10 Treasure tokens, 12 with the Thief
    return VastState(
        setup_row=row_id,
        variants=_agreed(setup.crystals),  # empty: the row's, seated by Begin
        treasure_tokens=tokens,
        thief=ThiefRole() if thief else None,
        vaults=tuple(sorted(t.id for t in all_tiles if t.kind == "vault")) if thief else (),
        roles=roles,
        rules_revision=revision,
        difficulty=difficulty,
        cells=(CaveCell(x=0, y=0, tile="entrance", lit=True),),
        knight=KnightRole(health=health, max_health=health) if "knight" in roles else None,
        cave=CaveRole(supply=tokens) if "cave" in roles else None,
        goblins=GoblinsRole() if with_goblins else None,
        dragon=starting_dragon(SETUPS[row_id], difficulty) if "dragon" in roles else None,
        war_deck=war_deck() if with_goblins else (),
        monster_deck=built_monsters(revision) if with_goblins or _line_c(row_id) else (),
        secrets_deck=built_secrets(revision) if with_goblins else (),
        stack=tuple(sorted(t.id for t in all_tiles if t.kind in ("ambush", "event", "treasure-room"))),
        crystals=tuple(sorted(t.id for t in all_tiles if t.kind == "crystal")),
        treasure_deck=tuple(sorted(c.id for c in cards.treasures)),
        event_deck=tuple(sorted(c.id for c in cards.events)),
        omen_bag=tuple(sorted(f"{s}-{n}" for s in OMEN_SYMBOLS for n in range(1, 7))),
    )


AWAKE_BY_LEVEL = {1: 7, 2: 9, 3: 11, 4: 13}
"""The Wakefulness that awakens the Dragon by its difficulty card (docs/vast/facts.md §7 Difficulty cards)."""
BUILT_LEVELS = {
    "knight": (1, 2, 3, 4, 5),
    "goblins": (1, 2, 3, 4, 5),
    "dragon": (1, 2, 3, 4),
    "cave": (3,),
    "thief": (3, 4, 5),
}
"""The difficulty levels this release plays by role (docs/vast/facts.md §7): the Dragon's hardest adds Shriek
turns and the Cave's other cards remove tiles or add Hatred tokens, which docs/vast/facts.md does not pin
down; the Thief's two easiest are not given (docs/vast/rulings.md)."""


def knight_health(levels: dict[str, int]) -> int:
    """The Knight's starting Health by the Goblins' difficulty card: 4 + level (docs/vast/facts.md §7)."""
    return 4 + levels.get("goblins", 3)


def awake_at(levels: dict[str, int]) -> int:
    """The Wakefulness that awakens the Dragon by its difficulty card (docs/vast/facts.md §7)."""
    return AWAKE_BY_LEVEL[levels.get("dragon", 3)]


def _difficulty(setup: VastSetup, roles: tuple[str, ...]) -> dict[str, int]:
    """The setup's difficulty cards; ``RuleBroken("setup.invalid")`` for a role not in play or a level not
    built."""
    for role, level in setup.difficulty.items():
        if role not in roles:
            raise RuleBroken(
                "setup.invalid",
                section="docs/vast/facts.md §7 Difficulty cards",
                detail=f"{role!r} is not in play",
            )
        if level not in BUILT_LEVELS.get(role, ()):
            raise RuleBroken(
                "setup.invalid",
                section="docs/vast/facts.md §7 Difficulty cards",
                detail=f"the {role}'s levels this release plays: {list(BUILT_LEVELS.get(role, ()))}",
            )
    return {r: setup.difficulty[r] for r in sorted(setup.difficulty)}


def starting_dragon(row: SetupRow, difficulty: dict[str, int] | None = None) -> DragonRole:
    """Vast rulebook §Il Drago, Preparazione: Health 5, the 14 Sloth cubes on their tracks, Eaten Goblins 0;
    docs/vast/facts.md §7 Dragon vs Cave: 2 Hunger cubes start on Wakefulness, locked there;
    docs/vast/facts.md §7 Difficulty cards: the Knight's sets its Health (2 + level), its own the Wakefulness
    that awakens it."""
    levels = difficulty or {}
    locked = next((int(v.partition(":")[2]) for v in row.variants if v.startswith("hunger-locked:")), 0)
    sloth = dict(SLOTH_ROOM)
    sloth["hunger"] -= locked
    return DragonRole(
        sloth=sloth,
        locked=locked,
        health=2 + levels.get("knight", 3),
        awake_at=awake_at(levels),
    )


def _agreed(crystals: int | None) -> tuple[str, ...]:
    """Knight vs Thief's variant cards with the Crystals agreed (``crystals:N``); empty when nothing was
    agreed (``begin`` seats the row's variant cards)."""
    if crystals is None:
        return ()
    return tuple(
        f"crystals:{crystals}" if v.startswith("crystals:") else v for v in SETUPS["knight-vs-thief"].variants
    )


def setup_id(roles: tuple[str, ...]) -> str | None:
    return next((name for name, row in SETUPS.items() if row.roles == roles), None)


def begin(state: VastState) -> list[Event]:
    """``Begin``: the roles are seated and the 4 tiles round the Entrance drawn (docs/vast/facts.md §1 Tile
    stack setup 3)."""
    name = state.setup_row or setup_id(state.roles) or ""
    row = SETUPS[name]
    if state.laid_turn is not None:  # a sandbox table: its turn begins as laid
        seated: list[Event] = [
            ev.RolesSeated(
                roles=state.roles,
                setup="sandbox",
                variants=state.variants or row.variants,
                sidequests=state.sidequest_deck,
            ),
            ev.VastRoundStarted(round=state.round),
        ]
        return then_advance(state, seated + _laid_turn(fold(state, seated), state.laid_turn))
    sidequests = tuple(c.id for c in card_file().sidequests if c.id not in row.removed_sidequests)
    drawer = "cave" if "cave" in state.roles else state.roles[0]  # without a Cave, the first player draws
    return [
        ev.RolesSeated(
            roles=state.roles, setup=name, variants=state.variants or row.variants, sidequests=sidequests
        ),
        DrawRequested(reason="setup-entrance", deck="tiles", cards=state.stack, count=4, piece=drawer),
    ]


def _laid_turn(state: VastState, role: str) -> list[Event]:
    """The sandbox's turn begins: laid at its start (``laid_at_start``), with every start step
    (``flow.start_turn``); else as laid, a Goblins turn from its War card (the phases before activation are
    not laid) and, from rules revision 6, a Dragon not yet on the map placed (Vast rulebook §Il Drago,
    Preparazione: its first turn places it; before, it was never placed)."""
    if state.laid_at_start:
        return start_turn(state, role, state.round)
    events: list[Event] = [
        ev.VastTurnStarted(role=role, round=state.round, as_laid=state.rules_revision >= 6)
    ]
    if role == "goblins":  # the phase laid (rules revision 6), else from the War card
        events.append(ev.GoblinsPhaseBegun(phase=(state.goblins.phase if state.goblins else "") or "war"))
    d = state.dragon
    if role == "dragon" and d is not None and d.x is None and state.rules_revision >= 6:
        k = state.knight
        x, y = (k.x, k.y) if k is not None else ENTRANCE
        events.append(ev.DragonPlaced(x=x, y=y))
    return events


SETUP_DRAWS = ("setup-entrance", "setup-sidequests", "setup-power")
"""The reasons of the setup's own draws (``after_draw``): the Entrance's tiles, the Knight's Sidequests, the
Dragon's Power cards; the Cave's hand (``cave-hand``) too while the game is set up."""


def is_setup_draw(answered: Answer, state: VastState) -> TypeGuard[CardsDrawn]:
    """Whether ``answered`` is one of the setup's own draws (``SETUP_DRAWS``): ``after_draw`` follows it."""
    return isinstance(answered, CardsDrawn) and (
        answered.reason in SETUP_DRAWS or (answered.reason == "cave-hand" and state.phase == "setup")
    )


def after_draw(state: VastState, drawn: CardsDrawn) -> list[Event]:
    """The setup's next step after each of its draws."""
    if drawn.reason == "setup-entrance":
        placed: list[Event] = []
        for side, tile_id in zip(SIDES, drawn.cards, strict=False):
            x, y = step(ENTRANCE, side)
            symbol = tiles()[tile_id].symbol or ""
            placed.append(ev.DarkTilePlaced(x=x, y=y, tile=tile_id, symbol=symbol, by="setup"))
        left = len(state.stack)
        base, extra = divmod(left, 3)
        # docs/vast/facts.md §1 Tile stack setup 4: 2 Vault tiles a pile
        vaults = (2, 2, 2) if state.vaults else ()
        piles = tuple(base + (1 if i < extra else 0) + 3 + (vaults[i] if vaults else 0) for i in range(3))
        placed.append(ev.StackBuilt(piles=piles, pile_crystals=(3, 3, 3), pile_vaults=vaults))
        after = fold(state, placed)
        if after.knight is not None and after.sidequest_deck:
            return [
                *placed,
                DrawRequested(
                    reason="setup-sidequests",
                    deck="sidequests",
                    cards=after.sidequest_deck,
                    count=3,
                    piece="knight",
                ),
            ]
        return placed + _hand_or_start(after)
    return _hand_or_start(state)


def _hand_or_start(state: VastState) -> list[Event]:
    draw = refill_hand(state)
    if draw:
        return draw
    if state.dragon is not None and not state.dragon.hand:  # Vast rulebook §Il Drago, Preparazione: draw 3
        return [DrawRequested(reason="setup-power", deck="power", cards=POWER_CARDS, count=3, piece="dragon")]
    events: list[Event] = [ev.VastRoundStarted(round=1)]
    events += start_turn(fold(state, events), state.roles[0], 1)
    after = fold(state, events)
    if isinstance(events[-1], DrawRequested):
        return events
    return events + advance(after)
