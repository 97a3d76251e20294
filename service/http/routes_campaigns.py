"""The ``/campaigns`` resource: chapters in order with carry-over, and reverting its history."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException, ValidationException
from litestar.params import JSONBody, Parameter

from dicelog.domain.core import registry
from dicelog.domain.core.campaign import Campaign, CampaignStarted
from dicelog.domain.core.game import Recorded, record_hash
from dicelog.domain.core.visibility import Lens, Viewer, seat_viewer
from dicelog.service.app import campaigns
from dicelog.service.app.export import campaign_export
from dicelog.service.app.games import Forbidden, Games, Unauthorized
from dicelog.service.bodies.exports import CampaignExport
from dicelog.service.bodies.openapi_slots import JSON_FORM
from dicelog.service.bodies.render import summary
from dicelog.service.bodies.schemas import (
    CampaignCreatedBody,
    CampaignEventOut,
    CampaignEventPage,
    CampaignOut,
    CampaignVerifyResult,
    CarryOverChoice,
    ChapterOut,
    ChapterStartedBody,
    NewCampaign,
    RevertRequest,
    SeatToken,
)
from dicelog.service.http.routes import (
    BEARER,
    JSONL,
    READ_SECURITY,
    EventsAfter,
    EventsLimit,
    EventsSeat,
    EventsType,
    _problems,
    _seat,
    bearer,
    created,
    export_media,
    export_response,
)
from dicelog.service.store.write_lane import on_write_lane

_encode = msgspec.json.Encoder().encode


def _raw(value: Any) -> Any:
    return msgspec.json.decode(value) if isinstance(value, msgspec.Raw) else value


def campaign_out(campaign: Campaign) -> CampaignOut:
    started = campaign.started
    return CampaignOut(
        id=campaign.id,
        version=campaign.version,
        ruleset=started.ruleset,
        chapters=list(started.chapters),
        next_chapter=None if campaign.complete else started.chapters[campaign.next_index],
        carry_over=_raw(campaign.carry_over),
        history=[
            ChapterOut(
                number=e.index + 1,
                chapter=e.chapter,
                game_id=UUID(e.game_id),
                result=e.result,
                carry_in=_raw(e.carry_in),
                carry_out=_raw(e.carry_out),
                reverted=e.reverted,
            )
            for e in campaign.entries
        ],
        revert_pending=campaign.revert_request,
        undo_policy=started.undo_policy,
        carry_over_choices={
            seat: msgspec.convert(_raw(choice), CarryOverChoice)
            for seat, choice in campaign.carry_choices.items()
        },
    )


def _load(games: Games, campaign_id: UUID) -> Campaign:
    """The campaign, with the result of a chapter whose game has ended recorded (``campaigns.current``);
    404 when there is none."""
    try:
        return campaigns.current(games, campaign_id)
    except campaigns.CampaignNotFound:
        raise NotFoundException(f"no campaign {campaign_id}") from None


def _acting(games: Games, campaign_id: UUID, request: Request[Any, Any, Any]) -> str:
    """The seat a request on the campaign acts as: 404 for an id that is no campaign's (before any token
    is looked at), 401 for a missing or unknown token, 403 for a spectator's or auditor's."""
    _load(games, campaign_id)
    return _seat(games, campaign_id, request, "campaign")


def _viewer(games: Games, campaign: Campaign, request: Request[Any, Any, Any]) -> Viewer:
    """Who reads the campaign (``Games.reader``, as for a game): a seat, the spectator or the auditor with
    their token; a spectator without one, unless the campaign is private (401)."""
    started = campaign.started
    return games.reader(campaign.id, started.seats, started.visibility, bearer(request), "campaign")


def _lens(games: Games, campaign: Campaign, request: Request[Any, Any, Any]) -> Lens:
    """What the request's reader sees of the campaign's events: the one who-sees-what function
    (``dicelog.domain.core.visibility.Lens``) of the campaign's ruleset for the reader ``_viewer`` finds;
    everything is revealed once the campaign is complete, as a game's once it ended."""
    viewer = _viewer(games, campaign, request)
    return Lens(registry.get(campaign.started.ruleset), viewer, reveal=campaign.complete)


def _event_out(record: Recorded, lens: Lens) -> CampaignEventOut:
    shown = lens.event(record.payload, seat=record.seat)
    return CampaignEventOut(
        version=record.originator_version,
        type=type(record.payload).__name__,
        seat=record.seat,
        command_id=record.command_id,
        timestamp=record.timestamp,
        prev_hash=record.prev_hash,
        hash=record_hash(record),
        payload=shown,  # the lens keeps a campaign event's type
        hidden=shown is None,
    )


CampaignId = Annotated[UUID, Parameter(description="Campaign id (UUID)")]


