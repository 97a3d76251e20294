"""Shared fixtures: the test-only ``race`` ruleset is registered for core and API tests; the test-only
``secret-hand`` must be installed (its own distribution, found by its entry point: README, tests).

The two profiles (docs/testing.md): every test under ``tests/browser/`` and ``tests/faults/`` is
marked ``slow`` here, with the single tests marked ``slow`` where they are; ``pyproject.toml``'s
``addopts`` deselects them (``-m "not slow"``) and ``.ci/run`` runs them too (``-m slow``).
"""

from importlib.metadata import entry_points
from pathlib import Path

import pytest

from dicelog.domain.core import registry
from tests.unit.core.race import RACE

registry.register(RACE)

SLOW_FOLDERS = tuple(Path(__file__).parent / name for name in ("browser", "faults"))
"""Whole folders in the slow profile: the browser drives Chromium, the fault suite kills servers."""


def pytest_configure(config: pytest.Config) -> None:
    if not any(ep.name == "secret-hand" for ep in entry_points(group=registry.GROUP)):
        raise pytest.UsageError(
            "the test ruleset secret-hand is not installed: "
            ".venv/bin/pip install -e '.[test]' -e tests/rulesets/secret_hand_dist (README, the test command)"
        )


@pytest.hookimpl(tryfirst=True)  # before the ``-m`` selection reads the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if any(item.path.is_relative_to(folder) for folder in SLOW_FOLDERS):
            item.add_marker(pytest.mark.slow)
