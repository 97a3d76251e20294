"""The ``Campaign`` aggregate: chapters played in order, each a game, with carry-over between them.

Game-agnostic: the ruleset says what carries over (``campaign_carry_over(final_state, previous)``
returns the JSON document the next chapter's setup receives as ``carry_over``). Every change to a
campaign is an event in its own log (same envelope and hash chain as a game's), so its history
can be audited and reverted without rewriting the past (DESIGN.md, Undo never deletes):

- ``CampaignStarted``: ruleset, chapters in order, the party's setup, seats, policies;
- ``ChapterBegun``: chapter *i* starts as game *g* with the carry-over it received;
- ``ChapterRecorded``: game *g* ended with a result; on a victory the campaign moves on and the
  carry-over becomes what the ruleset computed; on a defeat the same chapter is played again;
- ``CampaignRevertRequested`` / ``CampaignRevertApproved`` / ``CampaignReverted``: back to
  before chapter *i*'s result, with the consent the undo policy asks for; the reverted chapters'
  games stay in the history, marked, and the carry-over is recomputed from the chapters that
  remain.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from domain.core.errors import RuleBroken
from domain.core.events import DiceMode, Event, Seat, UndoPolicy, Visibility

SECTION = "001 §Campagna (campaign mode); DESIGN.md, Undo never deletes"


class CampaignEvent(Event, kw_only=True):
    """Base of the campaign's events (projections of games ignore them)."""


class CampaignStarted(CampaignEvent, kw_only=True):
    """A campaign begins: its ruleset, chapters in order, party setup, seats and policies.
    ``visibility`` (as ``GameCreated.visibility``) applies to the campaign and to every chapter's
    game; campaigns stored before it existed were public."""

    ruleset: str
    chapters: tuple[str, ...]
    setup: msgspec.Raw
    seats: tuple[Seat, ...]
    dice_mode: DiceMode = "server"
    undo_policy: UndoPolicy = "none"
    host: str | None = None
    visibility: Visibility = "public"


class ChapterBegun(CampaignEvent, kw_only=True):
    index: int
    chapter: str
    game_id: str
    carry_over: Any = None


class ChapterRecorded(CampaignEvent, kw_only=True):
    index: int
    game_id: str
    result: str
    carry_over: Any = None


class CampaignRevertRequested(CampaignEvent, kw_only=True):
    to_index: int
    by: str
    needs: tuple[str, ...] = ()


class CampaignRevertApproved(CampaignEvent, kw_only=True):
    by: str


class CampaignReverted(CampaignEvent, kw_only=True):
    to_index: int
    approved_by: tuple[str, ...]


