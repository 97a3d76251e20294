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

A chapter game's seats hold their campaign's tokens, which open every chapter: they are not managed here
(``TokenRefused``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from eventsourcing.persistence import IntegrityError

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


def places(games: Games, game_id: UUID) -> list[str]:
    """The audiences of a game that hold a token: each seat, ``spectator``, ``auditor``, ``table`` (when the
    game has a table device). Raises ``GameNotFound``."""
    game = games.game(game_id)
    secret = games.secret(game_id)
    found = [f"seat:{s.name}" for s in game.created.seats] + ["spectator", "auditor"]
    if TABLE in secret.audience_hashes:
        found.append(TABLE)
    return found


def host_audiences(games: Games, game_id: UUID) -> set[str]:
    """The audiences that manage every place's token: the host seat and the auditor."""
    created = games.game(game_id).created
    return {f"seat:{created.host or created.seats[0].name}", "auditor"}


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


def _check(games: Games, game_id: UUID, token: str | None, target: str | None) -> tuple[str, str]:
    """The caller's audience and the place it acts on. Raises ``Unauthorized``, ``Forbidden`` (another
    place, by a token not the host's; any place of a chapter game, whose seats hold the campaign's tokens)
    and ``NoSuchPlace``."""
    game = games.game(game_id)  # an unknown id (or a campaign's) is 404 before any token check
    caller = games.audience(game_id, token)
    if game.created.campaign_id is not None:
        raise Forbidden("a chapter game's places hold the campaign's tokens, which are not rotated per game")
    place = target or caller
    if place not in places(games, game_id):
        raise NoSuchPlace(f"the game has no place {place!r}")
    if place != caller and caller not in host_audiences(games, game_id):
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


def rotate(games: Games, game_id: UUID, token: str | None, target: str | None = None) -> tuple[str, str]:
    """Give a place (``target``; ``None``: the caller's own) a new token; returns (place, new token). The
    place's previous token is revoked in the same save. Raises ``GameNotFound``, ``Unauthorized``,
    ``Forbidden``, ``NoSuchPlace``, ``TokenChanged``."""
    caller, place = _check(games, game_id, token, target)
    fresh = new_token()
    _change(games, game_id, caller, place, token, fresh)
    return place, fresh


def revoke(games: Games, game_id: UUID, token: str | None, target: str | None = None) -> str:
    """Revoke a place's token (``target``; ``None``: the caller's own); returns the place. The place then
    opens with no token until the host rotates it. Raises ``GameNotFound``, ``Unauthorized``, ``Forbidden``,
    ``ValidationException``, ``TokenChanged``."""
    caller, place = _check(games, game_id, token, target)
    _change(games, game_id, caller, place, token, None)
    return place
