"""The ``Campaign`` aggregate: chapters played in order, each a game, with carry-over between them.

Game-agnostic: the ruleset says what carries over (``campaign_carry_over(final_state, previous)``
returns the JSON document the next chapter's setup receives as ``carry_over``). Every change to a
campaign is an event in its own log (same envelope and hash chain as a game's), so its history
can be audited and reverted without rewriting the past (docs/event-model.md, Undo never deletes):

- ``CampaignStarted``: ruleset, chapters in order, the party's setup, seats, policies;
- ``ChapterBegun``: chapter *i* starts as game *g* with the carry-over it received;
- ``ChapterRecorded``: game *g* ended with a result, recorded when it ends (the service records it
  right after the game's last command is stored, and again on the campaign's next read if that was
  lost: docs/campaigns.md); on a victory the campaign moves on and the carry-over becomes what the
  ruleset computed (its defaults), on a defeat the same chapter is played again; once the last
  chapter is won the campaign is complete;
- ``CarryOverChosen`` + ``CarryOverRecomputed``: after a recorded victory, before the next chapter
  begins (or after the last one), a seat chooses what its pieces keep (the ruleset's choice document:
  in Mice and Mystics the one search card each mouse keeps) and the victory's carry-over is computed
  again with every seat's latest choice; what no seat chose, the ruleset's default decides. (Logs
  stored before results were recorded at the game's end hold ``CarryOverChosen`` before the
  ``ChapterRecorded`` that applied it.)
- ``CampaignRevertRequested`` / ``CampaignRevertApproved`` / ``CampaignReverted``: back to
  before chapter *i*'s result, with the consent the undo policy asks for; the reverted chapters'
  games stay in the history, marked, and the carry-over is recomputed from the chapters that
  remain.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from dicelog.domain.core.errors import NotThisAggregate, RuleBroken
from dicelog.domain.core.events import DiceMode, Event, Seat, UndoPolicy, Visibility
from dicelog.domain.core.game import GENESIS_HASH, Recorded, record_hash

SECTION = "MM rulebook (it) §Campagna (campaign mode); docs/event-model.md, Undo never deletes"


class CampaignEvent(Event, kw_only=True):
    """Base of the campaign's events (projections of games ignore them)."""


class CampaignStarted(CampaignEvent, kw_only=True):
    """A campaign begins: its ruleset, chapters in order, party setup, seats and policies.
    ``visibility`` (as ``GameCreated.visibility``) applies to the campaign and to every chapter's
    game; campaigns stored before it existed were public."""

    ruleset: str
    """Name of the ruleset of every chapter's game (``mice-and-mystics``); it must have a campaign mode."""
    chapters: tuple[str, ...]
    """The chapter ids to play, in order (``chapter-1``); the campaign is complete when the last one is
    won."""
    setup: msgspec.Raw
    """The party's setup document (JSON) of the ruleset; each chapter's game is created from it with its
    ``chapter`` set to that chapter and the campaign's current ``carry_over`` added."""
    seats: tuple[Seat, ...]
    """The players' seats, the same in every chapter's game (one token per seat serves them all)."""
    dice_mode: DiceMode = "server"
    """``server`` or ``manual`` dice for every chapter's game (as ``GameCreated.dice_mode``)."""
    undo_policy: UndoPolicy = "none"
    """The undo policy of every chapter's game; it also says who may revert the campaign: nobody under
    ``none`` or ``own-turn``, the host alone under ``host``, any seat with every other seat's approval under
    ``all-seats``."""
    host: str | None = None
    """Name of the host seat (for the ``host`` undo policy); ``None``: the first seat."""
    visibility: Visibility = "public"
    """Who may read the campaign and its chapters' games: ``public``, ``unlisted`` or ``private`` (as
    ``GameCreated.visibility``)."""


class ChapterBegun(CampaignEvent, kw_only=True):
    """Chapter ``index`` of the campaign begins as a new game, created with the carry-over the campaign
    holds."""

    index: int
    """0-based position of the chapter in ``CampaignStarted.chapters``."""
    chapter: str
    """The chapter's id (``chapter-1``)."""
    game_id: str
    """Id (UUID) of the game created to play this chapter."""
    carry_over: Any = None
    """The ruleset's carry-over document (JSON) this chapter's setup receives from the chapters won before it
    (for Mice and Mystics a ``CarryOver``); ``None`` while no chapter has been won."""


