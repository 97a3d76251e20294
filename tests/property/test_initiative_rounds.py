"""Whole chapter-1 games played by the demo's bot, 20 seeds: no initiative card takes two turns in
one round (MM rulebook (it) §Determinare l'Ordine di Iniziativa; issue 10, item 1;
docs/mice-and-mystics/rulings.md, Encounter with no minion card on the track). Games of rules revision 1
showed the bug on the same seeds; this test plays them too, so it shows the check finds it."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime
from uuid import UUID

import msgspec

from dicelog.domain.core.dice import commitment
from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.game import create, fold, run_command_and_auto_answers_records
from dicelog.domain.mice_and_mystics.bot import choose_for
from dicelog.domain.mice_and_mystics.events import InitiativeTrackReshuffled, RoundStarted, TurnStarted
from dicelog.domain.mice_and_mystics.state import RULES_REVISION

AT = datetime(2026, 1, 1, tzinfo=UTC)
MICE = ("collin", "filch", "maginos", "nez")
SEEDS = range(20)
MAX_COMMANDS = 800


def bot_game(seed: int, rules_revision: int) -> list:
    """The events of one game: server dice from a seed derived from ``seed``, decisions by default,
    each command chosen by the demo's bot (``dicelog.domain.mice_and_mystics.bot.choose_for``)."""
    dice = seed.to_bytes(32, "big")
    created = GameCreated(
        ruleset="mice-and-mystics",
        setup=msgspec.Raw(msgspec.json.encode({"chapter": "chapter-1", "mice": list(MICE)})),
        seats=(Seat(name="table", controls=MICE),),
        decision_policy="default",
        dice_commitment=commitment(dice),
        rules_revision=rules_revision,
    )
    records = create(UUID(int=seed + 1), created, at=AT, seed=dice, command_id="c0")
    game = fold(None, records)
    rng = random.Random(seed)
    for n in range(MAX_COMMANDS):
        legal = game.ruleset.legal_commands(game.state)
        if game.result is not None or not legal:
            break
        mouse = game.ruleset.turn_piece(game.state)
        as_dicts = [msgspec.to_builtins(c) for c in legal]
        chosen = choose_for(game.state, mouse, as_dicts) if mouse else rng.choice(as_dicts)
        command = legal[as_dicts.index(chosen)]
        new = run_command_and_auto_answers_records(
            game, command, seat="table", command_id=f"c{n + 1}", at=AT, seed=dice
        )
        game = fold(game, new)
        records += new
    return [r.payload for r in records]


def double_turns(events: list) -> list[tuple[int, str]]:
    """(round, card) for every card that started two turns in one round."""
    doubles, turns, round_ = [], Counter(), 0
    for event in events:
        if isinstance(event, RoundStarted):
            round_, turns = event.round, Counter()
        elif isinstance(event, TurnStarted):
            turns[event.card] += 1
            if turns[event.card] == 2:
                doubles.append((round_, event.card))
    return doubles


def test_rulebook_determinare_l_ordine_di_iniziativa_no_card_takes_two_turns_in_a_round_over_20_games():
    games = {seed: bot_game(seed, RULES_REVISION) for seed in SEEDS}
    reshuffled = [
        s for s, events in games.items() if any(isinstance(e, InitiativeTrackReshuffled) for e in events)
    ]
    assert len(reshuffled) >= 5, reshuffled  # the situation the rule is about happens in these games
    assert {seed: double_turns(events) for seed, events in games.items() if double_turns(events)} == {}
    old = {seed: double_turns(bot_game(seed, 1)) for seed in reshuffled}
    assert any(old.values()), "revision 1 played these seeds with double turns: the check must see them"
