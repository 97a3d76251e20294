"""The Thief in Vast's read models (Vast rulebook §Il Ladro; docs/vast/facts.md §6): his public track on
``/initiative``, his piece and the Vault tokens on ``/board``, and the game-log line of each of his events, as
each reader may see it (a Dark tile he looked at, a face-down card he stole at random, are never named to
those who may not see them)."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from dicelog.domain.core.events import DecisionMade, DiceRolled, Event
from dicelog.domain.core.visibility import Viewer
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.read_models import board_view, describe, initiative_view
from dicelog.domain.vast.state import KnightRole, ThiefRole, VastState
from dicelog.domain.vast.visibility import view_event, view_state
from tests.rulesets.vast.support import Play, dark, lit, table

KNIGHT = Viewer(kind="seat", seat="sir", pieces=frozenset({"knight"}))
CAVE = Viewer(kind="seat", seat="deep", pieces=frozenset({"cave"}))
THIEF = Viewer(kind="seat", seat="rogue", pieces=frozenset({"thief"}))
SPECTATOR = Viewer(kind="spectator")


def thief_table(*cells: Any, thief: ThiefRole, turn: str = "thief", **kw: Any) -> VastState:
    """Knight, Cave and Thief in play (12 Treasure tokens: docs/vast/facts.md §1)."""
    state = table(*cells, turn=turn, **kw)
    return replace(state, roles=("knight", "cave", "thief"), thief=thief, treasure_tokens=12)


def ready(**kw: Any) -> ThiefRole:
    """The Thief on the Entrance, his Stat tokens assigned (Movement 3, Stealth 4, Thievery 3)."""
    return ThiefRole(
        **{"x": 0, "y": 0, "movement": 3, "stealth": 4, "thievery": 3, "assigned": True, "cubes": 3, **kw}
    )


def log_of(start: VastState, events: list[Event], viewer: Viewer | None = None) -> list[str]:
    """The log lines of ``events`` played from ``start``, each described from the state after it, through
    ``viewer``'s eyes (as ``dicelog.service.app.audit.describe`` and the log projection do)."""
    from dicelog.domain.vast.ruleset import RULESET

    state = start
    out = []
    for event in events:
        state = RULESET.evolve(state, event)
        shown = event if viewer is None else view_event(event, viewer)
        seen = state if viewer is None else view_state(state, viewer)
        line = None if shown is None else describe(seen, shown)
        if line:
            out.append(line)
    return out


# --- the track ------------------------------------------------------------------------------------------


def test_the_track_shows_his_stats_with_what_he_carries_and_his_upgrades() -> None:
    th = ready(
        x=1,
        cubes=2,
        moves=1,
        carried=1,
        gems=("claw",),
        stashed=4,
        upgrades=("stealth+1", "flip-2", "sticky-fingers"),
        loot_drop=2,
        targeted=("knight",),
    )
    track = initiative_view(thief_table(lit(1, 0, "treasure-room-02"), thief=th)).thief
    assert track is not None
    assert (track.x, track.y) == (1, 0)
    assert (track.movement, track.stealth, track.thievery) == (3, 4 + 1 - 2, 3), (
        "Stealth: +1 boost, -1 a token"
    )
    assert track.stat_tokens == (3, 3, 4), "Flip Stat Tokens turned the 2 into a 3"
    assert (track.cubes, track.moves, track.loot_drop) == (2, 1, 2)
    assert (track.carried, track.gems, track.stashed, track.stash_goal) == (1, ("claw",), 4, 6)
    assert track.upgrades == ("stealth+1", "flip-2", "sticky-fingers")
    assert track.targeted == ("knight",) and track.assigned


def test_hex_lowers_the_stealth_the_track_shows() -> None:
    track = initiative_view(thief_table(thief=ready(carried=1, hexed=2))).thief
    assert track is not None
    assert (track.stealth, track.hexed) == (4 - 1 - 2, 2)


