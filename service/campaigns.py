"""Campaign operations on the ``Games`` application: load, decide, save atomically.

A campaign lives in the same event store as its games. Starting a chapter records the previous
chapter's result (its game must have ended) and creates the chapter's game, with the campaign's
seats and tokens, in one atomic save together with the campaign's ``ChapterBegun``.
"""

from __future__ import annotations

import functools
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
    CampaignStarted,
    campaign_records,
    decide_approve_revert,
    decide_begin,
    decide_choose_carry_over,
    decide_record,
    decide_revert,
    project_campaign,
)
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import GameCreated
from dicelog.domain.core.game import Game, create
from dicelog.service.application import GameNotFound, Games, VersionConflict, hash_token
from dicelog.service.records import GameSecret, TokenIndex, secret_id, token_id
from dicelog.service.seat_bots import check_seats

R = TypeVar("R")

_encode = msgspec.json.Encoder().encode


class CampaignNotFound(LookupError):
    """No campaign has this id (HTTP 404)."""


def load(games: Games, campaign_id: UUID) -> Campaign:
    try:
        found = games.repository.get(campaign_id, projector_func=project_campaign)
    except AggregateNotFoundError:
        raise CampaignNotFound(str(campaign_id)) from None
    if not isinstance(found, Campaign):
        raise CampaignNotFound(str(campaign_id))
    return found


def create_campaign(games: Games, started: CampaignStarted) -> tuple[Campaign, dict[str, str]]:
    """Store a new campaign; returns it and one bearer token per seat (used for every chapter)."""
    ruleset = registry.get(started.ruleset)
    if not hasattr(ruleset, "campaign_carry_over"):
        raise RuleBroken(
            "campaign.unsupported", section=SECTION, detail=f"{started.ruleset} has no campaign mode"
        )
    check_seats(started.ruleset, started.seats)
    campaign_id = uuid4()
    at = datetime.now(UTC)
    tokens = {s.name: secrets.token_urlsafe(32) for s in started.seats}
    records = campaign_records(
        None, [started], campaign_id=campaign_id, seat="server", command_id=f"campaign-{campaign_id}", at=at
    )
    secret = GameSecret(
        originator_id=secret_id(campaign_id),
        timestamp=at,
        game_id=campaign_id,
        seed=None,
        token_hashes={seat: hash_token(t) for seat, t in tokens.items()},
    )
    index = [
        TokenIndex(
            originator_id=token_id(hash_token(t)), timestamp=at, owner_id=campaign_id, audience=f"seat:{s}"
        )
        for s, t in tokens.items()
    ]
    games.save(*records, secret, *index)
    return project_campaign(None, records), tokens  # type: ignore[return-value]


def chapter_game(games: Games, campaign: Campaign) -> Game | None:
    playing = campaign.playing
    return games.game(UUID(playing.game_id)) if playing is not None else None


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
    """Record the finished chapter (if one is being played) and begin the next as a new game.

    Raises ``CampaignNotFound``, ``RuleBroken("campaign.*")`` (chapter still in progress,
    campaign complete, revert pending) and ``VersionConflict`` on a concurrent change.
    """
    campaign = load(games, campaign_id)
    started = campaign.started
    ruleset = registry.get(started.ruleset)
    at = datetime.now(UTC)
    command_id = str(uuid4())
    events: list[Any] = []
    current = campaign
    game = chapter_game(games, campaign)
    if game is not None:
        if game.result is None:
            raise RuleBroken(
                "campaign.chapter-in-progress",
                section=SECTION,
                detail=f"game {game.id} of chapter {campaign.playing.chapter} has not ended",
            )  # type: ignore[union-attr]
        previous = msgspec.Raw(_encode(campaign.carry_over)) if campaign.carry_over is not None else None
        choices = tuple(msgspec.Raw(_encode(c)) for c in campaign.carry_choices.values())
        carry = None
        if game.result == "victory":
            carry = (
                ruleset.campaign_carry_over(game.state, previous, choices)
                if choices
                else ruleset.campaign_carry_over(game.state, previous)
            )
        recorded = decide_record(campaign, str(game.id), game.result, carry)
        events += recorded
        current = project_campaign(
            campaign,
            campaign_records(
                campaign, recorded, campaign_id=campaign_id, seat=seat, command_id=command_id, at=at
            ),
        )  # type: ignore[assignment]
    new_game_id = uuid4()
    begun = decide_begin(current, str(new_game_id))
    events += begun
    setup = msgspec.json.decode(started.setup)
    setup.update({"chapter": begun[0].chapter})
    if current.carry_over is not None:
        setup["carry_over"] = current.carry_over
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
    )
    game_records = create(new_game_id, created, at=at, seed=seed, command_id=f"create-{new_game_id}")
    campaign_secret = games.secret(campaign_id)
    secret = GameSecret(
        originator_id=secret_id(new_game_id),
        timestamp=at,
        game_id=new_game_id,
        seed=seed.hex() if seed else None,
        token_hashes=dict(campaign_secret.token_hashes),
    )
    records = campaign_records(
        campaign, events, campaign_id=campaign_id, seat=seat, command_id=command_id, at=at
    )
    try:
        games.save(*records, *game_records, secret)
    except IntegrityError:
        raise VersionConflict(campaign.version, load(games, campaign_id).version) from None
    # the bot seats (``Seat.bot``) play until a person's move, as in a game created with ``POST /games``
    game = games.play_bots(games.game(new_game_id))
    return project_campaign(campaign, records), game  # type: ignore[return-value]


