"""Rotating and revoking the bearer tokens of a game (docs/api-contract.md, Tokens).

A game's places (``seat:<name>``, ``spectator``, ``auditor``, ``table``) open with the tokens handed out at
creation (a fork's with the tokens of its claims). Only their SHA-256 is stored (``GameSecret``,
``TokenIndex``). Here:

- ``rotate``: a place gets a new token and its old one opens nothing any more. A token rotates its own
  place; the host (the host seat's token, or the auditor's, which the game's creator holds) may rotate any
  place, say to hand a seat a new token when the old one leaked.
- ``revoke``: the host withdraws a place's token (a token may also revoke itself); the place then opens
  with no token until the host rotates it.

Each change is one atomic save of the place's ``TokenHolder`` (the hash of its token now: two changes of one
place at once collide, and the later is refused with ``TokenChanged``), the old token's ``TokenRevoked``
and, for a rotation, the new token's ``TokenIndex``. ``Games.audience`` reads the ``TokenRevoked`` of the
presented token from the store at every request (no cache), so a revoked token is refused at once by every
replica on the same store.

A campaign's places are managed the same way (``kind="campaign"``). A chapter game's seats hold their
campaign's tokens, which open every chapter: they are rotated and revoked as the campaign's, never per
chapter game (``Forbidden``); a campaign's rotated token opens its chapter games (``Games.audience``), and
a revoked one none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from dicelog.domain.core.events import Seat
from dicelog.service.app import campaigns
from dicelog.service.app.games import TABLE, Forbidden, Games, hash_token, new_token
from dicelog.service.store.records import (
    TokenHolder,
    TokenIndex,
    TokenRevoked,
    holder_id,
    revocation_id,
    token_id,
)


class TokenChanged(Exception):
    """The place's token was changed by another request at the same time (HTTP 422 ``token-changed``; 409
    is only a game's version conflict): nothing was stored, retry."""


class NoSuchPlace(LookupError):
    """The game has no such place (audience) to rotate or revoke (HTTP 400, ``key`` ``audience``)."""


Kind = Literal["game", "campaign"]


def places(games: Games, owner_id: UUID, seats: Sequence[Seat]) -> list[str]:
    """The audiences of a game or campaign of ``seats`` that hold a token: each seat, ``spectator``,
    ``auditor``, ``table`` (when it has a table device). Raises ``GameNotFound``."""
    found = [f"seat:{s.name}" for s in seats] + ["spectator", "auditor"]
    if TABLE in games.secret(owner_id).audience_hashes:
        found.append(TABLE)
    return found


def host_audiences(seats: Sequence[Seat], host: str | None) -> set[str]:
    """The audiences that manage every place's token: the host seat (``None``: the first) and the auditor."""
    return {f"seat:{host or seats[0].name}", "auditor"}


def _latest(games: Games, game_id: UUID, audience: str) -> TokenHolder | None:
    found = list(games.events.get(holder_id(game_id, audience), desc=True, limit=1))
    return found[0] if found and isinstance(found[0], TokenHolder) else None


def _current_hash(games: Games, game_id: UUID, audience: str) -> tuple[int, str | None]:
    """The version of the place's ``TokenHolder`` (0: none yet) and the hash of its current token (``None``:
    none, or one not known by place: a fork's place claimed before ``TokenHolder`` existed)."""
    latest = _latest(games, game_id, audience)
    if latest is not None:
        return latest.originator_version, latest.token_hash
    secret = games.secret(game_id)
    if audience.startswith("seat:"):
        return 0, secret.token_hashes.get(audience.removeprefix("seat:"))
    return 0, secret.audience_hashes.get(audience)


def _check(
    games: Games, owner_id: UUID, token: str | None, target: str | None, kind: Kind
) -> tuple[str, str]:
    """The caller's audience and the place it acts on, in the game or campaign (``kind``) ``owner_id``.
    Raises ``GameNotFound`` or ``CampaignNotFound`` (before any token check), ``Unauthorized``,
    ``Forbidden`` (another place, by a token not the host's; any place of a chapter game, whose seats hold
    the campaign's tokens) and ``NoSuchPlace``."""
    if kind == "campaign":
        started = campaigns.load(games, owner_id).started
        seats, host = started.seats, started.host
        caller = games.audience(owner_id, token, kind)
    else:
        created = games.game(owner_id).created  # an unknown id (a campaign's too): 404 before a token check
        seats, host = created.seats, created.host
        caller = games.audience(owner_id, token)
        if created.campaign_id is not None:
            raise Forbidden(
                "a chapter game's places hold the campaign's tokens: rotate them with "
                "POST /campaigns/{id}/tokens/rotate"
            )
    place = target or caller
    if place not in places(games, owner_id, seats):
        raise NoSuchPlace(f"the {kind} has no place {place!r}")
    if place != caller and caller not in host_audiences(seats, host):
        raise Forbidden(f"only the host manages another place's token; this token is {caller!r}'s")
    return caller, place


def _change(
    games: Games, game_id: UUID, caller: str, place: str, presented: str | None, new: str | None
) -> None:
    """Store the place's new token hash (``new``; ``None``: revoked) and revoke the one it had."""
    version, current = _current_hash(games, game_id, place)
    if presented is not None and place == caller:
        current = hash_token(presented)  # the caller's own token, whatever the records say
    at = datetime.now(UTC)
    records: list[object] = [
        TokenHolder(
            originator_id=holder_id(game_id, place),
            originator_version=version + 1,
            timestamp=at,
            owner_id=game_id,
            audience=place,
            token_hash=hash_token(new) if new is not None else None,
            by=caller,
        )
    ]
    if current is not None and not games.revoked(current):
        records.append(
            TokenRevoked(
                originator_id=revocation_id(current),
                timestamp=at,
                owner_id=game_id,
                audience=place,
                by=caller,
            )
        )
    if new is not None:
        records.append(
            TokenIndex(
                originator_id=token_id(hash_token(new)), timestamp=at, owner_id=game_id, audience=place
            )
        )
    try:
        games.save(*records)
    except IntegrityError:
        raise TokenChanged(f"the token of {place} was changed meanwhile: retry") from None


def rotate(
    games: Games, owner_id: UUID, token: str | None, target: str | None = None, kind: Kind = "game"
) -> tuple[str, str]:
    """Give a place of a game or campaign (``kind``) (``target``; ``None``: the caller's own) a new token;
    returns (place, new token). The place's previous token is revoked in the same save. A campaign's new
    token opens its chapter games as the old one did (``Games.audience``). Raises ``GameNotFound``,
    ``CampaignNotFound``, ``Unauthorized``, ``Forbidden``, ``NoSuchPlace``, ``TokenChanged``."""
    caller, place = _check(games, owner_id, token, target, kind)
    fresh = new_token()
    _change(games, owner_id, caller, place, token, fresh)
    return place, fresh


def revoke(
    games: Games, owner_id: UUID, token: str | None, target: str | None = None, kind: Kind = "game"
) -> str:
    """Revoke a place's token in a game or campaign (``kind``) (``target``; ``None``: the caller's own);
    returns the place. The place then opens with no token (a campaign's: in none of its chapter games
    either) until the host rotates it. Raises ``GameNotFound``, ``CampaignNotFound``, ``Unauthorized``,
    ``Forbidden``, ``NoSuchPlace``, ``TokenChanged``."""
    caller, place = _check(games, owner_id, token, target, kind)
    _change(games, owner_id, caller, place, token, None)
    return place
