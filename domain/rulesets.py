"""Registers the rulesets this build ships (imported by ``dicelog.domain.core.registry`` on first use)."""

from dicelog.domain.core import registry
from dicelog.domain.mice_and_mystics import ruleset as mice_and_mystics

registry.register(mice_and_mystics.RULESET)
