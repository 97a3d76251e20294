"""Captured and released mice; the chapter's end (MM rulebook (it) §Topi Catturati; MM rulebook (it) §Liberare
un Topo; MM rulebook (it) §Plancia del Racconto; MM rulebook (it) §Capitolo 1: Obiettivi del Capitolo;
docs/mice-and-mystics/facts.md §7)."""

from dicelog.domain.core.events import DecisionMade, DecisionRequested
from dicelog.domain.mice_and_mystics.commands import EndTurn
from dicelog.domain.mice_and_mystics.events import (
    CheeseGained,
    FigurePlaced,
    HourglassAdvanced,
    InitiativeCardRemoved,
    MinionDefeated,
    MouseCaptured,
    MouseReleased,
    MouseTurnSkipped,
    MouseWounded,
    RoomTilePlaced,
    TurnEnded,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, fold_events, roll

RAT = "rat-warriors"
MICE = ("filch", "collin", "tilda", "maginos")
NO_RATS = (
    *(MinionDefeated(figure=f"rat-warriors-{n}", card=RAT) for n in (1, 2, 3)),
    InitiativeCardRemoved(card=RAT),
)


def test_captured_when_wounds_reach_lives_cheese_discarded_hourglass_on__rulebook_topi_catturati():
    state = chapter_1_table(
        MinionDefeated(figure="rat-warriors-2", card=RAT),
        MinionDefeated(figure="rat-warriors-3", card=RAT),
        MouseWounded(mouse="collin", wounds=4),
        CheeseGained(mouse="collin", count=2, reason="test"),
        track=(RAT, "collin", "filch", "tilda", "maginos"),
    )
    state = fold_events(state, proceed(state))
    _, state = roll(state, 1)
    _, state = roll(state, 2, 4)
    events, state = roll(state, 1, 4)
    assert events[:5] == [
        events[0],
        CheeseGained(mouse="collin", count=1, reason="defense"),
        MouseWounded(mouse="collin", wounds=1),
        MouseCaptured(mouse="collin", cheese_discarded=3),
        HourglassAdvanced(page=2, reason="capture"),
    ]
    assert "collin" in state.captured and state.cheese["collin"] == 0 and "collin" not in state.wounds
    assert all("collin" not in figures for figures in state.board.values())


def test_a_captured_mouse_skips_its_turn_while_minions_are_on_the_board__rulebook_liberare_un_topo():
    state = chapter_1_table(MouseCaptured(mouse="collin"))
    events, _ = act(state, EndTurn(mouse="filch"))
    assert events == [
        TurnEnded(card="filch"),
        TurnStarted(card="collin", slot=1),
        MouseTurnSkipped(mouse="collin", reason="captured while minions are on the board"),
        TurnEnded(card="collin"),
        TurnStarted(card="tilda", slot=2),
    ]


def test_a_captured_mouse_is_released_next_to_another_mouse_when_no_minion_is_left__liberare_un_topo():
    state = chapter_1_table(*NO_RATS, MouseCaptured(mouse="collin"), track=MICE)
    events, state = act(state, EndTurn(mouse="filch"))
    assert events[-1] == DecisionRequested(
        decision="release-space",
        options=("GR-6", "GR-2", "GR-5", "GR-7", "GR-10"),
        piece="collin",
        default="GR-6",
    )
    events, state = answer(state, DecisionMade(decision="release-space", option="GR-7", by="north"))
    assert events == [
        MouseReleased(mouse="collin", space="GR-7"),
        MouseTurnSkipped(mouse="collin", reason="released this turn"),
        TurnEnded(card="collin"),
        TurnStarted(card="tilda", slot=2),
    ]
    assert state.captured == () and "collin" in state.board["GR-7"]


def test_chapter_lost_when_all_mice_are_captured_at_once__rulebook_capitolo_1_obiettivi_del_capitolo():
    captured = [MouseCaptured(mouse=m) for m in MICE]
    assert RULESET.outcome(chapter_1_table(*captured[:3])) is None
    assert RULESET.outcome(chapter_1_table(*captured)) == "defeat"


def test_chapter_1_won_with_every_mouse_on_the_tree_entrance_and_the_courtyard_clear__rulebook_capitolo_1_obiettivi_del_capitolo():  # noqa: E501
    on_tree = [FigurePlaced(figure=m, card=m, space="CY-1") for m in MICE]
    courtyard = RoomTilePlaced(tile="courtyard", column=2, row=1)
    assert RULESET.outcome(chapter_1_table(*on_tree)) is None, "the courtyard is not on the table"
    assert RULESET.outcome(chapter_1_table(courtyard, *on_tree)) == "victory"
    rat_in_yard = FigurePlaced(figure="rat-warriors-9", card=RAT, space="CY-20")
    assert RULESET.outcome(chapter_1_table(courtyard, *on_tree, rat_in_yard)) is None
    assert RULESET.outcome(chapter_1_table(courtyard, *on_tree[:3])) is None


def test_chapter_1_won_with_every_mouse_not_captured_on_the_tree_entrance__rulebook_capitolo_1_obiettivi_del_capitolo():  # noqa: E501
    """MM rulebook (it) «portate tutti i Topi non Catturati sulla casella di entrata dell'albero»: a captured
    mouse does not stop the others' victory (rules revision 2); revision 1 games keep "no mouse captured"."""
    courtyard = RoomTilePlaced(tile="courtyard", column=2, row=1)
    on_tree = [FigurePlaced(figure=m, card=m, space="CY-1") for m in MICE[1:]]
    captured = MouseCaptured(mouse=MICE[0])
    assert RULESET.outcome(chapter_1_table(courtyard, captured, *on_tree)) == "victory"
    assert RULESET.outcome(chapter_1_table(courtyard, captured, *on_tree[1:])) is None  # one free mouse away
    assert RULESET.outcome(chapter_1_table(courtyard, captured, *on_tree, rules_revision=1)) is None


def test_rulebook_plancia_del_racconto_game_ended_says_why_the_chapter_ended():
    """``GameEnded.reason`` names the end (rules revision 2 on); games of revision 1 keep it empty, as
    their stored ``GameEnded`` has none."""
    from msgspec.structs import replace

    from dicelog.domain.mice_and_mystics.events import HourglassAdvanced

    lost = chapter_1_table(HourglassAdvanced(page=6, reason="test"))
    assert RULESET.outcome(lost) == "defeat"
    assert (
        RULESET.outcome_reason(lost)
        == "the hourglass reached the end marker (MM rulebook (it) §Plancia del Racconto)"
    )
    assert RULESET.outcome_reason(replace(lost, rules_revision=1)) == ""
    captured = chapter_1_table(*(MouseCaptured(mouse=m) for m in MICE))
    assert RULESET.outcome_reason(captured) == "every mouse was captured at once"
    assert RULESET.outcome_reason(chapter_1_table()) == ""
