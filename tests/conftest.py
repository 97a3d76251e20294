"""Shared fixtures: the test-only ``race`` ruleset is registered for core and API tests."""

from dicelog.domain.core import registry
from tests.unit.core.race import RACE

registry.register(RACE)
