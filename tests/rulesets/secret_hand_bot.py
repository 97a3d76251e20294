"""A random player for ``secret-hand`` (used by tests that play whole games, e.g. API leak tests)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def choose(commands: Sequence[T], rng: random.Random) -> T:
    """One of ``commands`` (the legal commands of the seat on turn), uniformly at random."""
    if not commands:
        raise ValueError("no legal command to choose from")
    return commands[rng.randrange(len(commands))]
