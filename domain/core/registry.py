"""The rulesets this build knows, by name (``GameCreated.ruleset``)."""

from __future__ import annotations

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}
_BUILTINS: list[str] = []
_loaded = False


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        before = set(_RULESETS)
        import dicelog.domain.rulesets  # noqa: F401  (registers the built-in rulesets)

        _BUILTINS.extend(sorted(set(_RULESETS) - before))


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` available under ``ruleset.name``; returns it."""
    _RULESETS[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    """The ruleset called ``name``. Raises ``RuleBroken("game.unknown-ruleset")``."""
    if name not in _RULESETS:
        _load_builtins()
    try:
        return _RULESETS[name]
    except KeyError:
        raise RuleBroken(
            "game.unknown-ruleset", section="README, The API at a glance", detail=f"no ruleset {name!r}"
        ) from None


def rules_revision(name: str) -> int:
    """The revision of ruleset ``name``'s rules that new games are created with
    (``GameCreated.rules_revision``): its ``rules_revision`` attribute, 1 when it has none.
    Raises ``RuleBroken("game.unknown-ruleset")``."""
    return int(getattr(get(name), "rules_revision", 1))


def builtin_names() -> tuple[str, ...]:
    """Names of the rulesets this build ships (``dicelog.domain.rulesets``), without test-only ones."""
    _load_builtins()
    return tuple(_BUILTINS)


def names() -> tuple[str, ...]:
    """Names of every registered ruleset."""
    _load_builtins()
    return tuple(sorted(_RULESETS))