@_one_at_a_time
def choose_carry_over(games: Games, campaign_id: UUID, seat: str, choice: Any) -> Campaign:
    """Record ``seat``'s choice (the ruleset's choice document, JSON data) of what its pieces carry over
    from the chapter whose game just ended in a victory (``CarryOverChosen``); the next
    ``begin_next_chapter`` applies it. Raises ``CampaignNotFound``, ``msgspec.ValidationError`` (not the
    ruleset's choice document), ``RuleBroken`` (``campaign.no-choice``: the ruleset has nothing to choose;
    ``campaign.*`` of ``decide_choose_carry_over``; the ruleset's checks against the final state) and
    ``VersionConflict``."""
    campaign = load(games, campaign_id)
    ruleset = registry.get(campaign.started.ruleset)
    choose = getattr(ruleset, "campaign_choice", None)
    if choose is None:
        raise RuleBroken(
            "campaign.no-choice", section=SECTION, detail=f"{campaign.started.ruleset} carries over no choice"
        )
    game = chapter_game(games, campaign)
    decide_choose_carry_over(
        campaign, seat, str(game.id) if game else "", game.result if game else None, None
    )  # the campaign's own checks first: no final state to check a choice against before a victory
    pieces = frozenset(next(s.controls for s in campaign.started.seats if s.name == seat))
    checked = choose(game.state, pieces, choice)  # type: ignore[union-attr]
    events = decide_choose_carry_over(
        campaign,
        seat,
        str(game.id),
        game.result,
        msgspec.json.decode(checked),  # type: ignore[union-attr]
    )
    return _append(games, campaign, campaign_id, seat, events)


@_one_at_a_time
def revert(games: Games, campaign_id: UUID, seat: str, to_index: int | None) -> Campaign:
    """Request (``to_index`` given) or approve (``None``) a revert of the campaign's history."""
    campaign = load(games, campaign_id)
    events = (
        decide_revert(campaign, to_index, seat)
        if to_index is not None
        else decide_approve_revert(campaign, seat)
    )
    return _append(games, campaign, campaign_id, seat, events)


def _append(games: Games, campaign: Campaign, campaign_id: UUID, seat: str, events: list[Any]) -> Campaign:
    """Store ``events`` of one command of ``seat`` after ``campaign``; the campaign after them. Raises
    ``VersionConflict`` when another change was stored first."""
    records = campaign_records(
        campaign, events, campaign_id=campaign_id, seat=seat, command_id=str(uuid4()), at=datetime.now(UTC)
    )
    try:
        games.save(*records)
    except IntegrityError:
        raise VersionConflict(campaign.version, load(games, campaign_id).version) from None
    return project_campaign(campaign, records)  # type: ignore[return-value]


__all__ = [
    "CampaignNotFound",
    "GameNotFound",
    "begin_next_chapter",
    "choose_carry_over",
    "create_campaign",
    "load",
    "revert",
]
