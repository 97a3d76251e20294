"""Warm, once per process and before its threads start, what is computed lazily and then shared.

Two kinds of lazily computed values crashed processes whose threads met them for the first time at
once (issue 34: ``dicelog worker`` died with SIGSEGV at 5 of 7 starts under load):

- a ruleset's content, decoded on first use and cached (``functools.cache`` does not stop two threads
  from computing the same value: the publisher lane and the projections lane both decoded the Mice
  and Mystics content files at once);
- msgspec's type information, built on a type's first decoding by evaluating the string annotations
  (``from __future__ import annotations``) with ``typing.ForwardRef``, which compiles them; CPython
  3.11's compiler is not safe on two threads at once (a ``typing.ForwardRef`` frame on top of the
  crash; once ``SystemError: AST constructor recursion depth mismatch``).

``warm_up`` does both, on the calling thread, under one lock: each ruleset's ``warm_up()`` hook (the
``Ruleset`` protocol, ``dicelog.domain.core.ruleset``; the service knows no ruleset's content), then a
``msgspec.json.Decoder`` of each ruleset's types, of the types the caller adds (the API's request
signatures) and of every ``msgspec.Struct`` class imported by then (stored records, content files,
views). ``dicelog serve`` calls it before it takes requests (its lifespan), and the follower
(``dicelog.service.worker.follower.Follower.start``: ``dicelog worker``, the embedded worker, in a child
process or as threads) before any lane starts.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import msgspec

from dicelog.domain.core import registry

_lock = threading.Lock()
_warmed_rulesets: set[str] = set()


def warm_up(names: Iterable[str], types: Iterable[Any] = ()) -> None:
    """Warm the rulesets called ``names`` (their ``warm_up()`` hook, once per process each) and build
    msgspec's decoders of their command, state, event and setup types, of ``types`` and of every
    ``msgspec.Struct`` subclass imported by now (a type already built costs microseconds). Safe to
    call from any thread, any number of times: callers wait for the one warming. Raises
    ``RuleBroken`` (``game.unknown-ruleset``) for a name no ruleset has."""
    with _lock:
        kinds: list[Any] = list(types)
        for name in names:
            ruleset = registry.get(name)
            if name not in _warmed_rulesets:
                hook = getattr(ruleset, "warm_up", None)
                if hook is not None:
                    hook()
                _warmed_rulesets.add(name)
            kinds += [ruleset.command_type, ruleset.state_type, *ruleset.event_types]
            setup_type = getattr(ruleset, "setup_type", None)
            if setup_type is not None:
                kinds.append(setup_type)
        todo: list[type] = [msgspec.Struct]
        sub: type
        while todo:  # every Struct class imported by now
            for sub in todo.pop().__subclasses__():
                kinds.append(sub)
                todo.append(sub)
        for kind in kinds:
            try:
                msgspec.json.Decoder(kind)  # builds (and caches on each class) its whole type tree
            except TypeError:  # a generic base or a type msgspec cannot decode: never used as such
                continue
