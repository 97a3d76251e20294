"""Counting and logging the commands of ``POST /games/{id}/commands`` by outcome
(``dicelog_commands_total{command, outcome}``, ``dicelog.service.ops.metrics``'s docstring): the outcome
is read from the service's errors, so this lives above the use cases, not among the metrics."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dicelog.domain.core.errors import DomainError
from dicelog.service.app.errors import Forbidden, Unauthorized, VersionConflict
from dicelog.service.ops.faults import is_store_fault
from dicelog.service.ops.logs import get_logger
from dicelog.service.ops.metrics import COMMANDS, command_tag

log = get_logger("dicelog.commands")


def outcome_of(exc: BaseException) -> str:
    """The ``outcome`` label of a command that raised ``exc`` (see ``dicelog.service.ops.metrics``)."""
    if isinstance(exc, DomainError):
        return "refused"
    if isinstance(exc, VersionConflict):
        return "conflict"
    if isinstance(exc, (Forbidden, Unauthorized)):
        return "forbidden"
    if is_store_fault(exc):
        return "unavailable"
    return "error"


@contextmanager
def counting_command(command: Any) -> Iterator[None]:
    """Count one command by what becomes of the block it guards (accepted when it returns), and
    log it (``dicelog.commands``: ``command accepted`` at debug (the event log is the record of
    what was accepted; uvicorn's access log has the request), ``command refused`` with its rule
    at info, the other outcomes at warning; the request's context names game, seat and request)."""
    tag = command_tag(command)
    try:
        yield
    except BaseException as e:
        outcome = outcome_of(e)
        COMMANDS.labels(tag, outcome).inc()
        if isinstance(e, DomainError):
            log.info("command refused", command=tag, outcome=outcome, rule=e.rule)
        else:
            log.warning("command not stored", command=tag, outcome=outcome, error=type(e).__name__)
        raise
    COMMANDS.labels(tag, "accepted").inc()
    log.debug("command accepted", command=tag, outcome="accepted")
