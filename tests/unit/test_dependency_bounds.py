"""Dependencies are bounded, and the installed ones are within the bounds (issue 12, Checks).

``verify`` re-encodes every stored event with msgspec and compares the bytes with the stored ones
(``domain/core/verify.py``): an encoder that wrote one byte differently would fail every game
written before it. So msgspec is held to the minor release verify was checked with, and the bytes
of a representative envelope are pinned here too.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import msgspec
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
VERIFIED_MSGSPEC = SpecifierSet(">=0.22,<0.23")
"""The msgspec releases verify's byte comparison was checked with (tests/property, tests/api)."""


def requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    return [Requirement(r) for r in (*project["dependencies"], *extras.get("test", ()))]


def test_every_runtime_and_test_dependency_has_an_upper_bound():
    unbounded = [
        str(r)
        for r in requirements()
        if not any(s.operator in ("<", "<=", "==", "~=", "===") for s in r.specifier)
    ]
    assert unbounded == []


def test_the_installed_versions_are_within_the_bounds():
    outside = [
        f"{r} (installed {version(r.name)})"
        for r in requirements()
        if not r.specifier.contains(Version(version(r.name)), prereleases=True)
    ]
    assert outside == []


def test_msgspec_is_held_to_the_release_verify_was_checked_with():
    declared = next(r for r in requirements() if r.name == "msgspec")
    assert declared.specifier == VERIFIED_MSGSPEC
    assert Version(msgspec.__version__) in VERIFIED_MSGSPEC


class _Payload(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    faces: tuple[int, ...]
    note: str | None = None
    setup: msgspec.Raw = msgspec.Raw(b"{}")


class _Envelope(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    payload: _Payload
    ratio: float = 0.5


def test_msgspec_encodes_an_envelope_to_the_bytes_stored_games_hold():
    envelope = _Envelope(
        seat="s\u00e9at", payload=_Payload(faces=(6, 1), setup=msgspec.Raw(b'{"b":1,"a":[2]}'))
    )
    assert msgspec.json.encode(envelope) == (
        b'{"seat":"s\xc3\xa9at","payload":{"type":"_Payload","faces":[6,1],"note":null,'
        b'"setup":{"b":1,"a":[2]}},"ratio":0.5}'
    )


def test_ci_lints_with_the_pinned_ruff_and_an_explicit_rule_selection():
    """``.ci/run`` runs ``ruff check .`` before the tests, with the ruff the test extra pins and the
    rules pyproject.toml selects (not ruff's defaults, which change between releases)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lint = pyproject["tool"]["ruff"]["lint"]
    assert {"E", "W", "F", "I", "B"} <= set(lint["select"])
    assert pyproject["tool"]["ruff"]["line-length"] == 110
    ruff = next(r for r in requirements() if r.name == "ruff")
    assert [s.operator for s in ruff.specifier] == ["=="]
    assert Version(version("ruff")) in ruff.specifier
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    lint_at = run.index(".venv/bin/ruff check .")
    tests_at = next(i for i, line in enumerate(run) if line.endswith(".venv/bin/pytest -n 2"))
    assert lint_at < tests_at
