"""The service's own errors (each answered with its HTTP status by ``dicelog.service.http.app``).

Kept apart from ``dicelog.service.app.games`` (which re-exports them) so that modules the
application imports, such as ``dicelog.service.ops.metrics``, can name them too.
"""

from __future__ import annotations


class GameNotFound(LookupError):
    """No game has this id (HTTP 404)."""


class Unauthorized(PermissionError):
    """Missing or unknown bearer token for this game (HTTP 401)."""


class Forbidden(PermissionError):
    """The authenticated seat may not issue this command (HTTP 403)."""


class VersionConflict(Exception):
    """``expected_version`` is stale, or another command won the race (HTTP 409)."""

    def __init__(self, expected: int | None, current: int) -> None:
        self.expected, self.current = expected, current
        super().__init__(f"expected version {expected}, the game is at version {current}")


class IdempotencyMismatch(Exception):
    """The ``Idempotency-Key`` was already used for a different request (HTTP 422)."""


class AlreadyClaimed(Exception):
    """This place of the fork was already taken (HTTP 422; 409 is only a version conflict)."""