class CarryOverChosen(CampaignEvent, kw_only=True):
    """A seat's choice of what its pieces carry over, made after the chapter's game ended in a victory and
    before the next chapter begins (MM rulebook (it) §Giocare Mice and Mystics come una Campagna: «I Topi
    possono conservare solo 1 delle carte Ricerca»: the players choose). A later choice of the same seat
    replaces its earlier one; the ``CarryOverRecomputed`` stored with it applies them all (in logs stored
    before results were recorded at the game's end, the next ``ChapterRecorded`` applied them)."""

    index: int
    """0-based position of the chapter won in ``CampaignStarted.chapters``."""
    game_id: str
    """Id (UUID) of that chapter's game."""
    by: str
    """The seat choosing (for the pieces it controls)."""
    choice: Any
    """The ruleset's choice document (JSON; for Mice and Mystics a ``CarryOverChoice``: ``keep``, the search
    card each of the seat's mice keeps)."""


class ChapterRecorded(CampaignEvent, kw_only=True):
    """The game of the chapter being played has ended and its result is recorded: on a ``victory`` the
    campaign moves on to the next chapter, on any other result the same chapter is played again."""

    index: int
    """0-based position of the chapter in ``CampaignStarted.chapters``."""
    game_id: str
    """Id (UUID) of the chapter's game that ended."""
    result: str
    """The game's result (``GameEnded.result``: ``victory`` or ``defeat`` in Mice and Mystics)."""
    carry_over: Any = None
    """The carry-over (JSON) the next chapter will receive: on a victory, what the ruleset computed from the
    game's final state; otherwise the carry-over the chapter itself received, unchanged. ``None``: nothing
    carries over."""


class CarryOverRecomputed(CampaignEvent, kw_only=True):
    """The carry-over of recorded victory ``index`` computed again after a seat's ``CarryOverChosen`` (stored
    with it), from the game's final state, the carry-over the chapter received and every seat's latest
    choice: what the next chapter receives (after the last chapter: the campaign's final carry-over)."""

    index: int
    """0-based position of the chapter won in ``CampaignStarted.chapters``."""
    game_id: str
    """Id (UUID) of that chapter's game."""
    carry_over: Any = None
    """The ruleset's carry-over document (JSON; for Mice and Mystics a ``CarryOver``)."""


class CampaignRevertRequested(CampaignEvent, kw_only=True):
    """A seat asks to return the campaign to before chapter ``to_index``'s result; it applies once ``needs``
    have all approved (docs/event-model.md, Undo never deletes)."""

    to_index: int
    """0-based index of the recorded chapter to go back to: that chapter and every later one are undone and
    chapter ``to_index`` is played again."""
    by: str
    """The seat asking."""
    needs: tuple[str, ...] = ()
    """The seats whose approval is still required; empty when the revert applies at once (the host under the
    ``host`` undo policy)."""


class CampaignRevertApproved(CampaignEvent, kw_only=True):
    """One seat approves the open revert request; the last approval applies it."""

    by: str
    """The seat approving (one of the request's ``needs``)."""


class CampaignReverted(CampaignEvent, kw_only=True):
    """The revert applies: the chapters from ``to_index`` on are marked reverted (their games stay in the
    history), the campaign goes back to chapter ``to_index`` and the carry-over is recomputed from the
    victories that remain."""

    to_index: int
    """0-based index of the chapter to play next; the entries of it and of every later chapter are marked
    reverted."""
    approved_by: tuple[str, ...]
    """The seats that agreed, the requesting seat first."""


CAMPAIGN_EVENTS: tuple[type[CampaignEvent], ...] = (
    CampaignStarted,
    ChapterBegun,
    ChapterRecorded,
    CarryOverChosen,
    CarryOverRecomputed,
    CampaignRevertRequested,
    CampaignRevertApproved,
    CampaignReverted,
)
"""Every campaign event type, in the order the API's union lists them (``dicelog.service.schemas``) and
the store's topics name them (``dicelog.service.topics``: ``core/<class name>``)."""


