"""The Campaign aggregate: chapters in order, carry-over, and reverting history without deleting."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import msgspec
import pytest

from dicelog.domain.core.campaign import (
    CampaignStarted,
    campaign_records,
    decide_approve_revert,
    decide_begin,
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