def test_stat_boosts_stop_at_5_and_stealth_at_0() -> None:
    th = ready(
        movement=4,
        stealth=2,
        thievery=4,
        carried=3,
        upgrades=("movement+1", "thievery+1", "all-4"),
    )
    track = initiative_view(thief_table(thief=th)).thief
    assert track is not None
    assert (track.movement, track.stealth, track.thievery) == (5, 0, 5)
    assert track.stat_tokens == (4, 4, 4)


def test_without_a_thief_there_is_no_track_and_no_board_mark() -> None:
    state = table(lit(1, 0, "treasure-room-02"))
    assert initiative_view(state).thief is None
    board = board_view(state)
    assert board.thief is None
    assert not any("thief" in c.pieces or c.vault for c in board.cells)


# --- the board ------------------------------------------------------------------------------------------


def test_the_board_shows_his_piece_and_the_vault_tokens() -> None:
    state = thief_table(
        lit(1, 0, "vault-01", vault=True),
        lit(0, 1, "vault-02"),
        thief=ready(x=1, y=0),
        knight=KnightRole(x=1, y=0),
    )
    board = board_view(state)
    cells = {(c.x, c.y): c for c in board.cells}
    assert board.thief == "map"
    assert cells[(1, 0)].pieces == ("knight", "thief")
    assert cells[(1, 0)].vault and cells[(1, 0)].kind == "vault"
    assert not cells[(0, 1)].vault, "a Vault opened leaves its tile"
    assert [p for c in board.cells for p in c.pieces if p == "thief"] == ["thief"]


def test_off_the_map_he_has_no_piece_and_the_track_says_so() -> None:
    state = thief_table(thief=ThiefRole())
    board = board_view(state)
    assert board.thief == "off"
    assert not any("thief" in c.pieces for c in board.cells)
    track = initiative_view(state).thief
    assert track is not None and (track.x, track.y) == (None, None)
    assert (track.movement, track.stealth, track.thievery, track.loot_drop) == (0, 0, 0, 3)


def test_a_dark_tile_he_looked_at_reads_on_his_board_and_the_caves_only() -> None:
    state = thief_table(dark(1, 0, "event-02"), thief=ready(x=1, y=0, peeked=("event-02",)))
    for viewer, seen in ((THIEF, "event-02"), (CAVE, "event-02"), (KNIGHT, "?"), (SPECTATOR, "?")):
        masked = view_state(state, viewer)
        cell = next(c for c in board_view(masked).cells if (c.x, c.y) == (1, 0))
        assert cell.tile == seen, viewer
        assert cell.kind == ("event" if seen != "?" else None)
        track = initiative_view(masked).thief
        assert track is not None and track.peeked == (seen,)


# --- the log --------------------------------------------------------------------------------------------


def test_a_turn_of_moving_looting_and_looking_reads_in_the_log() -> None:
    start = thief_table(
        lit(1, 0, "treasure-room-02", treasure=1),
        dark(2, 0, "event-02"),
        thief=ready(stashed=1),
    )
    play = Play(start)
    play.do(cmd.MoveThief(x=1, y=0))
    play.do(cmd.Loot())
    play.do(cmd.MoveThief(x=2, y=0))
    play.do(cmd.PeekTile())
    play.choose("keep")
    play.do(cmd.HideLoot(cubes=1))
    assert log_of(start, play.events, THIEF) == [
        "The Thief moves to 1,0",
        "The Thief spends 1 Action cube on Loot",
        "The Thief loots a Treasure token at 1,0",
        "The Thief moves to 2,0",
        "The Thief looks at the Dark tile at 2,0: an Event tile",
        "The Thief keeps the tile at 2,0 Dark",
        "The Thief spends 1 Action cube on Hide Loot",
        "The Thief hides his loot (-1): Loot Drop level 2",
    ]
    knight = log_of(start, play.events, KNIGHT)
    assert "The Thief looks at the Dark tile at 2,0" in knight
    assert not [line for line in knight if "event-02" in line or "Event tile" in line]
    assert log_of(start, play.events, SPECTATOR) == knight
    track = initiative_view(play.state).thief
    assert track is not None
    assert (track.x, track.y, track.carried, track.cubes, track.moves) == (2, 0, 1, 1, 2)
    assert track.moving_done and track.stealth == 3


