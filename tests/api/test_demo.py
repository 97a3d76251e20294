"""``dicelog demo`` plays through the real HTTP API and ends by verifying the log; the game, the bot and the
options are the ruleset's (``Demo``, ``bot``), found through the registry."""

from __future__ import annotations

import random

import pytest

from dicelog.domain.mice_and_mystics.bot import choose_command
from dicelog.service.cli.demo import demos, run_demo


def test_the_demo_plays_turns_over_http_and_verifies_the_log(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    options = {"mice": ["collin", "filch", "maginos", "nez"]}
    assert run_demo("mice-and-mystics", seed=3, max_turns=8, quiet=True, options=options) == 0
    out = capsys.readouterr().out
    assert "verify ok" in out
    assert (tmp_path / "games.sqlite").exists(), "the game stays in the data directory"


def test_the_bot_policy_prefers_acting_to_ending_the_turn():
    commands = [{"type": "EndTurn", "mouse": "filch"}, {"type": "Move", "mouse": "filch"}]
    assert choose_command(commands, random.Random(0))["type"] == "Move"
    moves = [
        {"type": "MoveTo", "mouse": "filch", "path": ["A"]},
        {"type": "MoveTo", "mouse": "filch", "path": ["A", "B"]},
    ]
    assert choose_command(moves, random.Random(0))["path"] == ["A", "B"]


@pytest.mark.parametrize("roles", [None, "knight,cave"])
def test_the_vast_demo_plays_its_bots_to_a_win_and_verifies(tmp_path, monkeypatch, capsys, roles):
    assert {"mice-and-mystics", "vast"} <= set(demos())
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    assert run_demo("vast", seed=2, max_turns=400, quiet=True, options={"roles": roles}) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "won:" in out and "verify ok" in out and ", 0 with another seat's secret" in out


def test_the_vast_demo_plays_a_row_by_id_and_the_flag_is_vast_only(tmp_path, monkeypatch, capsys):
    """``dicelog demo --game vast --setup knight-vs-thief`` (Vast rulebook, Setup: the rows sharing their
    roles, the solo levels, are chosen by id); ``--setup`` with another game is a usage error."""
    from dicelog.service.cli.main import main

    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    argv = ["demo", "--game", "vast", "--setup", "knight-vs-thief", "--seed", "3", "--quiet"]
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "verify ok" in out and ", 0 with another seat's secret" in out
    assert main(["demo", "--setup", "knight-vs-thief"]) == 2
    assert "use it with --game vast" in capsys.readouterr().err
