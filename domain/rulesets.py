"""Registers the rulesets this build ships (imported by ``dicelog.domain.core.registry`` on first use)."""

from dicelog.domain.core import registry
from dicelog.domain.mice_and_mystics import ruleset as mice_and_mystics
from dicelog.domain.vast import ruleset as vast

registry.register(mice_and_mystics.RULESET)
registry.register(vast.RULESET)