def test_revealing_the_tile_he_looked_at_names_it_to_everyone() -> None:
    start = thief_table(dark(1, 0, "treasure-room-02"), thief=ready())
    play = Play(start)
    play.do(cmd.MoveThief(x=1, y=0))
    play.do(cmd.PeekTile())
    play.choose("reveal")
    play.settle()
    knight = log_of(start, play.events, KNIGHT)
    assert "The Thief looks at the Dark tile at 1,0" in knight
    assert "The Thief reveals a Treasure Room tile at 1,0" in knight


def test_stashing_at_the_entrance_and_the_upgrades() -> None:
    start = thief_table(lit(1, 0, "treasure-room-02"), thief=ready(x=1, stashed=1, carried=2, loot_drop=1))
    play = Play(start)
    play.do(cmd.MoveThief(x=0, y=0))
    play.choose("sticky-fingers")
    play.choose("stealth+1")
    assert log_of(start, play.events) == [
        "The Thief moves to 0,0",
        "The Thief stashes 2 tokens at the Entrance: 3 of 6",
        "The Thief takes the Upgrade Sticky Fingers",
        "The Thief takes the Upgrade Stealth +1",
    ]
    track = initiative_view(play.state).thief
    assert track is not None
    assert (track.stashed, track.carried, track.loot_drop) == (3, 0, 3)
    assert track.upgrades == ("sticky-fingers", "stealth+1") and track.stealth == 5


def test_pick_lock_reads_with_its_action_die() -> None:
    start = thief_table(lit(1, 0, "vault-01", vault=True), thief=ready(x=1))
    play = Play(start)
    play.do(cmd.PickLock(cubes=1))
    play.roll(5)
    assert log_of(start, play.events) == [
        "The Thief spends 1 Action cube on Pick Lock",
        "Action die (Pick Lock, 1 cube): 5",
        "Pick Lock succeeds (Action die 5)",
        "The Thief opens the Vault at 1,0",
        "The Thief takes a Treasure token from the Cave's supply",
    ]
    assert not any(c.vault for c in board_view(play.state).cells)


def test_a_pickpocket_of_a_face_down_card_never_names_it_to_the_others() -> None:
    knight = KnightRole(x=1, y=0, treasures=("elven-sword",))
    start = thief_table(lit(1, 0, "treasure-room-02"), knight=knight, thief=ready(x=1, stealth=4))
    play = Play(start)
    play.do(cmd.Pickpocket(target="knight", cubes=3))
    play.settle()
    stolen = play.of(ev.ThiefStole)
    assert stolen and stolen[0].hidden and stolen[0].card == "elven-sword"
    line = (
        "The Thief steals a face-down Treasure card from the Knight: it goes to the bottom of the Treasure "
        "deck"
    )
    for viewer in (THIEF, SPECTATOR):
        log = log_of(start, play.events, viewer)
        assert line in log, viewer
        assert not [entry for entry in log if "elven" in entry.lower()], viewer
    for viewer in (KNIGHT, CAVE):
        log = log_of(start, play.events, viewer)
        assert any("(Elven Sword)" in entry for entry in log), viewer
    assert "Pickpocket on the Knight succeeds (3 cubes: no roll)" in log_of(start, play.events)


def test_the_knights_attack_kills_him_and_gives_her_the_loot_drop() -> None:
    knight = KnightRole(x=1, y=0, placed={"perception": 2})
    start = thief_table(
        lit(1, 0, "treasure-room-02"),
        knight=knight,
        turn="knight",
        thief=ThiefRole(x=1, y=0, movement=3, stealth=2, thievery=3, carried=1, loot_drop=2),
    )
    play = Play(start)
    play.do(cmd.AttackThief())
    play.settle()
    assert log_of(start, play.events, SPECTATOR) == [
        "The Knight attacks the Thief",
        "The Thief is killed by the Knight: he drops his loot and leaves the map; the Knight gains the Loot "
        "Drop bonus (2)",
        "The Knight gains 2 Grit (the Thief's Loot Drop): 2",
    ]
    assert board_view(play.state).thief == "off"
    cell = next(c for c in board_view(play.state).cells if (c.x, c.y) == (1, 0))
    assert cell.treasure == 1 and cell.pieces == ("knight",)


