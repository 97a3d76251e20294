"""Rules revisions (docs/mice-and-mystics/index.md, Rules revisions): a game keeps the rules it was created
with, and the state fields added for later revisions leave the stored encoding of older games' states
unchanged."""

from __future__ import annotations

import msgspec

from dicelog.domain.core import registry
from dicelog.domain.core.game import encode_state
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from dicelog.domain.mice_and_mystics.state import LATE_FIELDS, RULES_REVISION, State
from tests.unit.mice_and_mystics.scenario import chapter_1_table


def test_new_games_are_created_with_the_rulesets_current_revision():
    assert registry.rules_revision("mice-and-mystics") == RULES_REVISION == 3


def test_a_revision_1_state_encodes_without_the_late_fields_and_decodes_back_the_same():
    state = chapter_1_table(rules_revision=1)
    stored = encode_state(RULESET, state)
    keys = msgspec.json.decode(stored)
    assert not set(LATE_FIELDS) & set(keys)  # byte for byte what releases before the fields stored
    assert msgspec.json.decode(stored, type=State) == state
    # every other field is kept, in the struct's order
    assert list(keys) == [f for f in State.__struct_fields__ if f not in LATE_FIELDS]


def test_a_revision_2_state_keeps_the_fields_that_differ_from_their_defaults():
    state = chapter_1_table(rules_revision=2)
    stored = msgspec.json.decode(encode_state(RULESET, state))
    assert stored["rules_revision"] == 2 and stored["acted_this_round"] == ["filch"]
    assert "round_ends_after_turn" not in stored
    assert msgspec.json.decode(encode_state(RULESET, state), type=State) == state
