"""What ``dicelog demo`` prints and when it stops early (``service/cli/demo.py``, the rulesets' ``demo``):
the board tables of each ruleset as the game goes (Mice and Mystics: the board and the initiative track;
Vast: the cave as a grid), a game stopped by ``--max-turns`` that still verifies, a game the server
refuses to create, a bot whose command is refused, a service that does not start, and a ruleset without
a demo. (A game played to its end: ``test_demo.py``.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar import Litestar

from dicelog.domain.core import registry
from dicelog.domain.vast.demo import cave_table
from dicelog.service.cli.demo import run_demo, running_service
from dicelog.service.cli.main import main
from dicelog.service.ops.settings import Settings


def _printed(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().out


def test_the_mice_and_mystics_demo_prints_the_log_board_and_initiative_and_stops_at_max_turns(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DICELOG_EMBEDDED_WORKER", "thread")
    assert run_demo("mice-and-mystics", seed=3, max_turns=4, quiet=False) == 0
    out = _printed(capsys)
    assert "dicelog demo --game mice-and-mystics" in out and "dice commitment sha256(seed) = " in out
    assert "Round 1 begins" in out and "Prince Collin starts on" in out, "the game log, as it is written"
    assert out.count("Board - hourglass page") >= 2, "after a round (4 turns) and at the end"
    assert "Initiative track - round" in out
    assert "stopped after 4 turns (no result yet)" in out
    assert "verify ok" in out and ", 0 with another seat's secret" in out


def test_the_vast_demo_prints_the_cave_as_it_grows(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DICELOG_EMBEDDED_WORKER", "thread")
    assert run_demo("vast", seed=2, max_turns=6, quiet=False, options={"roles": "knight,cave"}) == 0
    out = _printed(capsys)
    tables = re.findall(r"The cave: (\d+) tiles, stack (\d+)", out)
    assert len(tables) >= 2, "after 6 turns and at the end"
    assert "y\\x" in out, "the grid's header"
    assert "stopped after 6 turns (no result yet)" in out and "verify ok" in out


def test_the_cave_table_marks_each_tile_and_piece():
    board = {
        "board": {
            "stack": 20,
            "collapse": 3,
            "cells": [
                {"x": 0, "y": 0, "side": "entrance", "pieces": ["knight", "thief"]},
                {
                    "x": 1,
                    "y": 0,
                    "side": "lit",
                    "kind": "crystal-cave",
                    "crystal": True,
                    "pieces": ["dragon"],
                },
                {"x": 0, "y": -1, "side": "dark", "treasure": True, "vault": True, "gems": 2},
                {"x": 1, "y": -1, "side": "lit", "kind": None},
            ],
        }
    }
    table = cave_table(board)
    assert table.title == "The cave: 4 tiles, stack 20, collapse 3"
    assert table.columns == ("y\\x", "0", "1")
    assert table.rows == (("0", "EKT", "cr*D"), ("-1", "#$vg", "?"))
    assert (
        cave_table({}).rows == () and cave_table({}).title == "The cave: 0 tiles, stack None, collapse None"
    )


def test_mice_the_server_refuses_end_the_demo_before_it_plays(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    assert main(["demo", "--mice", "collin", "filch", "maginos", "nobody", "--quiet"]) == 1
    out = _printed(capsys)
    assert out.startswith("could not create the game: ") and "nobody" in out


def test_a_command_the_server_refuses_stops_the_demo(tmp_path, monkeypatch, capsys):
    """A bot that sends what is not legal (a bug in a plug-in's bot) ends the demo with the refusal, said
    even with ``--quiet``."""

    class Wrong:
        def choose(self, view: Any, commands: list[Any], rng: Any) -> dict[str, Any]:
            return {"type": "vast.EndTurn", "role": "dragon"}

        def decide(self, view: Any, pending: Any, options: list[Any], rng: Any) -> Any:
            return options[0]

    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(registry.get("vast"), "bot", Wrong())
    assert run_demo("vast", seed=1, max_turns=5, quiet=True, options={"roles": "knight,cave"}) == 1
    out = " ".join(_printed(capsys).split())
    assert "refused: {'type': 'vast.EndTurn', 'role': 'dragon'} -> " in out


def test_a_ruleset_without_a_bot_has_no_demo(monkeypatch):
    monkeypatch.setattr(registry.get("secret-hand"), "bot", None)
    with pytest.raises(ValueError, match="ruleset 'secret-hand' has no demo"):
        run_demo("secret-hand", seed=1, max_turns=1)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_service_that_does_not_start_is_an_error_not_a_hang(tmp_path):
    def fail() -> None:
        raise RuntimeError("start-up failed")

    with (
        pytest.raises(RuntimeError, match="the service did not start"),
        running_service(Settings(data_dir=tmp_path), Litestar(on_startup=[fail])),
    ):
        pass
