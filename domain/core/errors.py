"""Domain refusals.

``decide`` raises a ``RuleBroken`` naming the rule (a stable id such as ``move.full-space``) and
the rulebook section it comes from. The service maps every ``RuleBroken`` to one RFC 9457
problem+json response whose ``type`` is derived from the rule id, so clients can branch on it.
"""

from __future__ import annotations


class DomainError(Exception):
    """Base of every refusal raised by the domain."""

    status = 422

    def __init__(self, rule: str, *, section: str, detail: str = "") -> None:
        self.rule = rule
        self.section = section
        self.detail = detail or rule
        super().__init__(f"{rule}: {self.detail} ({section})")


class RuleBroken(DomainError):
    """A command breaks a game rule. ``rule`` is stable; ``section`` cites the rulebook."""


class NotYourTurn(RuleBroken):
    """The command was issued by a seat that may not act now (HTTP 422, as every rule refusal: 409 is
    only a stale ``expected_version``; it was 409 before, docs/api-contract.md)."""


class PendingFirst(RuleBroken):
    """A roll, shuffle or decision is pending and must be answered before anything else (HTTP 422)."""


class GameOver(RuleBroken):
    """The game has ended; no command changes it any more (HTTP 422)."""


class NotThisAggregate(LookupError):
    """The events stored under an id are not those of the aggregate asked for: a campaign's id read as a
    game's, or a game's as a campaign's (ids are public, in ``Location`` headers). Bad input, never a bug:
    the service answers it as the 404 of the aggregate asked for."""


class InvariantViolated(RuntimeError):
    """A state that only a bug can produce: what an ``assert`` once checked, kept under ``python -O``.

    Never bad input, so never a refusal: it is no ``DomainError`` (a retry or a legality probe that
    catches ``RuleBroken`` does not swallow it) and the API answers it as any bug, a logged 500.
    ``invariant`` names what broke (a stable id such as ``mouse-turn``); ``detail`` says where."""

    def __init__(self, invariant: str, detail: str = "") -> None:
        self.invariant = invariant
        self.detail = detail or invariant
        super().__init__(f"invariant {invariant} broken: {self.detail}")
