"""One function of ``(state, event)`` chosen by the event's type: the idiom both rulesets apply and describe
events with (docs/architecture.md, The core idea: decide / evolve).

A ruleset builds one ``ByEventType`` per such function (its ``evolve``, its game-log ``describe``) and
registers one handler per event type, once at import, with the ``on`` decorator::

    EVOLVE: ByEventType[State, State] = ByEventType("handler", unchanged)

    @EVOLVE.on(TileRevealed)
    def _revealed(state: State, event: TileRevealed) -> State: ...

Calling it looks the handler up by ``type(event)``: no chain of ``isinstance`` tests. An event type with
no handler of its own gets its nearest registered base's (``type(event).__mro__``), else the fallback
given at construction (``evolve`` leaves the state unchanged, ``describe`` has no line). Registering a
type twice raises ``TypeError`` at import.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

S = TypeVar("S")
R = TypeVar("R")


class ByEventType(Generic[S, R]):
    """``handler(state, event) -> R`` by ``type(event)``, with a fallback through the event's bases."""

    def __init__(self, what: str, fallback: Callable[[S, Any], R]) -> None:
        self.what = what
        """What a handler is called in errors (``handler``, ``describer``)."""
        self.handlers: dict[type, Callable[[S, Any], R]] = {}
        """Event type -> its handler, as registered (read-only outside ``on``)."""
        self.fallback = fallback
        """Called for an event type neither registered nor derived from a registered one."""

    def on(self, *types: type) -> Callable[[Callable[[S, Any], R]], Callable[[S, Any], R]]:
        """Register the decorated function as the handler of ``types`` (each at most once; a second
        registration raises ``TypeError``); returns the function unchanged."""

        def register(handler: Callable[[S, Any], R]) -> Callable[[S, Any], R]:
            for cls in types:
                if cls in self.handlers:
                    raise TypeError(f"{cls.__name__} has two {self.what}s")
                self.handlers[cls] = handler
            return handler

        return register

    def __call__(self, state: S, event: Any) -> R:
        handler = self.handlers.get(type(event))
        if handler is None:
            return self._inherited(state, event)
        return handler(state, event)

    def _inherited(self, state: S, event: Any) -> R:
        """An event type with no handler of its own: its nearest registered base's, else the fallback."""
        for cls in type(event).__mro__[1:]:
            handler = self.handlers.get(cls)
            if handler is not None:
                return handler(state, event)
        return self.fallback(state, event)
