"""Vast's bots (``dicelog.domain.vast.bot``) played as the server plays bot seats
(``dicelog.service.app.seat_bots.next_bot_command``), in the domain with server dice: each reads only its
seat's view (the ruleset's Lens) and sends legal commands; each role's bot wins a game on a fixed seed."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec
import pytest

from dicelog.domain.core.commands import Choose
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.game import Game, create, fold, run_command_and_auto_answers_records
from dicelog.domain.core.registry import rules_revision
from dicelog.domain.core.visibility import Lens, seat_viewer
from dicelog.domain.vast import bot
from dicelog.domain.vast.rules.setup import SETUPS
from dicelog.domain.vast.state import HIDDEN, wakefulness
from dicelog.service.app.seat_bots import legal_for, next_bot_command

AT = datetime(2026, 11, 26, tzinfo=UTC)


def new_game(row: str, n: int) -> Game:
    """Game ``n`` of setup ``row`` as ``bench/vast_bots.py`` plays it: one bot seat a role, server dice seeded
    by ``n``, every decision asked of its seat."""
    seed = n.to_bytes(32, "big")
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"setup": row})),
        seats=tuple(Seat(name=role, controls=(role,), bot=True) for role in SETUPS[row].roles),
        dice_mode="server",
        decision_policy="ask",
        dice_commitment=commitment(seed),
        rules_revision=rules_revision("vast"),
    )
    return fold(None, create(UUID(int=n), created, at=AT, seed=seed, command_id="c0"))


def lens_of(game: Game, viewer: Any) -> Lens:
    return Lens(game.ruleset, viewer)


def step(game: Game, n: int, i: int) -> Game | None:
    """The bot to move plays its command; ``None`` when no bot has a move."""
    move = next_bot_command(game, lens_of)
    if move is None:
        return None
    seat, command = move
    return fold(
        game,
        run_command_and_auto_answers_records(
            game, command, seat=seat, command_id=f"c{i}", at=AT, seed=n.to_bytes(32, "big")
        ),
    )


@pytest.mark.parametrize("row", ["knight-goblins-dragon-cave-thief", "knight-vs-cave", "goblins-solo"])
def test_each_bot_reads_only_its_seats_view_and_sends_a_legal_command(row, monkeypatch):
    seen: list[tuple[Any, list[Any], Any]] = []
    real = bot.choose

    def spy(view: Any, legal: Any, rng: random.Random) -> Any:
        chosen = real(view, legal, rng)
        seen.append((view, list(legal), chosen))
        return chosen

    monkeypatch.setattr(bot, "choose", spy)
    game = new_game(row, 3)
    checked = masked = 0
    for i in range(250):
        if game.result is not None:
            break
        before = len(seen)
        move = next_bot_command(game, lens_of)
        assert move is not None
        seat_name, command = move
        seat = next(s for s in game.created.seats if s.name == seat_name)
        if isinstance(command, Choose):
            assert command.option in game.pending.options  # type: ignore[union-attr]
        else:
            assert len(seen) == before + 1
            view, legal, chosen = seen[-1]
            # the bot's input is the seat's view, as GET /games/{id}/state serves it to that seat
            assert view == Lens(game.ruleset, seat_viewer(game.created.seats, seat_name)).state(game.state)
            assert legal == legal_for(game, seat) and chosen in legal and chosen is command
            # the same view, the same legal commands and the same seed choose the same command
            assert real(view, legal, random.Random(i)) == real(view, legal, random.Random(i))
            if seat_name == "knight":
                dark = [c for c in view.cells if not c.lit]
                assert all(c.tile == HIDDEN for c in dark)
                masked += len(dark)
            checked += 1
        # play raises RuleBroken on an illegal command
        game = fold(
            game,
            run_command_and_auto_answers_records(
                game, command, seat=seat_name, command_id=f"c{i}", at=AT, seed=(3).to_bytes(32, "big")
            ),
        )
    assert checked > 50
    if "knight" in SETUPS[row].roles:
        assert masked > 0


WINS = [
    ("knight-vs-dragon", "knight", 1),
    ("knight-vs-cave", "cave", 3),
    ("dragon-vs-cave", "dragon", 2),
    ("knight-vs-goblins", "goblins", 7),
    ("cave-vs-thief", "thief", 4),
    ("goblins-solo", "goblins", 1),
    ("knight-goblins-dragon-thief", "knight", 2),  # she kills the Dragon beside the Tribes and the Thief
    ("goblins-dragon-cave-thief", "cave", 2),  # the Collapse before the Tribes kill the Dragon
]
"""A row and a game number on which each role's bot wins (found with ``bench/vast_bots.py``; rules
revision 6's Event-deck draws changed the dice of some)."""


@pytest.mark.parametrize("row,role,n", WINS, ids=[w[1] for w in WINS])
def test_each_roles_bot_wins_a_game_on_a_fixed_seed(row, role, n):
    game: Game | None = new_game(row, n)
    for i in range(3_000):
        assert game is not None
        if game.result is not None:
            break
        game = step(game, n, i)
    assert game is not None and game.result == f"won:{role}"


def test_alone_the_sleeping_dragon_moves_a_pride_cube_every_turn():
    """Alone in the Dark (docs/vast/facts.md §7 Solo), the hard level's Dragon starts at 0 Wakefulness: it
    keeps still and slithers a cube onto the empty Pride-still track (Vast rulebook §Risveglio e Risalita in
    Superficie: one Pride cube a turn; §Poteri, Strisciare), so each of its first 7 turns moves one."""
    game: Game | None = new_game("dragon-solo-hard", 1)
    woke_by_round: dict[int, int] = {}
    for i in range(3_000):
        assert game is not None and game.result is None
        d = game.state.dragon
        assert d is not None
        woke_by_round.setdefault(game.state.round, wakefulness(d))
        if game.state.round > 8:
            break
        game = step(game, 1, i)
    assert [woke_by_round[r] for r in range(1, 9)] == list(range(8))


def test_alone_the_dragon_wins_the_hard_level_on_a_fixed_seed():
    """``dragon-solo-hard`` game 2 (``bench/vast_bots.py``): it wakes and surfaces on a Lit Crystal tile
    at the end of round 10 and walks home over Lit tiles in round 11, before 5 Crystal tiles collapse."""
    game: Game | None = new_game("dragon-solo-hard", 2)
    for i in range(3_000):
        assert game is not None
        if game.result is not None:
            break
        game = step(game, 2, i)
    assert game is not None and game.result == "won:dragon"
