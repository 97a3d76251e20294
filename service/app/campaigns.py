"""Campaign operations on the ``Games`` application: load, decide, save atomically (docs/campaigns.md).

A campaign lives in the same event store as its games. Beginning a chapter creates the chapter's
game, with the campaign's seats and tokens, in one atomic save together with the campaign's
``ChapterBegun``; the game's ``GameCreated.campaign_id`` names the campaign.

A chapter's result is recorded when its game ends: ``chapter_ended`` (``Games.game_ended``) stores
the campaign's ``ChapterRecorded`` right after the save of the command that ended the game. These
are two saves of two aggregates, so every read or change of the campaign first repairs what a
process that died between them left undone (``current``: when the chapter being played has a game
that has ended, its result is recorded then). Recording is idempotent (``decide_record`` refuses a
game that is no longer the chapter being played), so the two paths never record a result twice.

A revert closes the reverted chapter's running game (``Games.close_game``) in the same save as the
campaign's ``CampaignReverted``.
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID, uuid4

import msgspec
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from dicelog.domain.core import registry
from dicelog.domain.core.campaign import (
    SECTION,
    Campaign,
    CampaignReverted,
    CampaignStarted,
    ChapterBegun,
    ChapterRecorded,
    campaign_records,
    chosen_victory,
    decide_approve_revert,
    decide_begin,
    decide_choose_carry_over,
    decide_record,
    decide_revert,
    project_campaign,
)
from dicelog.domain.core.campaign_verify import verify_campaign
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.errors import InvariantViolated, NotThisAggregate, RuleBroken
from dicelog.domain.core.events import GameCreated
from dicelog.domain.core.game import Game, Recorded, create
from dicelog.domain.core.verify import Check, Divergence, Verification
from dicelog.service.app.games import GameNotFound, Games, VersionConflict, hash_token
from dicelog.service.app.seat_bots import check_seats
from dicelog.service.store.persistence import decode_log
from dicelog.service.store.reads import read_range
from dicelog.service.store.records import GameSecret, TokenIndex, secret_id, token_id

R = TypeVar("R")

_encode = msgspec.json.Encoder().encode
RETRIES = 5
"""Times a change decided on a campaign is decided again when another change was stored first."""
REVERTED = "reverted"
"""``GameEnded.result`` of a chapter's game closed by a revert of its campaign."""


class CampaignNotFound(LookupError):
    """No campaign has this id (HTTP 404)."""


def load(games: Games, campaign_id: UUID) -> Campaign:
    """The campaign as stored. Raises ``CampaignNotFound`` (no such id, or a game's id)."""
    try:
        found = games.repository.get(campaign_id, projector_func=project_campaign)
    except (AggregateNotFoundError, NotThisAggregate):
        raise CampaignNotFound(str(campaign_id)) from None
    if not isinstance(found, Campaign):
        raise CampaignNotFound(str(campaign_id))
    return found


def current(games: Games, campaign_id: UUID) -> Campaign:
    """The campaign with the result of its chapter being played recorded if that chapter's game has ended
    (the repair of a ``chapter_ended`` lost between the game's save and the campaign's), and the games of
    reverted chapters closed if a revert stored before reverts closed them left one running
    (``_close_reverted``). Raises ``CampaignNotFound``; a store fault as the store raises it."""
    for _ in range(RETRIES):
        campaign = load(games, campaign_id)
        events = _result_of(games, campaign)
        if not events:
            _close_reverted(games, campaign)
            return campaign
        try:
            return _save(games, campaign, campaign_id, "server", events)
        except IntegrityError:
            continue  # another process recorded it (or changed the campaign) first: look again
    return load(games, campaign_id)


def _close_reverted(games: Games, campaign: Campaign) -> None:
    """Close the game of every reverted chapter that has no result and still runs: a revert stored before
    reverts closed the reverted chapter's game (in the same save, ``revert``) left it open to commands. A
    game another command changed meanwhile is read again."""
    for entry in campaign.entries:
        if not entry.reverted or entry.result is not None:
            continue
        for _ in range(RETRIES):
            try:
                game = games.game(UUID(entry.game_id))
            except GameNotFound:
                break
            if game.result is not None:
                break
            reason = f"campaign {campaign.id} reverted chapter {entry.index + 1} (closed on its next read)"
            records, after = games.close_game(
                game, result=REVERTED, reason=reason, command_id=str(uuid4()), at=datetime.now(UTC)
            )
            try:
                games.save(*records)
            except IntegrityError:
                continue
            games.game_closed(after)
            break


