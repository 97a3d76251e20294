"""Explore (001 §Esplorare; 001 §Incontri) — placeholder, filled in below."""

from __future__ import annotations

from domain.core.errors import RuleBroken
from domain.mice_and_mystics.rules import sections

ENCOUNTER_INITIATIVE = "encounter-initiative"


def decide_explore(state, cmd):
    raise RuleBroken("explore.not-implemented", section=sections.EXPLORE)


def resolve_encounter_initiative(state, answer):
    return []


def resolve_encounter_draw(state, answer):
    return []


def legal_explores(state, mouse):
    return []
