"""Random play (docs/conventions.md, rule 12; open_spiel random_sim_test): random legal commands from
``legal_commands``, rolls, shuffles, draws and decisions answered at random, through the core's
``run_command_and_auto_answers_records``; and whole chapters played with server dice until they end."""

import random
import uuid

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelog.domain.core.commands import Choose, Draw, Roll, Shuffle
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.events import (
    DecisionRequested,
    DrawRequested,
    GameCreated,
    RollRequested,
    ShuffleRequested,
)
from dicelog.domain.core.game import create, fold, run_command_and_auto_answers_records
from dicelog.domain.core.verify import verify
from dicelog.domain.mice_and_mystics.content import library
from dicelog.domain.mice_and_mystics.rules.graph import can_enter, size_of
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from dicelog.domain.mice_and_mystics.state import State
from tests.unit.mice_and_mystics.scenario import AT, Table, created

ALLOWED = ("collin", "tilda", "filch", "maginos", "nez")


def assert_capacity(state: State) -> None:
    """MM rulebook (it) §Condividere le Caselle: no space ever holds more than 4 small or 1 large figure."""
    for space, figures in state.board.items():
        if library().spaces[space].capacity == "unlimited":
            continue
        sizes = [size_of(state, f) for f in figures]
        assert sizes.count("small") <= 4 and (sizes.count("large") == 0 or len(sizes) == 1), (space, figures)
        assert can_enter(state, space, "small") or len(figures) >= 1


def answer(pending, draw):
    if isinstance(pending, ShuffleRequested):
        return Shuffle(order=tuple(draw(st.permutations(pending.cards))))
    if isinstance(pending, RollRequested):
        return Roll(faces=tuple(draw(st.integers(1, pending.sides)) for _ in range(pending.dice)))
    if isinstance(pending, DrawRequested):
        return Draw(cards=(draw(st.sampled_from(pending.cards)),))
    assert isinstance(pending, DecisionRequested)
    return Choose(option=draw(st.sampled_from(pending.options)))


@pytest.mark.slow  # 40 random games of up to 150 commands (docs/testing.md)
@settings(max_examples=40, deadline=None)
@given(
    party=st.permutations(ALLOWED).map(lambda p: tuple(p[:4])),
    data=st.data(),
)
def test_random_legal_play_never_breaks_evolve_capacity_replay_or_verify(party, data):
    table = Table(mice=party)
    for _ in range(150):
        if table.game.result is not None:
            break
        pending = table.game.pending
        if pending is not None:
            command = answer(pending, data.draw)
        else:
            legal = RULESET.legal_commands(table.state)
            assert legal, "a mouse always has something to do"
            command = data.draw(st.sampled_from(legal))
        table.play(command)
        assert_capacity(table.state)
        assert table.state.round >= 1 or table.state.phase == "setup"
    replayed = fold(None, table.records)
    assert replayed.state == table.state
    assert verify(table.records).ok
    snapshot = msgspec.json.decode(msgspec.json.encode(table.state), type=RULESET.state_type)
    assert snapshot == table.state
    for record in table.records:
        RULESET.describe(table.state, record.payload)
    msgspec.json.encode(RULESET.initiative_view(table.state))
    msgspec.json.encode(RULESET.board_view(table.state))


def play_chapter(seed: int, limit: int):
    """Chapter 1 with server dice and default decisions; random legal commands until it ends."""
    rng = random.Random(seed)
    secret = seed.to_bytes(32, "big")
    base = created()
    game_created = GameCreated(
        ruleset=base.ruleset,
        setup=base.setup,
        seats=base.seats,
        dice_mode="server",
        decision_policy="default",
        dice_commitment=commitment(secret),
    )
    records = create(uuid.UUID(int=seed), game_created, at=AT, seed=secret, command_id="create")
    game = fold(None, records)
    for n in range(limit):
        if game.result is not None:
            return game, records, n
        assert game.pending is None, game.pending
        command = rng.choice(RULESET.legal_commands(game.state))
        new = run_command_and_auto_answers_records(
            game, command, seat="north", command_id=f"c{n}", at=AT, seed=secret
        )
        records += new
        game = fold(game, new)
    return game, records, limit


@pytest.mark.slow  # three whole chapters (docs/testing.md)
def test_random_chapters_with_server_dice_end_in_victory_or_defeat_and_verify():
    """Random legal play with server dice reaches the chapter's end (MM rulebook (it) §Capitolo 1: Obiettivi
    del Capitolo; §Evocazioni moves the hourglass on) within a bounded number of commands."""
    for seed in (1, 2, 3):
        game, records, commands = play_chapter(seed, limit=3_000)
        assert game.result in ("victory", "defeat"), (seed, commands, game.state.hourglass_page)
        checked = verify(records)
        assert checked.ok and checked.seed_revealed, checked.divergence