def _result_of(games: Games, campaign: Campaign) -> list[Any]:
    """The ``ChapterRecorded`` of the chapter being played when its game has ended (else nothing): on a
    victory the carry-over the ruleset computes from the game's final state, the carry-over the chapter
    received and the choices already made (in logs stored before results were recorded at the end)."""
    playing = campaign.playing
    if playing is None:
        return []
    try:
        game = games.game(UUID(playing.game_id))
    except GameNotFound:
        return []
    if game.result is None:
        return []
    carry = None
    if game.result == "victory":
        ruleset: Any = registry.get(campaign.started.ruleset)  # campaign_carry_over: optional member
        previous = msgspec.Raw(_encode(playing.carry_in)) if playing.carry_in is not None else None
        choices = tuple(msgspec.Raw(_encode(c)) for c in campaign.carry_choices.values())
        carry = (
            ruleset.campaign_carry_over(game.state, previous, choices)
            if choices
            else ruleset.campaign_carry_over(game.state, previous)
        )
    return decide_record(campaign, str(game.id), game.result, carry)


def chapter_ended(games: Games, game: Game) -> None:
    """``Games.game_ended``: ``game`` has just ended; when it plays a campaign's chapter, record its result
    in the campaign now. Never raises (the game's command is stored and answered): a failure is logged,
    and the campaign's next read records the result (``current``)."""
    campaign_id = game.created.campaign_id
    if campaign_id is None:
        return
    try:
        current(games, UUID(campaign_id))
    except Exception:
        logging.getLogger("dicelog.campaigns").exception(
            "chapter result not recorded yet (the campaign's next read records it)",
            extra={"game_id": str(game.id), "campaign_id": campaign_id},
        )


def create_campaign(games: Games, started: CampaignStarted) -> tuple[Campaign, dict[str, str]]:
    """Store a new campaign; returns it and its bearer tokens by audience: ``seat:<name>`` for each seat
    (used for every chapter), ``spectator`` and ``auditor`` (they read the campaign and every chapter's
    game; a chapter's game takes the campaign's tokens). Raises
    ``RuleBroken``: ``campaign.unsupported`` (a ruleset without a campaign mode), the seats' refusals
    (``seat_bots.check_seats``), ``campaign.unknown-chapter`` (a chapter id the content the party plays
    does not have: the ruleset's ``campaign_chapters``) and that function's refusals of the party."""
    ruleset = registry.get(started.ruleset)
    if not hasattr(ruleset, "campaign_carry_over"):
        raise RuleBroken(
            "campaign.unsupported", section=SECTION, detail=f"{started.ruleset} has no campaign mode"
        )
    check_seats(started.ruleset, started.seats)
    chapters_of = getattr(ruleset, "campaign_chapters", None)
    if chapters_of is not None:
        known = chapters_of(started.setup)
        unknown = [c for c in dict.fromkeys(started.chapters) if c not in known]
        if unknown:
            raise RuleBroken(
                "campaign.unknown-chapter",
                section=SECTION,
                detail=f"no chapter {', '.join(map(repr, unknown))} in the served content "
                f"(its chapters: {', '.join(sorted(known))})",
            )
    campaign_id = uuid4()
    at = datetime.now(UTC)
    tokens = {f"seat:{s.name}": secrets.token_urlsafe(32) for s in started.seats}
    tokens |= {"spectator": secrets.token_urlsafe(32), "auditor": secrets.token_urlsafe(32)}
    records = campaign_records(
        None, [started], campaign_id=campaign_id, seat="server", command_id=f"campaign-{campaign_id}", at=at
    )
    secret = GameSecret(
        originator_id=secret_id(campaign_id),
        timestamp=at,
        game_id=campaign_id,
        seed=None,
        token_hashes={
            a.removeprefix("seat:"): hash_token(t) for a, t in tokens.items() if a.startswith("seat:")
        },
        audience_hashes={a: hash_token(t) for a, t in tokens.items() if not a.startswith("seat:")},
    )
    index = [
        TokenIndex(originator_id=token_id(hash_token(t)), timestamp=at, owner_id=campaign_id, audience=a)
        for a, t in tokens.items()
    ]
    games.save(*records, secret, *index)
    return _projected(None, records), tokens


def _one_at_a_time(change: Callable[..., R]) -> Callable[..., R]:
    """Run a change of a campaign under ``games.lock(campaign_id)``, so that two changes of one
    campaign by this process's threads take turns instead of failing with ``VersionConflict``."""

    @functools.wraps(change)
    def locked(games: Games, campaign_id: UUID, *args: Any, **kwargs: Any) -> R:
        with games.lock(campaign_id):
            return change(games, campaign_id, *args, **kwargs)

    return locked


