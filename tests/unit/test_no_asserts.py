"""Checks in production code cannot vanish (issue 12, Checks).

``python -O`` strips ``assert`` statements, and a failing one ended as a bare 500. Production code
(``domain/``, ``service/``, ``projections/``) therefore has none: bad input is a ``RuleBroken``
(a 4xx naming the rule), a state only a bug can produce is an ``InvariantViolated`` naming what
broke, and a narrowing that needs no check is written as a condition. This module walks the AST of
every production module, and runs a sample of the suite under ``python -O``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from dicelog.domain.core.errors import DomainError, InvariantViolated

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("domain", "service", "projections")

# Run under ``python -O``: the core's tests, a sample of the rules', and the test below that
# breaks an invariant on purpose (it must still raise with asserts stripped).
UNDER_O = (
    "tests/unit/core",
    "tests/unit/mice_and_mystics/test_turns.py",
    "tests/unit/mice_and_mystics/test_movement.py",
    "tests/unit/mice_and_mystics/test_mousetraps_and_water.py",
    "tests/unit/mice_and_mystics/test_search.py",
    "tests/unit/mice_and_mystics/test_random_play.py",
    "tests/unit/test_no_asserts.py::test_a_broken_invariant_raises_a_typed_error",
)


def production_modules() -> list[Path]:
    found = sorted(p for top in PRODUCTION for p in (ROOT / top).rglob("*.py"))
    assert len(found) > 50, "the production packages were not found"
    return found


def test_production_code_has_no_assert_statement():
    left = []
    for path in production_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        left += [
            f"{path.relative_to(ROOT)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Assert)
        ]
    assert left == [], f"assert statements vanish under python -O; raise InvariantViolated instead: {left}"


def test_production_code_raises_no_bare_assertion_error():
    """``raise AssertionError`` is an assert by another name: the typed error says what broke."""
    left = []
    for path in production_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                called = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(called, ast.Name) and called.id == "AssertionError":
                    left.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert left == []


def test_an_invariant_is_a_bug_not_a_refusal():
    """Not a ``DomainError``: the API's refusal handler (422/409 with a rule id) and the idempotent
    retry path, which catch ``DomainError``, never take a bug for bad input; it is a logged 500."""
    error = InvariantViolated("mouse-turn", "no mouse turn is open")
    assert not isinstance(error, DomainError)
    assert isinstance(error, RuntimeError)
    assert (error.invariant, error.detail) == ("mouse-turn", "no mouse turn is open")
    assert str(error) == "invariant mouse-turn broken: no mouse turn is open"


def test_a_broken_invariant_raises_a_typed_error():
    """Also run under ``python -O`` (below): the checks that replaced the asserts stay."""
    from dicelog.domain.core.events import DiceRolled
    from dicelog.domain.core.game import fold
    from dicelog.domain.mice_and_mystics.rules.combat import resolve_defense_roll
    from tests.unit.mice_and_mystics.scenario import chapter_1_table

    with pytest.raises(InvariantViolated, match="fold-records"):
        fold(None, [])
    state = chapter_1_table()
    assert state.attack is None
    with pytest.raises(InvariantViolated, match="attack-in-flight"):
        resolve_defense_roll(state, DiceRolled(reason="minion-defense", faces=(1,)))


def test_a_wrong_call_is_a_type_error():
    from dicelog.domain.mice_and_mystics.rules.graph import mouse_neighbours
    from dicelog.domain.mice_and_mystics.rules.sight import sees

    with pytest.raises(TypeError, match="must be a Library"):
        sees("not-a-library", "a", "b")
    with pytest.raises(TypeError, match="must be a Library"):
        mouse_neighbours("not-a-library", "a")


@pytest.mark.slow  # a second pytest over a sample of the suite (docs/testing.md)
def test_a_sample_of_the_suite_passes_under_python_O():
    probe = subprocess.run([sys.executable, "-O", "-c", "assert False"], capture_output=True, check=False)
    assert probe.returncode == 0, "python -O did not strip asserts"
    run = subprocess.run(
        [
            sys.executable,
            "-O",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-W",
            "ignore::pytest.PytestConfigWarning",
            "-m",
            "",  # the whole sample, its slow tests too (pyproject.toml's addopts leaves them out)
            *UNDER_O,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
