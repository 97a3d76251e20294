"""Random play (STYLE.md 12; open_spiel random_sim_test): random legal commands from
``legal_commands``, rolls and shuffles answered at random, through the core's ``play``."""

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.commands import Roll, Shuffle
from domain.core.events import RollRequested, ShuffleRequested
from domain.core.game import fold
from domain.mice_and_mystics.content import library
from domain.mice_and_mystics.rules.graph import can_enter, size_of
from domain.mice_and_mystics.ruleset import RULESET
from domain.mice_and_mystics.state import State
from tests.unit.mice_and_mystics.scenario import Table

ALLOWED = ("collin", "tilda", "filch", "maginos", "nez")


def assert_capacity(state: State) -> None:
    """001 §Condividere le Caselle: no space ever holds more than 4 small or 1 large figure."""
    for space, figures in state.board.items():
        if library().spaces[space].capacity == "unlimited":
            continue
        sizes = [size_of(state, f) for f in figures]
        assert sizes.count("small") <= 4 and (sizes.count("large") == 0 or len(sizes) == 1), (space, figures)
        assert can_enter(state, space, "small") or len(figures) >= 1


@settings(max_examples=60, deadline=None)
@given(
    party=st.permutations(ALLOWED).map(lambda p: tuple(p[:4])),
    data=st.data(),
)
def test_random_legal_play_never_breaks_evolve_capacity_or_replay(party, data):
    table = Table(mice=party)
    for _ in range(60):
        pending = table.game.pending
        if isinstance(pending, ShuffleRequested):
            command = Shuffle(order=tuple(data.draw(st.permutations(pending.cards))))
        elif isinstance(pending, RollRequested):
            command = Roll(faces=tuple(data.draw(st.integers(1, 6)) for _ in range(pending.dice)))
        else:
            legal = RULESET.legal_commands(table.state)
            assert legal, "a mouse always has something to do"
            command = data.draw(st.sampled_from(legal))
        table.play(command)
        assert_capacity(table.state)
        assert table.state.round >= 1
    replayed = fold(None, table.records)
    assert replayed.state == table.state
    snapshot = msgspec.json.decode(msgspec.json.encode(table.state), type=RULESET.state_type)
    assert snapshot == table.state
    for record in table.records:
        RULESET.describe(table.state, record.payload)
    msgspec.json.encode(RULESET.initiative_view(table.state))
    msgspec.json.encode(RULESET.board_view(table.state))