def test_unnatural_evasion_reads_as_a_miss_and_a_step() -> None:
    knight = KnightRole(x=1, y=0, placed={"perception": 2})
    th = ThiefRole(x=1, y=0, movement=3, stealth=2, thievery=3, upgrades=("unnatural-evasion",))
    start = thief_table(lit(1, 0, "treasure-room-02"), knight=knight, turn="knight", thief=th)
    play = Play(start)
    play.do(cmd.AttackThief())
    play.roll(5)
    play.choose("0,0")
    assert log_of(start, play.events) == [
        "The Knight attacks the Thief",
        "Action die (Unnatural Evasion): 5",
        "Unnatural Evasion (Action die 5): the attack misses the Thief",
        "Unnatural Evasion: the Thief slips to 0,0",
    ]
    track = initiative_view(play.state).thief
    assert track is not None and track.evaded and (track.x, track.y) == (0, 0)


EVENT_LINES: list[tuple[Event, str]] = [
    (ev.ThiefEntered(), "The Thief enters the cave at the Entrance"),
    (
        ev.ThiefStatsAssigned(movement=4, stealth=3, thievery=2, cubes=2),
        "The Thief assigns his Stat tokens: Movement 4, Stealth 3, Thievery 2 (2 Action cubes)",
    ),
    (ev.ThiefMoved(x=1, y=2), "The Thief moves to 1,2"),
    (ev.ThiefMoved(x=1, y=2, climbed=1), "The Thief moves to 1,2, climbing the wall (1 Action cube)"),
    (ev.ThiefMoved(x=1, y=2, forced=True), "Unnatural Evasion: the Thief slips to 1,2"),
    (ev.TilePeeked(x=1, y=2, tile="?"), "The Thief looks at the Dark tile at 1,2"),
    (
        ev.TilePeeked(x=1, y=2, tile="ambush-02"),
        "The Thief looks at the Dark tile at 1,2: an Ambush tile",
    ),
    (
        ev.ThiefActed(action="pickpocket", cubes=2, target="fangs"),
        "The Thief spends 2 Action cubes on Pickpocket on the Fangs Tribe",
    ),
    (
        ev.ThiefActed(action="loot", cubes=2, target="claw"),
        "The Thief spends 2 Action cubes on Loot (the claw Gem)",
    ),
    (ev.ThiefActed(action="flare", cubes=1), "The Thief spends 1 Action cube on Flare"),
    (ev.ThiefLooted(source="tile", gem="wing", x=1, y=2), "The Thief loots the wing Gem at 1,2"),
    (
        ev.ThiefLooted(source="map", x=3, y=1, step="thief-supply"),
        "The Thief takes a Treasure token from 3,1 (the supply is empty)",
    ),
    (
        ev.ThiefActionRolled(action="pickpocket", success=False, face=2, target="dragon", rerolled=True),
        "Sticky Fingers re-roll: Pickpocket on the Dragon fails (Action die 2)",
    ),
    (
        ev.ThiefStole(target="dragon"),
        "The Thief picks the Dragon's pocket: a Wakefulness cube goes back to Greed",
    ),
    (
        ev.ThiefStole(target="goblins", card="?", hidden=True),
        "The Thief steals a face-down Secrets card from the Goblins: the Goblins discard it",
    ),
    (
        ev.ThiefStole(target="goblins", card="goblin-ruby"),
        "The Thief steals the Secrets card goblin-ruby from the Goblins: the Goblins discard it",
    ),
    (ev.VaultOpened(x=2, y=-1), "The Thief opens the Vault at 2,-1"),
    (ev.LootHidden(count=2), "The Thief hides his loot (-2): Loot Drop level 3"),
    (
        ev.TreasureStashed(tokens=2, gems=("claw",)),
        "The Thief stashes 2 tokens at the Entrance (the claw Gem back to the Dragon): 0 of 6",
    ),
    (ev.UpgradeTaken(upgrade="all-4"), "The Thief takes the Upgrade Flip Stat Tokens (all 4)"),
    (
        ev.UpgradeLost(upgrade="hand-crossbow"),
        "Soporific Spores: the Thief loses the Upgrade Hand Crossbow (its token still counts)",
    ),
    (ev.ThiefAttacked(by="trap", why="gem"), "The Gem was a trap: the Dragon die strikes the Thief"),
    (ev.ThiefAttacked(by="dragon", why="scratch"), "The Dragon's Scratch strikes the Thief"),
    (ev.ThiefAttacked(by="bones", why="attack"), "The Bones Tribe attacks the Thief"),
    (ev.ThiefEvaded(face=4), "Unnatural Evasion (Action die 4): the attack misses the Thief"),
    (ev.ThiefShot(), "The Knight shoots at the Thief with the Enchanted Bow"),
    (ev.ThiefHexed(count=2), "Hex: the Thief loses 2 Stealth until the Goblins' next turn: Stealth 4"),
    (
        ev.ThiefKilled(by="eye", why="attack", loot_drop=3),
        "The Thief is killed by the Eye Tribe: he drops his loot and leaves the map; the Eye Tribe gains the "
        "Loot Drop bonus (3)",
    ),
    (
        ev.ThiefKilled(by="trap", why="gem"),
        "The Thief is killed by a Gem's trap: he drops his loot and leaves the map",
    ),
    (ev.ThiefWounded(target="knight", wound=3), "The Thief backstabs the Knight: a Heavy wound"),
    (ev.ThiefWounded(target="fangs", wound=1), "The Thief backstabs the Fangs Tribe: a Light wound"),
    (ev.FlameWallBurned(piece="thief"), "The Flame Wall burns the Thief"),
    (
        ev.TileRevealed(x=1, y=2, tile="vault-03", by="thief", mode="thief"),
        "The Thief reveals a Vault tile at 1,2",
    ),
    (
        DiceRolled(reason="thief-action:pickpocket:knight:2:reroll", faces=(3,), source="server"),
        "Action die (Sticky Fingers re-roll of Pickpocket on the Knight, 2 cubes): 3",
    ),
    (
        DiceRolled(reason="thief-gem:flame", faces=(1,), source="server"),
        "Dragon die (the flame Gem the Thief took): centre",
    ),
    (
        DiceRolled(reason="thief-flare:1,2", faces=(1,), source="server"),
        "Dragon die (the Thief's Flare at 1,2): centre",
    ),
    (DecisionMade(decision="peek:1,2", option="keep", by="rogue"), "The Thief keeps the tile at 1,2 Dark"),
]


