"""The rulesets this process knows, by name (``GameCreated.ruleset``).

A ruleset is found as a Python entry point of the group ``dicelog.rulesets`` (``importlib.metadata``):
an installed distribution declares ``[project.entry-points."dicelog.rulesets"]`` with
``<name> = "<module>:<object>"``, the object being the ruleset (``dicelog.domain.core.ruleset``).
The core imports no ruleset: the shipped ones are declared in dicelog's own ``pyproject.toml``, a
published or test-only one in its own distribution. ``register`` adds one by hand (tests, programs
that embed the service); reading the installed metadata is not I/O of the rules (it happens once, at
first use, before any rule runs).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.ruleset import Ruleset

GROUP = "dicelog.rulesets"
SHIPPING_DISTRIBUTION = "dicelog"

_RULESETS: dict[str, Ruleset] = {}


@cache  # the installed distributions do not change while a process runs
def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def _load(name: str) -> Ruleset | None:
    ep = _entry_points().get(name)
    if ep is None:
        return None
    ruleset = ep.load()
    if getattr(ruleset, "name", None) != name:
        raise RuleBroken(
            "game.unknown-ruleset",
            section="docs/architecture.md, The ruleset boundary",
            detail=f"entry point {ep.value!r} is named {name!r} but its ruleset calls itself "
            f"{getattr(ruleset, 'name', None)!r}",
        )
    return register(ruleset)


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` available under ``ruleset.name``; returns it."""
    _RULESETS[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    """The ruleset called ``name`` (registered, or loaded from its entry point on first use).
    Raises ``RuleBroken("game.unknown-ruleset")``."""
    found = _RULESETS.get(name) or _load(name)
    if found is None:
        known = names()
        hint = (
            f"known: {', '.join(known)}"
            if known
            else (
                "no ruleset is installed: reinstall dicelog (pip install -e .) so its entry points "
                f"({GROUP}) are written"
            )
        )
        raise RuleBroken(
            "game.unknown-ruleset",
            section="docs/clients.md, The API at a glance",
            detail=f"no ruleset {name!r} ({hint})",
        )
    return found


def rules_revision(name: str) -> int:
    """The revision of ruleset ``name``'s rules that new games are created with
    (``GameCreated.rules_revision``): its ``rules_revision`` attribute, 1 when it has none.
    Raises ``RuleBroken("game.unknown-ruleset")``."""
    return int(getattr(get(name), "rules_revision", 1))


def builtin_names() -> tuple[str, ...]:
    """Names of the rulesets this build ships: the entry points of the ``dicelog`` distribution
    itself (not those of other installed distributions, nor registered by hand), sorted."""
    return tuple(
        sorted(
            name
            for name, ep in _entry_points().items()
            if ep.dist is not None and ep.dist.name == SHIPPING_DISTRIBUTION
        )
    )


def installed_names() -> tuple[str, ...]:
    """Names of every installed ruleset (every ``dicelog.rulesets`` entry point), sorted: those a
    fresh process (the embedded worker's child, ``dicelog worker``) can load by name."""
    return tuple(sorted(_entry_points()))


def names() -> tuple[str, ...]:
    """Names of every ruleset known: installed or registered by hand, sorted."""
    return tuple(sorted(set(_RULESETS) | set(_entry_points())))


def default_when_unnamed(served: Iterable[str]) -> str | None:
    """The ruleset of ``served`` a ``POST /games`` body without ``ruleset`` means: the one whose
    ``default_when_unnamed`` is true (``dicelog.domain.core.ruleset``), ``None`` when none of them is.
    Raises ``RuleBroken("game.unknown-ruleset")`` for a name not known."""
    return next((name for name in sorted(served) if getattr(get(name), "default_when_unnamed", False)), None)