class ChapterEntry(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One chapter played: its game, result and carry-over in and out; ``reverted`` once undone."""

    index: int
    chapter: str
    game_id: str
    carry_in: Any = None
    result: str | None = None
    carry_out: Any = None
    reverted: bool = False


class Campaign(Struct, frozen=True, kw_only=True):
    """The campaign at one version. ``next_index`` is the chapter to play next; ``carry_over``
    what it will receive; ``playing`` the entry of a chapter begun and not yet recorded."""

    id: Any
    version: int
    started: CampaignStarted
    entries: tuple[ChapterEntry, ...] = ()
    next_index: int = 0
    carry_over: Any = None
    revert_request: CampaignRevertRequested | None = None
    revert_needs: tuple[str, ...] = ()
    revert_approved: tuple[str, ...] = ()
    created_on: datetime
    modified_on: datetime
    last: Any = None

    @property
    def playing(self) -> ChapterEntry | None:
        live = [e for e in self.entries if not e.reverted]
        return live[-1] if live and live[-1].result is None else None

    @property
    def complete(self) -> bool:
        return self.next_index >= len(self.started.chapters)


def apply_campaign(campaign: Campaign | None, record: Any) -> Campaign:
    """Fold one stored campaign event (never fails for a stored event)."""
    p = record.payload
    if campaign is None:
        assert isinstance(p, CampaignStarted)
        return Campaign(id=record.originator_id, version=record.originator_version, started=p,
                        created_on=record.timestamp, modified_on=record.timestamp, last=record)
    c = replace(campaign, version=record.originator_version, modified_on=record.timestamp, last=record)
    if isinstance(p, ChapterBegun):
        entry = ChapterEntry(index=p.index, chapter=p.chapter, game_id=p.game_id, carry_in=p.carry_over)
        return replace(c, entries=(*c.entries, entry))
    if isinstance(p, ChapterRecorded):
        entries = tuple(
            replace(e, result=p.result, carry_out=p.carry_over) if e.game_id == p.game_id and not e.reverted else e
            for e in c.entries
        )
        if p.result == "victory":
            return replace(c, entries=entries, next_index=p.index + 1, carry_over=p.carry_over)
        return replace(c, entries=entries)
    if isinstance(p, CampaignRevertRequested):
        return replace(c, revert_request=p, revert_needs=p.needs, revert_approved=(p.by,))
    if isinstance(p, CampaignRevertApproved):
        return replace(c, revert_needs=tuple(s for s in c.revert_needs if s != p.by),
                       revert_approved=(*c.revert_approved, p.by))
    if isinstance(p, CampaignReverted):
        entries = tuple(replace(e, reverted=True) if e.index >= p.to_index else e for e in c.entries)
        kept = [e for e in entries if not e.reverted and e.result == "victory"]
        carry = kept[-1].carry_out if kept else None
        return replace(c, entries=entries, next_index=p.to_index, carry_over=carry, revert_request=None,
                       revert_needs=(), revert_approved=())
    return c


def decide_begin(campaign: Campaign, game_id: str) -> list[Event]:
    """Begin the next chapter as game ``game_id``. Raises ``RuleBroken(campaign.*)``."""
    if campaign.revert_request is not None:
        raise RuleBroken("campaign.revert-pending", section=SECTION, detail="a revert request is open")
    if campaign.playing is not None:
        raise RuleBroken("campaign.chapter-in-progress", section=SECTION,
                         detail=f"chapter {campaign.playing.chapter} is still being played")
    if campaign.complete:
        raise RuleBroken("campaign.complete", section=SECTION, detail="every chapter of the campaign is won")
    index = campaign.next_index
    return [ChapterBegun(index=index, chapter=campaign.started.chapters[index], game_id=game_id,
                         carry_over=campaign.carry_over)]


def decide_record(campaign: Campaign, game_id: str, result: str, carry_over: Any) -> list[Event]:
    """Record the result of the chapter being played (its game has ended).

    ``carry_over`` is the ruleset's carry-over document (JSON data, or ``msgspec.Raw``)."""
    if isinstance(carry_over, msgspec.Raw):
        carry_over = msgspec.json.decode(carry_over)
    playing = campaign.playing
    if playing is None or playing.game_id != game_id:
        raise RuleBroken("campaign.not-playing", section=SECTION, detail=f"game {game_id} is not the current chapter")
    return [ChapterRecorded(index=playing.index, game_id=game_id, result=result,
                            carry_over=carry_over if result == "victory" else campaign.carry_over)]


def decide_revert(campaign: Campaign, to_index: int, seat: str) -> list[Event]:
    """Ask to return the campaign to before chapter ``to_index``'s result (0-based)."""
    started = campaign.started
    names = [s.name for s in started.seats]
    if seat not in names:
        raise RuleBroken("campaign.not-a-seat", section=SECTION, detail=f"{seat!r} is not a seat of this campaign")
    if started.undo_policy in ("none", "own-turn"):
        raise RuleBroken("campaign.revert-not-allowed", section=SECTION,
                         detail=f"the campaign's undo policy is {started.undo_policy!r}")
    if campaign.revert_request is not None:
        raise RuleBroken("campaign.revert-pending", section=SECTION, detail="a revert request is already open")
    played = {e.index for e in campaign.entries if not e.reverted and e.result is not None}
    if to_index not in played:
        raise RuleBroken("campaign.bad-chapter", section=SECTION, detail=f"no recorded chapter {to_index} to revert")
    if started.undo_policy == "host":
        host = started.host or names[0]
        if seat != host:
            raise RuleBroken("campaign.host-only", section=SECTION, detail=f"only the host seat {host!r} may revert")
        needs: tuple[str, ...] = ()
    else:
        needs = tuple(n for n in names if n != seat)
    events: list[Event] = [CampaignRevertRequested(to_index=to_index, by=seat, needs=needs)]
    if not needs:
        events.append(CampaignReverted(to_index=to_index, approved_by=(seat,)))
    return events


def decide_approve_revert(campaign: Campaign, seat: str) -> list[Event]:
    """Approve the open revert request; the last approval applies it."""
    request = campaign.revert_request
    if request is None:
        raise RuleBroken("campaign.nothing-pending", section=SECTION, detail="no revert request is open")
    if seat not in campaign.revert_needs:
        raise RuleBroken("campaign.not-asked", section=SECTION, detail=f"waiting for {list(campaign.revert_needs)}")
    events: list[Event] = [CampaignRevertApproved(by=seat)]
    if set(campaign.revert_needs) == {seat}:
        events.append(CampaignReverted(to_index=request.to_index, approved_by=(*campaign.revert_approved, seat)))
    return events


def campaign_records(
    campaign: Campaign | None, events: list[Event], *, campaign_id: Any, seat: str, command_id: str, at: datetime
) -> list[Any]:
    """Envelopes (``Recorded``, hash-chained) for new campaign events after ``campaign``."""
    from domain.core.game import GENESIS_HASH, Recorded, record_hash

    version = campaign.version if campaign is not None else 0
    prev = record_hash(campaign.last) if campaign is not None and campaign.last is not None else GENESIS_HASH
    out = []
    for event in events:
        version += 1
        record = Recorded(originator_id=campaign_id, originator_version=version, timestamp=at, seat=seat,
                          command_id=command_id, prev_hash=prev, payload=event)
        out.append(record)
        prev = record_hash(record)
    return out


def project_campaign(campaign: Campaign | None, events: Any) -> Campaign | None:
    """Projector function for ``Repository.get``."""
    for record in events:
        campaign = apply_campaign(campaign, record)
    return campaign
