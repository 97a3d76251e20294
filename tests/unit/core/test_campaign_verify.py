"""``verify_campaign``: a campaign's own log is checked like a game's: structure, hash chain, and every
event re-derived from the campaign's rules at that point (docs/campaigns.md)."""

from __future__ import annotations

from uuid import uuid4

from msgspec.structs import replace

from dicelog.domain.core.campaign import (
    CampaignReverted,
    CampaignStarted,
    CarryOverChosen,
    ChapterBegun,
    ChapterRecorded,
    campaign_records,
    decide_approve_revert,
    decide_begin,
    decide_choose_carry_over,
    decide_revert,
)
from dicelog.domain.core.campaign_verify import verify_campaign
from dicelog.domain.core.game import envelope_bytes
from dicelog.domain.core.verify import Divergence
from tests.unit.core.test_campaign import AT, Log, raw


def played() -> Log:
    log = Log("all-seats")
    log.play("defeat")
    log.play("victory", {"after": 1})
    log.add(decide_choose_carry_over(log.campaign, "b", {"keep": {}}, {"after": "chosen"}))
    log.play("victory", {"after": 2})
    log.add(decide_revert(log.campaign, 1, "a"))
    log.add(decide_approve_revert(log.campaign, "b"))
    return log


def test_a_campaign_played_chosen_and_reverted_verifies():
    log = played()
    result = verify_campaign(log.records, [envelope_bytes(r) for r in log.records])
    assert result.ok and result.events == len(log.records) == 12, result


def test_an_edited_event_breaks_the_chain():
    log = played()
    edited = list(log.records)
    edited[2] = replace(edited[2], payload=replace(edited[2].payload, result="victory"))
    result = verify_campaign(edited)
    assert not result.ok and result.divergence.check == "chain", result


def test_stored_bytes_that_differ_from_the_event_are_caught():
    log = played()
    stored = [envelope_bytes(r) for r in log.records]
    stored[2] = stored[2].replace(b'"defeat"', b'"victory"')
    result = verify_campaign(log.records, stored)
    assert not result.ok and (result.divergence.version, result.divergence.check) == (3, "chain")


def test_a_chained_event_the_rules_would_not_decide_is_a_derivation_divergence():
    """A forger who re-chains the log still fails: a second chapter begun while the first is played."""
    log = Log()
    log.add(decide_begin(log.campaign, str(uuid4())))
    log.add([ChapterBegun(index=0, chapter="one", game_id=str(uuid4()))])
    result = verify_campaign(log.records)
    assert not result.ok and result.divergence.check == "derivation", result
    assert result.divergence.version == 3 and "campaign.chapter-in-progress" in result.divergence.found


def test_a_defeat_that_changes_the_carry_over_is_caught():
    log = Log()
    log.play("victory", {"after": 1})
    game = str(uuid4())
    log.add(decide_begin(log.campaign, game))
    log.add([ChapterRecorded(index=1, game_id=game, result="defeat", carry_over={"after": "forged"})])
    result = verify_campaign(log.records)
    assert not result.ok and result.divergence.check == "derivation", result
    assert '"forged"' in result.divergence.found and '{"after":1}' in result.divergence.expected


def test_a_log_stored_before_results_were_recorded_at_the_end_verifies():
    log = Log()
    first = str(uuid4())
    log.add([ChapterBegun(index=0, chapter="one", game_id=first)])
    log.add([CarryOverChosen(index=0, game_id=first, by="a", choice={"keep": {}})])
    log.add(
        [
            ChapterRecorded(index=0, game_id=first, result="victory", carry_over={"old": 1}),
            ChapterBegun(index=1, chapter="two", game_id=str(uuid4()), carry_over={"old": 1}),
        ]
    )
    assert verify_campaign(log.records).ok


def test_a_log_that_does_not_start_with_a_campaign_is_no_campaign():
    result = verify_campaign(Log().records[1:])
    assert not result.ok and result.divergence.check == "structure"
    started = CampaignStarted(ruleset="race", chapters=("one",), setup=raw({}), seats=())
    records = campaign_records(None, [started], campaign_id=uuid4(), seat="a", command_id="c", at=AT)
    assert verify_campaign(records).ok


def test_a_missing_event_is_a_gap_in_the_versions():
    log = played()
    result = verify_campaign([*log.records[:2], *log.records[3:]])
    assert result.divergence == Divergence(version=4, check="structure", expected="version 3", found="4")


def test_a_log_cut_inside_a_decision_ends_too_early():
    """The approval of a revert is stored with the revert it makes; a log without the latter ends early."""
    log = played()
    assert isinstance(log.records[-1].payload, CampaignReverted)
    result = verify_campaign(log.records[:-1])
    assert result.divergence == Divergence(
        version=12, check="derivation", expected="CampaignReverted", found="end of log"
    )


def test_a_carry_over_chosen_before_any_chapter_is_refused_by_the_rules():
    log = Log()
    log.add([CarryOverChosen(index=0, game_id=str(uuid4()), by="a", choice={"keep": {}})])
    result = verify_campaign(log.records)
    assert result.divergence is not None
    assert (result.divergence.version, result.divergence.check) == (2, "derivation")
    assert result.divergence.expected == "an event the campaign's rules allow"
    assert result.divergence.found.startswith("campaign.not-playing: no chapter has been played yet")


def test_an_event_that_only_follows_its_decision_standing_alone_is_misplaced():
    reverted = played().records[-1].payload
    log = Log()
    log.add([reverted])
    result = verify_campaign(log.records)
    assert result.divergence == Divergence(
        version=2,
        check="derivation",
        expected="an event the campaign's rules allow",
        found="campaign.misplaced-event: CampaignReverted only follows the event of the decision that "
        "makes it (docs/campaigns.md)",
    )
