"""The Campaign aggregate: chapters in order, carry-over, and reverting history without deleting."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import msgspec
import pytest

from dicelog.domain.core.campaign import (
    CampaignStarted,
    CarryOverChosen,
    CarryOverRecomputed,
    ChapterRecorded,
    campaign_records,
    decide_approve_revert,
    decide_begin,
    decide_choose_carry_over,
    decide_record,
    decide_revert,
    project_campaign,
)
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Seat

AT = datetime(2026, 11, 22, tzinfo=UTC)
raw = lambda value: msgspec.Raw(msgspec.json.encode(value))  # noqa: E731


class Log:
    def __init__(self, policy: str = "host") -> None:
        self.id = uuid4()
        started = CampaignStarted(
            ruleset="race",
            chapters=("one", "two", "three"),
            setup=raw({}),
            seats=(Seat(name="a"), Seat(name="b")),
            undo_policy=policy,
        )
        self.records = campaign_records(None, [started], campaign_id=self.id, seat="a", command_id="c", at=AT)
        self.campaign = project_campaign(None, self.records)

    def add(self, events):
        new = campaign_records(self.campaign, events, campaign_id=self.id, seat="a", command_id="c", at=AT)
        self.records += new
        self.campaign = project_campaign(self.campaign, new)

    def play(self, result: str, carry=None) -> str:
        game = str(uuid4())
        self.add(decide_begin(self.campaign, game))
        self.add(decide_record(self.campaign, game, result, raw(carry) if carry is not None else None))
        return game


def test_chapters_are_played_in_order_and_a_defeat_replays_the_chapter():
    log = Log()
    log.play("defeat")
    assert log.campaign.next_index == 0 and log.campaign.carry_over is None
    log.play("victory", {"cheese": 1})
    assert log.campaign.next_index == 1 and log.campaign.carry_over == {"cheese": 1}
    assert [e.chapter for e in log.campaign.entries] == ["one", "one"]


def test_a_chapter_cannot_begin_while_another_is_played():
    log = Log()
    log.add(decide_begin(log.campaign, "g1"))
    with pytest.raises(RuleBroken, match="campaign.chapter-in-progress"):
        decide_begin(log.campaign, "g2")


def test_reverting_to_before_chapter_two_keeps_chapter_one_carry_over_and_marks_the_rest():
    log = Log()
    log.play("victory", {"after": 1})
    log.play("victory", {"after": 2})
    log.add(decide_revert(log.campaign, 1, "a"))
    c = log.campaign
    assert c.next_index == 1 and c.carry_over == {"after": 1}
    assert [e.reverted for e in c.entries] == [False, True]
    assert len(log.records) == 7, "nothing deleted"


def test_all_seats_revert_waits_for_the_other_seats():
    log = Log("all-seats")
    log.play("victory", {"after": 1})
    log.add(decide_revert(log.campaign, 0, "a"))
    assert log.campaign.revert_request is not None and log.campaign.next_index == 1
    with pytest.raises(RuleBroken, match="campaign.not-asked"):
        decide_approve_revert(log.campaign, "a")
    log.add(decide_approve_revert(log.campaign, "b"))
    assert log.campaign.next_index == 0 and log.campaign.carry_over is None


def test_no_revert_when_the_policy_forbids_it():
    log = Log("none")
    log.play("victory")
    with pytest.raises(RuleBroken, match="campaign.revert-not-allowed"):
        decide_revert(log.campaign, 0, "a")


def test_the_last_chapter_won_completes_the_campaign_and_can_be_reverted():
    log = Log()
    for n in range(3):
        log.play("victory", {"after": n + 1})
    c = log.campaign
    assert c.complete and c.next_index == 3 and c.carry_over == {"after": 3}
    assert [e.result for e in c.entries] == ["victory"] * 3 and c.won == c.entries[-1]
    with pytest.raises(RuleBroken, match="campaign.complete"):
        decide_begin(c, "g4")
    log.add(decide_revert(c, 2, "a"))
    assert not log.campaign.complete and log.campaign.next_index == 2
    assert log.campaign.carry_over == {"after": 2} and log.campaign.entries[-1].reverted


def test_recording_a_result_is_idempotent():
    log = Log()
    game = str(uuid4())
    log.add(decide_begin(log.campaign, game))
    log.add(decide_record(log.campaign, game, "defeat", None))
    with pytest.raises(RuleBroken, match="campaign.not-playing"):
        decide_record(log.campaign, game, "defeat", None)


def test_a_choice_after_the_victory_recomputes_its_carry_over():
    log = Log()
    first = str(uuid4())
    log.add(decide_begin(log.campaign, first))
    with pytest.raises(RuleBroken, match="campaign.no-victory") as running:
        decide_choose_carry_over(log.campaign, "a", {"keep": {}}, None)
    assert "chapter 1's game has not ended" in running.value.detail
    log.add(decide_record(log.campaign, first, "victory", raw({"kept": "default"})))
    events = decide_choose_carry_over(log.campaign, "b", {"keep": {"x": "y"}}, {"kept": "y"})
    assert [type(e) for e in events] == [CarryOverChosen, CarryOverRecomputed]
    log.add(events)
    c = log.campaign
    assert c.carry_over == {"kept": "y"} and c.entries[0].carry_out == {"kept": "y"}
    assert c.carry_choices == {"b": {"keep": {"x": "y"}}}
    log.add(decide_begin(c, "g2"))
    assert log.campaign.entries[-1].carry_in == {"kept": "y"} and log.campaign.carry_choices == {}
    with pytest.raises(RuleBroken, match="campaign.no-victory"):
        decide_choose_carry_over(log.campaign, "a", {"keep": {}}, None)
    with pytest.raises(RuleBroken, match="campaign.not-a-seat"):
        decide_choose_carry_over(log.campaign, "nobody", {"keep": {}}, None)


def test_no_choice_after_a_defeat():
    log = Log()
    log.play("defeat")
    with pytest.raises(RuleBroken, match="campaign.no-victory") as refused:
        decide_choose_carry_over(log.campaign, "a", {"keep": {}}, None)
    assert "ended in defeat" in refused.value.detail


def test_a_log_stored_before_results_were_recorded_at_the_end_still_folds():
    """Then a choice came before the ``ChapterRecorded`` that applied it (stored with the next
    ``ChapterBegun``)."""
    log = Log()
    first = str(uuid4())
    log.add(decide_begin(log.campaign, first))
    log.add([CarryOverChosen(index=0, game_id=first, by="a", choice={"keep": {}})])
    assert log.campaign.carry_choices == {"a": {"keep": {}}}
    log.add([ChapterRecorded(index=0, game_id=first, result="victory", carry_over={"old": 1})])
    log.add(decide_begin(log.campaign, "g2"))
    c = log.campaign
    assert c.next_index == 1 and c.carry_over == {"old": 1} and c.carry_choices == {}
    assert c.entries[-1].carry_in == {"old": 1}


def test_revert_refusals_number_chapters_from_1():
    log = Log()
    log.play("victory")
    with pytest.raises(RuleBroken, match="campaign.bad-chapter") as refused:
        decide_revert(log.campaign, 1, "a")
    assert "no recorded chapter 2 to revert" in refused.value.detail