class ChapterEntry(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One chapter played: its game, result and carry-over in and out; ``reverted`` once undone."""

    index: int
    """0-based position of the chapter in ``CampaignStarted.chapters``."""
    chapter: str
    """The chapter's id (``chapter-1``)."""
    game_id: str
    """Id (UUID) of the game that played it; a chapter played again has one entry per game."""
    carry_in: Any = None
    """The carry-over (JSON) this chapter's game received; ``None`` when no chapter had been won before it."""
    result: str | None = None
    """The game's result (``victory`` or ``defeat``); ``None`` while the chapter is being played."""
    carry_out: Any = None
    """The carry-over (JSON) recorded with the result: after a victory, what the next chapter receives; after
    a defeat, the carry-over unchanged."""
    reverted: bool = False
    """True once a campaign revert undid this chapter; it then no longer counts."""


class Campaign(Struct, frozen=True, kw_only=True):
    """The campaign at one version. ``next_index`` is the chapter to play next; ``carry_over``
    what it will receive; ``playing`` the entry of a chapter begun and not yet recorded."""

    id: Any
    """The campaign's id (UUID)."""
    version: int
    """Number of events in the campaign's log (its latest version, 1-based)."""
    started: CampaignStarted
    """The ``CampaignStarted`` event: ruleset, chapters, party setup, seats and policies."""
    entries: tuple[ChapterEntry, ...] = ()
    """Every chapter begun, in the order played, reverted ones included."""
    next_index: int = 0
    """0-based index in ``started.chapters`` of the chapter to win next; equal to the number of chapters once
    the campaign is complete."""
    carry_over: Any = None
    """The carry-over (JSON) the next chapter's game will receive: the latest victory's that is not reverted;
    ``None`` while there is none."""
    revert_request: CampaignRevertRequested | None = None
    """The open revert request, if any; while it is open no chapter begins."""
    revert_needs: tuple[str, ...] = ()
    """The seats whose approval the open revert request still needs."""
    revert_approved: tuple[str, ...] = ()
    """The seats that agreed to the open revert request so far, the requesting seat first."""
    carry_choices: dict[str, Any] = {}
    """The carry-over choices made since the latest chapter ended in a victory, by seat (each seat's latest
    ``CarryOverChosen.choice``); empty once the next chapter begins."""
    created_on: datetime
    """When the campaign started (UTC)."""
    modified_on: datetime
    """When its latest event was recorded (UTC)."""
    last: Any = None
    """The newest stored campaign event (envelope); its hash chains the next one."""

    @property
    def playing(self) -> ChapterEntry | None:
        live = [e for e in self.entries if not e.reverted]
        return live[-1] if live and live[-1].result is None else None

    @property
    def complete(self) -> bool:
        return self.next_index >= len(self.started.chapters)

    @property
    def won(self) -> ChapterEntry | None:
        """The latest chapter played, when its recorded result is a victory and no chapter began after it:
        the victory whose carry-over the seats may still choose (``CarryOverChosen``)."""
        live = [e for e in self.entries if not e.reverted]
        return live[-1] if live and live[-1].result == "victory" else None


def apply_campaign(campaign: Campaign | None, record: Any) -> Campaign:
    """Fold one stored campaign event (never fails for a stored event)."""
    p = record.payload
    if campaign is None:
        if not isinstance(p, CampaignStarted):
            raise NotThisAggregate(f"first event {type(p).__name__}, not CampaignStarted")
        return Campaign(
            id=record.originator_id,
            version=record.originator_version,
            started=p,
            created_on=record.timestamp,
            modified_on=record.timestamp,
            last=record,
        )
    c = replace(campaign, version=record.originator_version, modified_on=record.timestamp, last=record)
    if isinstance(p, CarryOverChosen):
        return replace(c, carry_choices={**c.carry_choices, p.by: p.choice})
    if isinstance(p, ChapterBegun):
        entry = ChapterEntry(index=p.index, chapter=p.chapter, game_id=p.game_id, carry_in=p.carry_over)
        return replace(c, entries=(*c.entries, entry), carry_choices={})
    if isinstance(p, ChapterRecorded):
        entries = tuple(
            replace(e, result=p.result, carry_out=p.carry_over)
            if e.game_id == p.game_id and not e.reverted
            else e
            for e in c.entries
        )
        if p.result == "victory":
            # choices already made (logs stored before results were recorded at the game's end) are applied
            # by now; they stay listed, and a later choice recomputes the carry-over with them all
            return replace(c, entries=entries, next_index=p.index + 1, carry_over=p.carry_over)
        return replace(c, entries=entries, carry_choices={})
    if isinstance(p, CarryOverRecomputed):
        entries = tuple(
            replace(e, carry_out=p.carry_over) if e.game_id == p.game_id and not e.reverted else e
            for e in c.entries
        )
        return replace(c, entries=entries, carry_over=p.carry_over)
    if isinstance(p, CampaignRevertRequested):
        return replace(c, revert_request=p, revert_needs=p.needs, revert_approved=(p.by,))
    if isinstance(p, CampaignRevertApproved):
        return replace(
            c,
            revert_needs=tuple(s for s in c.revert_needs if s != p.by),
            revert_approved=(*c.revert_approved, p.by),
        )
    if isinstance(p, CampaignReverted):
        entries = tuple(replace(e, reverted=True) if e.index >= p.to_index else e for e in c.entries)
        kept = [e for e in entries if not e.reverted and e.result == "victory"]
        carry = kept[-1].carry_out if kept else None
        return replace(
            c,
            entries=entries,
            next_index=p.to_index,
            carry_over=carry,
            revert_request=None,
            revert_needs=(),
            revert_approved=(),
            carry_choices={},
        )
    return c


def decide_begin(campaign: Campaign, game_id: str) -> list[Event]:
    """Begin the next chapter as game ``game_id``. Raises ``RuleBroken(campaign.*)``."""
    if campaign.revert_request is not None:
        raise RuleBroken("campaign.revert-pending", section=SECTION, detail="a revert request is open")
    if campaign.playing is not None:
        raise RuleBroken(
            "campaign.chapter-in-progress",
            section=SECTION,
            detail=f"chapter {campaign.playing.chapter} is still being played",
        )
    if campaign.complete:
        raise RuleBroken("campaign.complete", section=SECTION, detail="every chapter of the campaign is won")
    index = campaign.next_index
    return [
        ChapterBegun(
            index=index,
            chapter=campaign.started.chapters[index],
            game_id=game_id,
            carry_over=campaign.carry_over,
        )
    ]


def chosen_victory(campaign: Campaign, seat: str) -> ChapterEntry:
    """The recorded victory whose carry-over ``seat`` may choose now (``Campaign.won``). Raises
    ``RuleBroken``: ``campaign.not-a-seat``, ``campaign.revert-pending``, ``campaign.not-playing`` (no
    chapter played yet) and ``campaign.no-victory`` (the latest chapter's game is still running, or ended
    in a defeat: nothing carries over)."""
    if seat not in {s.name for s in campaign.started.seats}:
        raise RuleBroken(
            "campaign.not-a-seat", section=SECTION, detail=f"{seat!r} is not a seat of this campaign"
        )
    if campaign.revert_request is not None:
        raise RuleBroken("campaign.revert-pending", section=SECTION, detail="a revert request is open")
    live = [e for e in campaign.entries if not e.reverted]
    if not live:
        raise RuleBroken("campaign.not-playing", section=SECTION, detail="no chapter has been played yet")
    latest = live[-1]
    if latest.result != "victory":
        ended = "not ended" if latest.result is None else f"ended in {latest.result}"
        raise RuleBroken(
            "campaign.no-victory",
            section=SECTION,
            detail=f"chapter {latest.index + 1}'s game has {ended}: only a victory carries anything over",
        )
    return latest


def decide_choose_carry_over(campaign: Campaign, seat: str, choice: Any, carry_over: Any) -> list[Event]:
    """``seat`` chooses what its pieces carry over from the latest recorded victory (``chosen_victory``);
    ``choice`` is the ruleset's choice document, already checked by the ruleset against that game's final
    state, and ``carry_over`` the victory's carry-over the ruleset computed again with every seat's latest
    choice, this one included (JSON data, or ``msgspec.Raw``). Raises what ``chosen_victory`` raises."""
    entry = chosen_victory(campaign, seat)
    if isinstance(carry_over, msgspec.Raw):
        carry_over = msgspec.json.decode(carry_over)
    return [
        CarryOverChosen(index=entry.index, game_id=entry.game_id, by=seat, choice=choice),
        CarryOverRecomputed(index=entry.index, game_id=entry.game_id, carry_over=carry_over),
    ]


def decide_record(campaign: Campaign, game_id: str, result: str, carry_over: Any) -> list[Event]:
    """Record the result of the chapter being played: its game ``game_id`` has ended with ``result``
    (``GameEnded.result``). ``carry_over`` is the ruleset's carry-over document computed from that game's
    final state (JSON data, or ``msgspec.Raw``; used on a victory only). Raises
    ``RuleBroken("campaign.not-playing")`` when ``game_id`` is not the game of the chapter being played
    (already recorded, reverted, or another game): recording is idempotent."""
    if isinstance(carry_over, msgspec.Raw):
        carry_over = msgspec.json.decode(carry_over)
    playing = campaign.playing
    if playing is None or playing.game_id != game_id:
        raise RuleBroken(
            "campaign.not-playing", section=SECTION, detail=f"game {game_id} is not the current chapter"
        )
    return [
        ChapterRecorded(
            index=playing.index,
            game_id=game_id,
            result=result,
            carry_over=carry_over if result == "victory" else campaign.carry_over,
        )
    ]


def decide_revert(campaign: Campaign, to_index: int, seat: str) -> list[Event]:
    """Ask to return the campaign to before chapter ``to_index``'s result (0-based)."""
    started = campaign.started
    names = [s.name for s in started.seats]
    if seat not in names:
        raise RuleBroken(
            "campaign.not-a-seat", section=SECTION, detail=f"{seat!r} is not a seat of this campaign"
        )
    if started.undo_policy in ("none", "own-turn"):
        raise RuleBroken(
            "campaign.revert-not-allowed",
            section=SECTION,
            detail=f"the campaign's undo policy is {started.undo_policy!r}",
        )
    if campaign.revert_request is not None:
        raise RuleBroken(
            "campaign.revert-pending", section=SECTION, detail="a revert request is already open"
        )
    played = {e.index for e in campaign.entries if not e.reverted and e.result is not None}
    if to_index not in played:
        raise RuleBroken(
            "campaign.bad-chapter",
            section=SECTION,
            detail=f"no recorded chapter {to_index + 1} to revert (chapters are numbered from 1)",
        )
    if started.undo_policy == "host":
        host = started.host or names[0]
        if seat != host:
            raise RuleBroken(
                "campaign.host-only", section=SECTION, detail=f"only the host seat {host!r} may revert"
            )
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
        raise RuleBroken(
            "campaign.not-asked", section=SECTION, detail=f"waiting for {list(campaign.revert_needs)}"
        )
    events: list[Event] = [CampaignRevertApproved(by=seat)]
    if set(campaign.revert_needs) == {seat}:
        events.append(
            CampaignReverted(to_index=request.to_index, approved_by=(*campaign.revert_approved, seat))
        )
    return events


def campaign_records(
    campaign: Campaign | None,
    events: Sequence[Event],
    *,
    campaign_id: Any,
    seat: str,
    command_id: str,
    at: datetime,
) -> list[Any]:
    """Envelopes (``Recorded``, hash-chained) for new campaign events after ``campaign``."""
    version = campaign.version if campaign is not None else 0
    prev = record_hash(campaign.last) if campaign is not None and campaign.last is not None else GENESIS_HASH
    out = []
    for event in events:
        version += 1
        record = Recorded(
            originator_id=campaign_id,
            originator_version=version,
            timestamp=at,
            seat=seat,
            command_id=command_id,
            prev_hash=prev,
            payload=event,
        )
        out.append(record)
        prev = record_hash(record)
    return out


def project_campaign(campaign: Campaign | None, events: Any) -> Campaign | None:
    """Projector function for ``Repository.get``. Raises ``NotThisAggregate`` when the id is not a
    campaign's (a game's: its first event is no ``CampaignStarted``)."""
    if campaign is not None and not isinstance(campaign, Campaign):
        raise NotThisAggregate(f"{type(campaign).__name__} is not a campaign")
    for record in events:
        if not isinstance(record, Recorded):  # a game's snapshot
            raise NotThisAggregate(f"{type(record).__name__} is no campaign event")
        campaign = apply_campaign(campaign, record)
    return campaign
