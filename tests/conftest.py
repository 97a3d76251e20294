"""Shared fixtures: the test-only ``race`` ruleset is registered for core and API tests; the test-only
``secret-hand`` must be installed (its own distribution, found by its entry point: README, tests)."""

from importlib.metadata import entry_points

import pytest

from dicelog.domain.core import registry
from tests.unit.core.race import RACE

registry.register(RACE)


def pytest_configure(config: pytest.Config) -> None:
    if not any(ep.name == "secret-hand" for ep in entry_points(group=registry.GROUP)):
        raise pytest.UsageError(
            "the test ruleset secret-hand is not installed: "
            ".venv/bin/pip install -e '.[test]' -e tests/rulesets/secret_hand_dist (README, the test command)"
        )
