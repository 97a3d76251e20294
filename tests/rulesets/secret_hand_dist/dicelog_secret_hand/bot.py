"""A random player for ``secret-hand``: the ruleset's ``bot`` (bot seats, ``dicelog demo --game
secret-hand``) and the tests that play whole games (e.g. the API leak tests). Pure: its randomness is the
``rng`` passed in."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def choose(commands: Sequence[T], rng: random.Random) -> T:
    """One of ``commands`` (the legal commands of the seat on turn), uniformly at random."""
    if not commands:
        raise ValueError("no legal command to choose from")
    return commands[rng.randrange(len(commands))]


class Bot:
    """``dicelog.domain.core.ruleset``'s ``bot``: a uniformly random legal command; a decision's default."""

    @staticmethod
    def choose(view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return choose(legal, rng)

    @staticmethod
    def decide(view: Any, pending: dict[str, Any], options: Sequence[str], rng: random.Random) -> str:
        default = pending.get("default")
        return default if default in options else choose(options, rng)


BOT = Bot()
