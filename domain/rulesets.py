"""Registers the rulesets this build ships (imported by ``domain.core.registry`` on first use)."""

from domain.core import registry
from domain.mice_and_mystics import ruleset as mice_and_mystics

registry.register(mice_and_mystics.RULESET)
