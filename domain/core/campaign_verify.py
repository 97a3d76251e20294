"""Verify a campaign's own log (docs/campaigns.md), as ``dicelog.domain.core.verify`` does a game's.

``verify_campaign`` checks, in one pass over the stored events of one campaign:

1. the structure: ``CampaignStarted`` first, versions 1, 2, 3... without a gap;
2. the hash chain: each event's ``prev_hash`` is the chain hash of its predecessor as stored (chain
   format 1: over the whole stored envelope), and, when the stored bytes are given, each is the canonical
   encoding of its event;
3. re-derivation: every event is one the campaign's rules decide at that point, from the campaign folded so
   far: a chapter begins only when none is being played and the campaign is not complete, a result is
   recorded only for the game of the chapter being played (after a defeat with the carry-over unchanged), a
   choice only after a victory (or, in logs stored before results were recorded at the game's end, while
   its game awaited its result), a revert only as the undo policy allows, with the approvals it needs.

What carries over after a victory is the ruleset's, computed from the chapter game's final state: a
campaign's log alone cannot re-derive it, nor the result of each chapter's game. ``POST
/campaigns/{id}/verify`` checks those against the stored games too (``dicelog.service.app.campaigns``).
Pure: the caller reads the events (from the store or an export).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from dicelog.domain.core.campaign import (
    Campaign,
    CampaignRevertApproved,
    CampaignRevertRequested,
    CampaignStarted,
    CarryOverChosen,
    CarryOverRecomputed,
    ChapterBegun,
    ChapterRecorded,
    apply_campaign,
    decide_approve_revert,
    decide_begin,
    decide_choose_carry_over,
    decide_record,
    decide_revert,
)
from dicelog.domain.core.errors import DomainError
from dicelog.domain.core.events import Event
from dicelog.domain.core.game import GENESIS_HASH, Recorded, chain_hash, envelope_bytes
from dicelog.domain.core.verify import Check, Divergence, Verification

_encode = msgspec.json.Encoder().encode


def verify_campaign(records: Sequence[Recorded], stored: Sequence[bytes] | None = None) -> Verification:
    """Verify one campaign's events, in version order; ``stored``: their envelope bytes as read from the
    store or an export (same order), so an edit that decodes identically is still caught. The answer names
    the first divergence (version, what was expected, what was found) or how many events were verified."""

    def fail(version: int, check: Check, expected: str, found: str) -> Verification:
        divergence = Divergence(version=version, check=check, expected=expected, found=found)
        return Verification(ok=False, events=len(records), divergence=divergence)

    if not records or not isinstance(records[0].payload, CampaignStarted):
        first = type(records[0].payload).__name__ if records else "no events"
        return fail(1, "structure", "CampaignStarted at version 1", first)
    prev = GENESIS_HASH
    for i, record in enumerate(records):
        raw = envelope_bytes(record)
        version = record.originator_version
        if stored is not None and stored[i] != raw:
            return fail(version, "chain", "canonical encoding", "stored bytes differ")
        if version != i + 1:
            return fail(version, "structure", f"version {i + 1}", str(version))
        if record.prev_hash != prev:
            return fail(version, "chain", prev, record.prev_hash)
        prev = chain_hash(record.originator_id, version, raw)

    campaign = apply_campaign(None, records[0])
    i = 1
    while i < len(records):
        record = records[i]
        following = records[i + 1].payload if i + 1 < len(records) else None
        try:
            expected = _decided(campaign, record, following)
        except DomainError as e:
            return fail(
                record.originator_version, "derivation", "an event the campaign's rules allow", str(e)
            )
        for j, event in enumerate(expected):
            if i + j >= len(records):
                return fail(i + j + 1, "derivation", type(event).__name__, "end of log")
            stored_event = records[i + j]
            if (
                _encode(stored_event.payload) != _encode(event)
                or stored_event.command_id != record.command_id
            ):
                v = stored_event.originator_version
                return fail(v, "derivation", _show(event), _show(stored_event.payload))
            campaign = apply_campaign(campaign, stored_event)
        i += len(expected)
    return Verification(ok=True, events=len(records))


def _decided(campaign: Campaign, record: Recorded, following: object) -> list[Event]:
    """The events the campaign's rules decide for the command whose first stored event is ``record``
    (``following``: the payload stored after it). Raises ``DomainError`` when the rules refuse it, or when
    an event stands where only a decision's later event may."""
    p = record.payload
    if isinstance(p, ChapterBegun):
        return decide_begin(campaign, p.game_id)
    if isinstance(p, ChapterRecorded):
        return decide_record(campaign, p.game_id, p.result, p.carry_over)
    if isinstance(p, CarryOverChosen):
        if isinstance(following, CarryOverRecomputed):
            return decide_choose_carry_over(campaign, p.by, p.choice, following.carry_over)
        playing = campaign.playing  # a log stored before results were recorded at the game's end
        if playing is None or playing.game_id != p.game_id or p.by not in _seats(campaign):
            return decide_choose_carry_over(campaign, p.by, p.choice, None)  # raises: nothing to choose
        return [p]
    if isinstance(p, CampaignRevertRequested):
        return decide_revert(campaign, p.to_index, p.by)
    if isinstance(p, CampaignRevertApproved):
        return decide_approve_revert(campaign, p.by)
    raise _Misplaced(type(p).__name__)


def _seats(campaign: Campaign) -> set[str]:
    return {s.name for s in campaign.started.seats}


class _Misplaced(DomainError):
    """An event that only follows another of the same decision stands on its own."""

    def __init__(self, name: str) -> None:
        super().__init__(
            "campaign.misplaced-event",
            section="docs/campaigns.md",
            detail=f"{name} only follows the event of the decision that makes it",
        )


def _show(event: object) -> str:
    return _encode(event).decode()