@_one_at_a_time
def begin_next_chapter(games: Games, campaign_id: UUID, seat: str) -> tuple[Campaign, Game]:
    """Begin the next chapter as a new game (the same chapter again after a defeat).

    Raises ``CampaignNotFound``, ``RuleBroken("campaign.*")`` (chapter still in progress,
    campaign complete, revert pending) and ``VersionConflict`` on a concurrent change.
    """
    campaign = current(games, campaign_id)
    started = campaign.started
    at = datetime.now(UTC)
    playing = campaign.playing
    if playing is not None:
        raise RuleBroken(
            "campaign.chapter-in-progress",
            section=SECTION,
            detail=f"game {playing.game_id} of chapter {playing.index + 1} ({playing.chapter}) has not ended",
        )
    new_game_id = uuid4()
    begun = decide_begin(campaign, str(new_game_id))
    setup = msgspec.json.decode(started.setup)
    chapter_begun = begun[0]
    if not isinstance(chapter_begun, ChapterBegun):
        raise InvariantViolated("campaign-begin", f"decide_begin gave {type(chapter_begun).__name__}")
    setup.update({"chapter": chapter_begun.chapter})
    if campaign.carry_over is not None:
        setup["carry_over"] = campaign.carry_over
    seed = secrets.token_bytes(32) if started.dice_mode == "server" else None
    created = GameCreated(
        ruleset=started.ruleset,
        setup=msgspec.Raw(_encode(setup)),
        seats=started.seats,
        dice_mode=started.dice_mode,
        undo_policy=started.undo_policy,
        decision_policy="default",
        host=started.host,
        dice_commitment=commitment(seed) if seed else None,
        visibility=started.visibility,
        rules_revision=registry.rules_revision(started.ruleset),
        campaign_id=str(campaign_id),
    )
    game_records = create(new_game_id, created, at=at, seed=seed, command_id=f"create-{new_game_id}")
    campaign_secret = games.secret(campaign_id)
    secret = GameSecret(
        originator_id=secret_id(new_game_id),
        timestamp=at,
        game_id=new_game_id,
        seed=seed.hex() if seed else None,
        token_hashes=dict(campaign_secret.token_hashes),
        audience_hashes=dict(campaign_secret.audience_hashes),
    )
    records = campaign_records(
        campaign, begun, campaign_id=campaign_id, seat=seat, command_id=str(uuid4()), at=at
    )
    try:
        games.save(*records, *game_records, secret)
    except IntegrityError:
        raise VersionConflict(campaign.version, load(games, campaign_id).version) from None
    # the bot seats (``Seat.bot``) play until a person's move, as in a game created with ``POST /games``
    game = games.play_bots(games.game(new_game_id))
    return current(games, campaign_id), game


@_one_at_a_time
def choose_carry_over(games: Games, campaign_id: UUID, seat: str, choice: Any) -> Campaign:
    """Record ``seat``'s choice (the ruleset's choice document, JSON data) of what its pieces carry over
    from the latest recorded victory (``CarryOverChosen``), with the victory's carry-over computed again
    with every seat's latest choice (``CarryOverRecomputed``). Raises ``CampaignNotFound``,
    ``msgspec.ValidationError`` (not the ruleset's choice document), ``RuleBroken`` (``campaign.no-choice``:
    the ruleset has nothing to choose; ``campaign.*`` of ``chosen_victory``; the ruleset's checks against the
    final state) and ``VersionConflict``."""
    campaign = current(games, campaign_id)
    ruleset: Any = registry.get(campaign.started.ruleset)  # campaign_carry_over: optional member
    choose = getattr(ruleset, "campaign_choice", None)
    if choose is None:
        raise RuleBroken(
            "campaign.no-choice", section=SECTION, detail=f"{campaign.started.ruleset} carries over no choice"
        )
    won = chosen_victory(campaign, seat)  # the campaign's own checks first
    game = games.game(UUID(won.game_id))
    pieces = frozenset(next(s.controls for s in campaign.started.seats if s.name == seat))
    checked = choose(game.state, pieces, choice)
    choices = {**{s: msgspec.Raw(_encode(c)) for s, c in campaign.carry_choices.items()}, seat: checked}
    previous = msgspec.Raw(_encode(won.carry_in)) if won.carry_in is not None else None
    carry = ruleset.campaign_carry_over(game.state, previous, tuple(choices.values()))
    events = decide_choose_carry_over(campaign, seat, msgspec.json.decode(checked), carry)
    return _append(games, campaign, campaign_id, seat, events)