class CampaignController(Controller):
    """Campaigns: chapters played in order with their carry-over, and history reverted with consent."""

    path = "/campaigns"
    tags = ["campaigns"]

    @post(
        "/",
        summary="Create a campaign",
        responses=_problems(400, 413, 415, 422, 429, 503, resource="campaign"),
    )
    @on_write_lane
    def create(
        self, data: JSONBody[NewCampaign], games: NamedDependency[Games]
    ) -> Response[CampaignCreatedBody]:
        """A campaign and one bearer token per seat (the same token plays every chapter). 422
        ``campaign.unknown-chapter`` naming every chapter id the served content does not have (``GET
        /content/mice-and-mystics/chapters`` lists those it has); nothing is stored."""
        names = [s.name for s in data.seats]
        if len(set(names)) != len(names) or (data.host is not None and data.host not in names):
            raise ValidationException("seat names must be unique and the host must be one of them")
        if "chapter" in data.party:
            raise ValidationException("the party must not name a chapter: the campaign's chapters do")
        started = CampaignStarted(
            ruleset=data.ruleset,
            chapters=tuple(data.chapters),
            setup=msgspec.Raw(_encode(data.party)),
            seats=tuple(data.seats),
            dice_mode=data.dice_mode,
            undo_policy=data.undo_policy,
            host=data.host,
            visibility=data.visibility,
        )
        campaign, tokens = campaigns.create_campaign(games, started)
        body = CampaignCreatedBody(
            campaign=campaign_out(campaign),
            tokens=[SeatToken(seat=s.name, token=tokens[f"seat:{s.name}"]) for s in started.seats],
            spectator_token=tokens.get("spectator"),
            auditor_token=tokens.get("auditor"),
        )
        return created(body, f"/campaigns/{campaign.id}")

    @get(
        "/{campaign_id:uuid}",
        sync_to_thread=True,
        summary="A campaign's history",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503, resource="campaign"),
    )
    def read(
        self, campaign_id: CampaignId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> CampaignOut:
        """Every chapter played (game, result, carry-over in and out, reverted or not). A private
        campaign is read with one of its tokens (401 otherwise, naming the campaign)."""
        campaign = _load(games, campaign_id)
        _viewer(games, campaign, request)
        return campaign_out(campaign)

    @get(
        "/{campaign_id:uuid}/events",
        sync_to_thread=True,
        summary="The campaign's own log",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 503, resource="campaign"),
    )
    def list_events(
        self,
        campaign_id: CampaignId,
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
        after: EventsAfter = 0,
        limit: EventsLimit = 100,
        seat: EventsSeat = None,
        event_type: EventsType = None,
    ) -> CampaignEventPage:
        """The campaign's own events, paged like a game's (``GET /games/{id}/events``): who began each
        chapter, each result recorded at its game's end, who chose what carry-over, who asked for and
        approved a revert, and when, each with its seat, command id, time and chain hash
        (docs/campaigns.md). Read with the same tokens as the campaign (a private one needs one)."""
        campaign = _load(games, campaign_id)
        lens = _lens(games, campaign, request)
        matching = [
            r
            for r in campaigns.campaign_log(games, campaign_id)
            if r.originator_version > after
            and (seat is None or r.seat == seat)
            and (event_type is None or type(r.payload).__name__ == event_type)
        ]
        page = matching[:limit]
        return CampaignEventPage(
            campaign_id=campaign_id,
            events=[_event_out(r, lens) for r in page],
            next_after=page[-1].originator_version if len(matching) > limit else None,
        )

    @post(
        "/{campaign_id:uuid}/verify",
        sync_to_thread=True,
        status_code=200,
        summary="Verify the campaign's own log",
        security=READ_SECURITY,
        responses=_problems(400, 401, 404, 429, 503, resource="campaign"),
    )
    def verify(
        self, campaign_id: CampaignId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> CampaignVerifyResult:
        """Check the campaign's log as a game's is checked: the hash chain and the stored bytes, its
        structure, every event re-derived from the campaign's rules at that point (a chapter begun only
        when none is played, a result only for the chapter being played, a choice only after a victory, a
        revert only with the consent the undo policy asks for), and each recorded result against its
        chapter game's ``GameEnded`` (docs/campaigns.md). A divergence's ``expected`` and ``found`` read
        ``(hidden)`` unless the reader sees everything."""
        campaign = _load(games, campaign_id)
        lens = _lens(games, campaign, request)
        verification = campaigns.verify(games, campaign_id)
        divergence = verification.divergence
        if divergence is not None and not lens.full:
            divergence = msgspec.structs.replace(divergence, expected="(hidden)", found="(hidden)")
            verification = msgspec.structs.replace(verification, divergence=divergence)
        return CampaignVerifyResult(campaign_id=campaign_id, verification=verification)

    @get(
        "/{campaign_id:uuid}/export",
        sync_to_thread=True,
        summary="Export the campaign's own log (JSON Lines, or one JSON document)",
        security=READ_SECURITY,
        media_type=JSONL,
        response_description=(
            "By default JSON Lines (format `dicelog-campaign-export/1`): a header line (format, campaign id, "
            "number of events), then each stored event exactly as stored. `dicelog verify FILE` checks it "
            "offline, as `POST /campaigns/{id}/verify` does (without the chapter games' results, which are "
            "in their own exports). With `Accept: application/json`, the same export as one JSON document "
            "(`CampaignExport`)."
        ),
        responses=_problems(400, 401, 403, 404, 406, 429, 503, resource="campaign"),
        opt={JSON_FORM: CampaignExport},
    )
    def export(
        self, campaign_id: CampaignId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> Response[bytes]:
        """The campaign's own log, to keep and check offline (``dicelog verify FILE``): the file form
        (``application/jsonl``) by default, one typed document (``CampaignExport``) with
        ``Accept: application/json``, 406 (``not-acceptable``) for any other ``Accept``. Only a reader who
        sees everything (the auditor) exports it (403 otherwise)."""
        media = export_media(request)
        campaign = _load(games, campaign_id)
        if not _lens(games, campaign, request).full:
            raise Forbidden("this campaign's log holds secrets of its ruleset: only the auditor exports it")
        document = campaign_export(campaign_id, campaigns.campaign_log(games, campaign_id))
        return export_response(document, media, f"campaign-{campaign_id}")

    @post(
        "/{campaign_id:uuid}/chapters",
        summary="Start the next chapter",
        security=BEARER,
        responses=_problems(400, 401, 404, 409, 422, 429, 503, resource="campaign"),
    )
    @on_write_lane
    def next_chapter(
        self, campaign_id: CampaignId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> Response[ChapterStartedBody]:
        """Start the next chapter's game (the same chapter again after a defeat) with the campaign's
        carry-over. The previous chapter's result was recorded when its game ended (docs/campaigns.md); 422
        ``campaign.chapter-in-progress`` while that game runs, ``campaign.complete`` once every chapter is
        won."""
        seat = _acting(games, campaign_id, request)
        campaign, game = campaigns.begin_next_chapter(games, campaign_id, seat)
        lens = games.lens(game, seat_viewer(game.created.seats, seat))
        return created(
            ChapterStartedBody(campaign=campaign_out(campaign), game=summary(game, lens)), f"/games/{game.id}"
        )

    @post(
        "/{campaign_id:uuid}/carry-over",
        summary="Choose what your mice keep for the next chapter",
        security=BEARER,
        responses=_problems(400, 401, 404, 409, 413, 415, 422, 429, 503, resource="campaign"),
    )
    @on_write_lane
    def choose_carry_over(
        self,
        campaign_id: CampaignId,
        data: JSONBody[CarryOverChoice],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> Response[CampaignOut]:
        """After the chapter's game ended in a victory and before ``POST /campaigns/{id}/chapters`` starts
        the next one (after the last chapter too: the campaign's final carry-over), the seat chooses the
        search card each of its mice keeps (Mice and Mystics rulebook, Giocare Mice and Mystics come una
        Campagna: «I Topi possono conservare solo 1 delle carte Ricerca»); a mouse no seat chose for keeps
        the default (its card with the highest battle + defense bonus). A later choice of the same seat
        replaces its earlier one; ``carry_over_choices`` shows them, and ``carry_over`` is computed again
        at once with every seat's latest choice (docs/campaigns.md). 422 ``campaign.no-victory`` before a
        victory, ``campaign.not-your-mouse`` for another seat's mouse, ``campaign.card-not-kept``
        for a card the mouse may not keep."""
        seat = _acting(games, campaign_id, request)
        out = campaign_out(campaigns.choose_carry_over(games, campaign_id, seat, msgspec.to_builtins(data)))
        return created(out, f"/campaigns/{campaign_id}")

    @post(
        "/{campaign_id:uuid}/reverts",
        summary="Revert the campaign's history",
        security=BEARER,
        responses=_problems(400, 401, 404, 409, 413, 415, 422, 429, 503, resource="campaign"),
    )
    @on_write_lane
    def request_revert(
        self,
        campaign_id: CampaignId,
        data: JSONBody[RevertRequest],
        request: Request[Any, Any, Any],
        games: NamedDependency[Games],
    ) -> Response[CampaignOut]:
        """Back to before chapter ``to_chapter``'s result, with the consent the undo policy asks
        for (``host``: at once; ``all-seats``: when every other seat approved). Reverted chapters
        stay in the history, marked; the carry-over is recomputed from the chapters left. When the revert
        applies, the game of a reverted chapter still being played is closed to commands (its log ends with
        the server's ``CloseGame`` and ``GameEnded`` with result ``reverted``); ended games are untouched."""
        seat = _acting(games, campaign_id, request)
        out = campaign_out(campaigns.revert(games, campaign_id, seat, data.to_chapter - 1))
        return created(out, f"/campaigns/{campaign_id}")

    @post(
        "/{campaign_id:uuid}/reverts/approval",
        summary="Approve the open revert",
        security=BEARER,
        responses=_problems(400, 401, 404, 409, 422, 429, 503, resource="campaign"),
    )
    @on_write_lane
    def approve_revert(
        self, campaign_id: CampaignId, request: Request[Any, Any, Any], games: NamedDependency[Games]
    ) -> Response[CampaignOut]:
        """The calling seat approves the open revert request."""
        seat = _acting(games, campaign_id, request)
        return created(
            campaign_out(campaigns.revert(games, campaign_id, seat, None)), f"/campaigns/{campaign_id}"
        )


__all__ = ["CampaignController", "Unauthorized"]
