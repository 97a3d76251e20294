"""Every problem ``type`` the API sends (RFC 9457 ``application/problem+json``), in one place.

A problem's ``type`` is either ``urn:dicelog:rule:<rule id>`` (a game rule refused the command: 422,
with ``rule`` and ``section``; the rule ids are the rulesets' own) or one of the
``urn:dicelog:problem:<kind>`` listed in ``PROBLEM_TYPES``, each with the one status it comes with
and what it means. The OpenAPI document declares them as the ``ProblemType`` enum
(``dicelog.service.http.openapi``), and ``docs/api-contract.md`` has one entry per type; a test checks
that the code sends no other.

Status codes: 409 is only ``version-conflict`` (a stale ``expected_version``: refresh, then decide
again); every refusal by a rule is 422, never 409.
"""

from __future__ import annotations

PROBLEM = "urn:dicelog:problem:"
RULE = "urn:dicelog:rule:"

PROBLEM_TYPES: dict[str, tuple[int, str]] = {
    "bad-request": (
        400,
        "A parameter, header or body field is missing, of the wrong type or out of range; ``errors`` "
        "lists each one, with ``key`` naming the field (``seats[0].name``) and ``source`` where it was.",
    ),
    "body-too-deep": (400, "The JSON body nests arrays and objects deeper than ``max_depth``."),
    "unauthorized": (
        401,
        "No bearer token, or one this game (or campaign) does not know, where one is needed (a private "
        "game, a sealed fork, a command).",
    ),
    "forbidden": (
        403,
        "The token is known but may not do this: a spectator's or auditor's token sending a command, "
        "a seat acting for another seat, a sealed fork read with a token other than its auditor's.",
    ),
    "not-found": (404, "No such route, version, turn, round or content item."),
    "game-not-found": (404, "No game has this id."),
    "campaign-not-found": (404, "No campaign has this id."),
    "method-not-allowed": (405, "The path exists but not with this method (see the ``Allow`` header)."),
    "not-acceptable": (406, "The ``Accept`` header names no media type the operation answers with."),
    "version-conflict": (
        409,
        "``expected_version`` is not the game's version (another command was stored first): read the game "
        "again and decide again. ``expected_version`` and ``current_version`` say which. The only 409.",
    ),
    "body-too-large": (413, "The body is larger than ``max_bytes``."),
    "unsupported-media-type": (
        415,
        "The body is not JSON: ``content_type`` is what was sent, ``accepted`` what would be.",
    ),
    "already-claimed": (422, "This place of the fork was already taken (each place is claimed once)."),
    "token-changed": (
        422,
        "The place's token was rotated or revoked by another request at the same time: nothing was "
        "stored; retry.",
    ),
    "idempotency-key-reused": (
        422,
        "The ``Idempotency-Key`` was already used by this token for a different request.",
    ),
    "rate-limited": (
        429,
        "A quota is spent: ``quota`` names it (``create``, ``commands`` or ``expensive``), ``limit`` and "
        "``window_seconds`` state it; retry after the ``Retry-After`` header's seconds.",
    ),
    "internal": (500, "A bug: logged with its traceback on the server; nothing to fix in the request."),
    "store-unavailable": (
        503,
        "The store (or Redis, or a free writer) is unavailable: ``reason`` says why, ``outcome`` whether "
        "a write may have been stored; retry after ``retry_after`` seconds (also ``Retry-After``).",
    ),
}
"""``kind`` -> (status, meaning) of every ``urn:dicelog:problem:<kind>``."""

HTTP_KINDS: dict[int, str] = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    413: "body-too-large",
    415: "unsupported-media-type",
    429: "rate-limited",
    503: "store-unavailable",
}
"""The kind of a problem raised as a plain HTTP error (Litestar's or the routes' own); any other
4xx is ``bad-request`` and any other 5xx ``internal``."""


def http_kind(status: int) -> str:
    """The problem kind of an HTTP error with this status (``HTTP_KINDS``)."""
    return HTTP_KINDS.get(status, "bad-request" if status < 500 else "internal")