@_one_at_a_time
def revert(games: Games, campaign_id: UUID, seat: str, to_index: int | None) -> Campaign:
    """Request (``to_index`` given, 0-based) or approve (``None``) a revert of the campaign's history. When
    the revert applies, the game of a reverted chapter still being played is closed (``CloseGame``, result
    ``reverted``) in the same save. Raises ``CampaignNotFound``, ``RuleBroken("campaign.*")`` and
    ``VersionConflict``."""
    for _ in range(RETRIES):
        campaign = current(games, campaign_id)
        events = (
            decide_revert(campaign, to_index, seat)
            if to_index is not None
            else decide_approve_revert(campaign, seat)
        )
        at = datetime.now(UTC)
        command_id = str(uuid4())
        closing: list[Any] = []
        closed: list[Game] = []
        for event in events:
            if isinstance(event, CampaignReverted):
                for entry in campaign.entries:
                    if entry.reverted or entry.result is not None or entry.index < event.to_index:
                        continue
                    game = games.game(UUID(entry.game_id))
                    if game.result is None:
                        reason = (
                            f"campaign {campaign_id} reverted to before chapter {event.to_index + 1}'s result"
                        )
                        records, after = games.close_game(
                            game, result=REVERTED, reason=reason, command_id=command_id, at=at
                        )
                        closing += records
                        closed.append(after)
        records = campaign_records(
            campaign, events, campaign_id=campaign_id, seat=seat, command_id=command_id, at=at
        )
        try:
            games.save(*records, *closing)
        except IntegrityError:
            continue  # the chapter's game moved (or ended) meanwhile: decide again
        for after in closed:
            games.game_closed(after)
        return _projected(campaign, records)
    raise VersionConflict(None, load(games, campaign_id).version)


def campaign_log(games: Games, campaign_id: UUID) -> list[Recorded]:
    """The campaign's own events, oldest first (campaign logs are short: a few events per chapter)."""
    return games.records(campaign_id)


def verify(games: Games, campaign_id: UUID) -> Verification:
    """Verify the campaign's log as stored (``verify_campaign``: structure, chain, each event re-derived
    from the campaign's rules), then what only the store holds: each recorded result is the result its
    game's ``GameEnded`` records, and each chapter begun has its game. Raises ``CampaignNotFound``."""
    stored = read_range(games.recorder, campaign_id)
    if not stored:
        raise CampaignNotFound(str(campaign_id))
    found = decode_log(stored)
    if isinstance(found, Divergence):
        return Verification(ok=False, events=len(stored), divergence=found)
    verification = verify_campaign(found, [s.state for s in stored])
    if not verification.ok:
        return verification
    for record in found:
        p = record.payload
        if not isinstance(p, (ChapterBegun, ChapterRecorded)):
            continue
        try:
            game = games.game(UUID(p.game_id))
        except GameNotFound:
            return _diverged(len(found), record.originator_version, "derivation", f"game {p.game_id}", "none")
        if isinstance(p, ChapterRecorded) and game.result != p.result:
            expected = f"the result of game {p.game_id}: {game.result}"
            return _diverged(len(found), record.originator_version, "derivation", expected, p.result)
    return verification


def _diverged(events: int, version: int, check: Check, expected: str, found: str) -> Verification:
    divergence = Divergence(version=version, check=check, expected=expected, found=found)
    return Verification(ok=False, events=events, divergence=divergence)


def _projected(campaign: Campaign | None, records: list[Any]) -> Campaign:
    """``project_campaign`` of records just stored: a campaign (``InvariantViolated`` if none)."""
    projected = project_campaign(campaign, records)
    if projected is None:
        raise InvariantViolated("campaign-projection", "no campaign after its own events")
    return projected


def _save(games: Games, campaign: Campaign, campaign_id: UUID, seat: str, events: list[Any]) -> Campaign:
    """Store ``events`` of one command of ``seat`` after ``campaign``; the campaign after them. Raises the
    store's ``IntegrityError`` when another change was stored first."""
    records = campaign_records(
        campaign, events, campaign_id=campaign_id, seat=seat, command_id=str(uuid4()), at=datetime.now(UTC)
    )
    games.save(*records)
    return _projected(campaign, records)


def _append(games: Games, campaign: Campaign, campaign_id: UUID, seat: str, events: list[Any]) -> Campaign:
    """``_save``, raising ``VersionConflict`` when another change was stored first."""
    try:
        return _save(games, campaign, campaign_id, seat, events)
    except IntegrityError:
        raise VersionConflict(campaign.version, load(games, campaign_id).version) from None


__all__ = [
    "CampaignNotFound",
    "GameNotFound",
    "begin_next_chapter",
    "campaign_log",
    "chapter_ended",
    "choose_carry_over",
    "create_campaign",
    "current",
    "load",
    "revert",
    "verify",
]