@pytest.mark.parametrize(("event", "line"), EVENT_LINES, ids=[type(e).__name__ for e, _ in EVENT_LINES])
def test_each_thief_event_has_its_line(event: Event, line: str) -> None:
    state = thief_table(thief=ready(loot_drop=3))
    assert describe(state, event) == line


def test_every_thief_event_type_has_a_line() -> None:
    covered = {type(e) for e, _ in EVENT_LINES}
    thief_events = {t for t in ev.EVENT_TYPES if t.__name__.startswith("Thief")} | {
        ev.TilePeeked,
        ev.VaultOpened,
        ev.LootHidden,
        ev.TreasureStashed,
        ev.UpgradeTaken,
        ev.UpgradeLost,
    }
    assert thief_events <= covered, sorted(t.__name__ for t in thief_events - covered)


def test_a_peek_masked_for_the_reader_reads_as_a_plain_dark_tile() -> None:
    peeked = ev.TilePeeked(x=1, y=2, tile="ambush-02")
    state = thief_table(dark(1, 2, "ambush-02"), thief=ready(x=1, y=2, peeked=("ambush-02",)))
    for viewer in (KNIGHT, SPECTATOR):
        shown = view_event(peeked, viewer)
        assert shown is not None
        line = describe(view_state(state, viewer), shown)
        assert line == "The Thief looks at the Dark tile at 1,2", viewer
    for viewer in (THIEF, CAVE):
        shown = view_event(peeked, viewer)
        assert shown is not None
        assert (
            describe(view_state(state, viewer), shown)
            == "The Thief looks at the Dark tile at 1,2: an Ambush tile"
        )
