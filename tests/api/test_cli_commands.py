"""The ``dicelog`` commands run in-process (``main(argv)``), each path a user can reach: ``serve`` and
``worker`` up to the server they hand to uvicorn, ``migrate``/``export``/``backup`` on a store that cannot
be made or read, ``backup`` to standard output and ``backup`` interrupted, ``restore`` of a backup from a
newer schema or of a game that does not verify, ``verify`` from standard input or ``--against`` a missing
file, ``openapi --check``, ``demo`` with a bad option or a ruleset without a demo, and ``python -m``. The
messages and exit codes are those of ``EXIT_CODES`` (docs/running.md). Bad ``DICELOG_*`` values and
unreachable stores are in ``test_cli.py``."""

from __future__ import annotations

import hashlib
import io
import os
import runpy
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.domain.core import registry
from dicelog.service.cli import main as cli
from dicelog.service.cli.main import (
    EXIT_FAILED,
    EXIT_FILE,
    EXIT_OK,
    EXIT_SCHEMA,
    EXIT_STORE,
    EXIT_USAGE,
    main,
)
from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.store.backup import FORMAT
from dicelog.service.store.migrations import SCHEMA_VERSION
from tests.api.conftest import NO_QUOTAS, Table
from tests.services import PG, drop_postgres_schema, postgres_schema

GAME = "3f2b8c1e-5d4a-4e6f-9a7b-0c1d2e3f4a5b"


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No ``DICELOG_*`` but a data directory (not created), the projections in this process."""
    for name in [n for n in os.environ if n.startswith("DICELOG_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path / "store"))
    monkeypatch.setenv("DICELOG_EMBEDDED_WORKER", "thread")
    return tmp_path / "store"


@pytest.fixture
def one_game(env: Path) -> str:
    """A store in ``env`` holding one Chapter 1 game with a move played; its id."""
    settings = Settings(data_dir=env, embedded_worker="off", **NO_QUOTAS)
    with TestClient(create_app(settings, start_worker=False)) as client:
        table = Table(client)
        mouse = table.summary()["turn"]
        assert table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}).status_code == 201
        return table.id


# --- serve and worker: the server handed to uvicorn -------------------------------------------------


class FakeUvicorn:
    """``uvicorn.run`` as ``serve`` and ``worker`` call it: records the options and runs the app's
    lifespan with one request (``probe``) instead of listening."""

    def __init__(self, probe: str) -> None:
        self.probe = probe
        self.options: dict[str, Any] = {}
        self.status = 0
        self.body: Any = None

    def run(self, app: Any, **options: Any) -> None:
        self.options = options
        with TestClient(app) as client:
            r = client.get(self.probe)
            self.status, self.body = r.status_code, r.json()


def test_serve_checks_the_store_then_runs_the_api_on_the_host_and_port_given(env, monkeypatch, capsys):
    import uvicorn

    fake = FakeUvicorn("/rulesets")
    monkeypatch.setattr(uvicorn, "run", fake.run)
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123"]) == EXIT_OK
    assert (env / "games.sqlite").is_file(), "serve creates and migrates the store it names"
    assert fake.options["host"] == "0.0.0.0" and fake.options["port"] == 8123
    # without DICELOG_FORWARDED_ALLOW_IPS no X-Forwarded-* header is read (uvicorn would trust 127.0.0.1)
    assert fake.options["proxy_headers"] is False and fake.options["forwarded_allow_ips"] == ""
    assert fake.status == 200 and {"mice-and-mystics", "vast"} <= {r["name"] for r in fake.body}

    monkeypatch.setenv("DICELOG_FORWARDED_ALLOW_IPS", "10.0.0.1,10.0.0.2")
    assert main(["serve"]) == EXIT_OK
    assert fake.options["host"] == "127.0.0.1" and fake.options["port"] == 8000
    assert fake.options["proxy_headers"] is True
    assert fake.options["forwarded_allow_ips"] == "10.0.0.1,10.0.0.2"


def test_worker_runs_its_probes_on_dicelog_worker_port_and_follows_at_the_interval_given(env, monkeypatch):
    import uvicorn

    from dicelog.service.http import app as http_app

    fake = FakeUvicorn("/live")
    followers: list[Any] = []
    real_runtime = http_app.Runtime

    def runtime(settings: Settings) -> Any:
        made = real_runtime(settings)
        followers.append(made.follower)
        return made

    monkeypatch.setattr(uvicorn, "run", fake.run)
    monkeypatch.setattr(http_app, "Runtime", runtime)
    monkeypatch.setenv("DICELOG_WORKER_PORT", "8765")
    assert main(["worker", "--poll-interval", "0.25"]) == EXIT_OK
    assert fake.options["port"] == 8765 and fake.options["host"] == "127.0.0.1"
    assert fake.options["access_log"] is False
    assert followers[0].poll_interval == 0.25
    assert fake.status == 200 and fake.body["status"] == "ok", fake.body
    assert main(["worker", "--port", "9001", "--host", "0.0.0.0"]) == EXIT_OK
    assert fake.options["port"] == 9001 and fake.options["host"] == "0.0.0.0"
    assert followers[1].poll_interval == 0.5


def test_serve_warns_when_the_old_default_directory_holds_a_store(env, tmp_path, monkeypatch, caplog):
    import uvicorn

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DICELOG_DATA_DIR", "dicelog-data")
    assert main(["migrate"]) == EXIT_OK
    monkeypatch.setenv("DICELOG_DATA_DIR", str(env))
    monkeypatch.setattr(uvicorn, "run", FakeUvicorn("/rulesets").run)
    monkeypatch.setattr(cli.logs, "configure", lambda *_: None)  # caplog's handler stays on the root
    with caplog.at_level("INFO", logger="dicelog"):
        assert main(["serve"]) == EXIT_OK
    said = [r.getMessage() for r in caplog.records if r.name == "dicelog"]
    assert f"store: SQLite in {env}, schema version {SCHEMA_VERSION}" in said
    # DICELOG_DATA_DIR is set: the store of the old default is not pointed out
    assert not any("old default" in line for line in said)
    monkeypatch.delenv("DICELOG_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    caplog.clear()
    with caplog.at_level("INFO", logger="dicelog"):
        assert main(["serve"]) == EXIT_OK
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(f"set DICELOG_DATA_DIR={tmp_path / 'dicelog-data'} to use it" in w for w in warned), warned


# --- stores that cannot be made or read ------------------------------------------------------------


def test_a_data_directory_that_cannot_be_created_is_named(env, tmp_path, monkeypatch, capsys):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path / "a-file" / "store"))
    assert main(["migrate"]) == EXIT_STORE
    err = _one_line(capsys.readouterr().err)
    assert f"cannot create the data directory {tmp_path / 'a-file' / 'store'} (DICELOG_DATA_DIR)" in err
    assert "Not a directory" in err


def test_a_store_file_that_is_not_a_database_is_a_store_error(env, capsys):
    env.mkdir()
    (env / "games.sqlite").write_bytes(b"not a database " * 40)
    for argv in (["export", GAME], ["backup", "-"], ["migrate"]):
        assert main(argv) == EXIT_STORE, argv
        err = _one_line(capsys.readouterr().err)
        assert err == f"dicelog {argv[0]}: store error (SQLite in {env}): file is not a database\n"


@pytest.mark.postgres
def test_a_postgresql_schema_without_dicelogs_tables_is_not_read_as_an_empty_store(env, monkeypatch, capsys):
    schema = postgres_schema()
    try:
        monkeypatch.setenv("DICELOG_STORE", "postgres")
        monkeypatch.setenv("DICELOG_POSTGRES_HOST", PG["host"])
        monkeypatch.setenv("DICELOG_POSTGRES_PORT", str(PG["port"]))
        monkeypatch.setenv("DICELOG_POSTGRES_DBNAME", PG["dbname"])
        monkeypatch.setenv("DICELOG_POSTGRES_USER", PG["user"])
        monkeypatch.setenv("DICELOG_POSTGRES_SCHEMA", schema)
        for argv in (["export", GAME], ["backup", "-"]):
            assert main(argv) == EXIT_STORE, argv
            err = _one_line(capsys.readouterr().err)
            assert f"schema {schema}" in err and "table games_events not found" in err, err
            assert "run dicelog migrate" in err
    finally:
        drop_postgres_schema(schema)


# --- export, backup, restore, verify ---------------------------------------------------------------


def test_export_to_a_file_that_cannot_be_written_is_a_file_error(one_game, tmp_path, capsys):
    assert main(["export", one_game, "--output", str(tmp_path / "no" / "such" / "dir.jsonl")]) == EXIT_FILE
    err = _one_line(capsys.readouterr().err)
    assert f"cannot write {tmp_path / 'no' / 'such' / 'dir.jsonl'}: No such file or directory" in err


def test_verify_reads_standard_input_and_names_a_missing_full_export(one_game, tmp_path, monkeypatch, capsys):
    export = tmp_path / "game.jsonl"
    assert main(["export", one_game, "--output", str(export)]) == EXIT_OK
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(export.read_bytes())))
    assert main(["verify", "-"]) == EXIT_OK
    assert capsys.readouterr().out.startswith("verified: all ")
    missing = tmp_path / "full.jsonl"
    assert main(["verify", str(export), "--against", str(missing)]) == EXIT_FILE
    assert f"dicelog verify: cannot read {missing}: No such file" in _one_line(capsys.readouterr().err)


def test_backup_to_standard_output_reports_on_standard_error(one_game, monkeypatch, capsys):
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, write_through=True))
    assert main(["backup", "-"]) == EXIT_OK
    lines = out.getvalue().splitlines()
    assert msgspec.json.decode(lines[0])["format"] == FORMAT
    trailer = msgspec.json.decode(lines[-1])
    assert trailer["games"] == 1 and trailer["events"] == len(lines) - 2
    err = capsys.readouterr().err
    assert err.startswith(f"backed up {trailer['events']} stored events (1 games, 0 campaigns) from SQLite")
    assert err.rstrip().endswith(" to -")


def test_an_interrupted_backup_leaves_no_file(one_game, tmp_path, monkeypatch):
    from dicelog.service.store import backup

    def interrupted(games: Any, out: Any, *, source: str) -> Any:
        out.write(b'{"format":"dicelog-backup/1"}\n')
        raise KeyboardInterrupt

    monkeypatch.setattr(backup, "write_backup", interrupted)
    with pytest.raises(KeyboardInterrupt):
        main(["backup", str(tmp_path / "b.jsonl")])
    assert not (tmp_path / "b.jsonl").exists() and not (tmp_path / "b.jsonl.partial").exists()


def _rewrite_trailer(lines: list[bytes]) -> list[bytes]:
    """The backup's trailer with the SHA-256 of its (edited) rows, as ``dicelog backup`` writes it."""
    digest = hashlib.sha256(b"".join(line + b"\n" for line in lines[1:-1])).hexdigest()
    trailer = msgspec.json.decode(lines[-1])
    return [*lines[:-1], msgspec.json.encode({**trailer, "sha256": digest})]


def test_restore_of_a_backup_from_a_newer_schema_is_refused(one_game, env, tmp_path, monkeypatch, capsys):
    path = tmp_path / "b.jsonl"
    assert main(["backup", str(path)]) == EXIT_OK
    lines = path.read_bytes().splitlines()
    header = msgspec.json.decode(lines[0])
    newer = msgspec.json.encode({**header, "schema_version": SCHEMA_VERSION + 1})
    path.write_bytes(b"\n".join([newer, *lines[1:]]) + b"\n")
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path / "target"))
    capsys.readouterr()
    assert main(["restore", str(path)]) == EXIT_SCHEMA
    err = _one_line(capsys.readouterr().err)
    assert f"(schema version {SCHEMA_VERSION + 1}), newer than this one" in err
    assert not (tmp_path / "target").exists()


def test_restore_names_each_game_that_does_not_verify_and_exits_1(one_game, tmp_path, monkeypatch, capsys):
    """A backup edited with its checksum recomputed passes the file's check; the restored game's replay
    does not (the server's roll recorded for another seat)."""
    path = tmp_path / "b.jsonl"
    assert main(["backup", str(path)]) == EXIT_OK
    lines = path.read_bytes().splitlines()
    edited = next(i for i, line in enumerate(lines) if b'"seat":"server"' in line)
    lines[edited] = lines[edited].replace(b'"seat":"server"', b'"seat":"red"', 1)
    path.write_bytes(b"\n".join(_rewrite_trailer(lines)) + b"\n")
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path / "target"))
    monkeypatch.setenv("DICELOG_SNAPSHOT_INTERVAL", "1")
    capsys.readouterr()
    assert main(["restore", str(path)]) == EXIT_FAILED
    captured = capsys.readouterr()
    assert f"game {one_game} does not verify: version " in captured.err
    assert "verified 0 of 1 games; 1 FAILED" in captured.out


def test_restore_snapshots_the_games_at_the_configured_interval(one_game, tmp_path, monkeypatch, capsys):
    path = tmp_path / "b.jsonl"
    assert main(["backup", str(path)]) == EXIT_OK
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path / "target"))
    monkeypatch.setenv("DICELOG_SNAPSHOT_INTERVAL", "2")
    capsys.readouterr()
    assert main(["restore", str(path)]) == EXIT_OK
    assert "verified 1 of 1 games: all ok; 1 snapshots taken" in capsys.readouterr().out


# --- openapi, demo, python -m ---------------------------------------------------------------------


def test_openapi_check_compares_the_three_committed_files_and_names_a_stale_one(tmp_path, capsys):
    from dicelog.service.http.asyncapi import ASYNCAPI_PATH
    from dicelog.service.http.openapi import LINT_IGNORE_PATH, OPENAPI_PATH

    assert main(["openapi", "--check"]) == EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{p} is up to date" for p in (OPENAPI_PATH, ASYNCAPI_PATH, LINT_IGNORE_PATH)]
    written = tmp_path / "openapi.json"
    assert main(["openapi", "--output", str(written)]) == EXIT_OK
    assert capsys.readouterr().out == f"wrote {written}\n"
    assert written.read_text() == OPENAPI_PATH.read_text()
    written.write_text(written.read_text().replace('"createGame"', '"makeGame"'))
    assert main(["openapi", "--check", "--output", str(written)]) == EXIT_FAILED
    assert capsys.readouterr().err == f"{written} is out of date: run `dicelog openapi`\n"
    assert main(["openapi", "--check", "--output", str(tmp_path / "missing.json")]) == EXIT_FAILED


def test_a_bad_demo_option_is_a_usage_error(env, capsys):
    assert main(["demo", "--game", "vast", "--setup", "no-such-row", "--quiet"]) == EXIT_USAGE
    assert _one_line(capsys.readouterr().err) == (
        "dicelog demo: no Vast setup 'no-such-row' (GET /content/vast/setups)\n"
    )


def test_a_ruleset_without_a_demo_is_named_with_the_demos_there_are(env, monkeypatch, capsys):
    monkeypatch.setattr(registry.get("secret-hand"), "demo", None)
    assert main(["demo", "--game", "secret-hand"]) == EXIT_USAGE
    err = _one_line(capsys.readouterr().err)
    assert err == "dicelog demo: no demo for ruleset 'secret-hand' (demos: mice-and-mystics, vast)\n"


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")
def test_python_m_runs_the_command_and_exits_with_its_code(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["dicelog", "verify", str(tmp_path / "missing.jsonl")])
    with pytest.raises(SystemExit) as stopped:
        runpy.run_module("dicelog.service.cli.main", run_name="__main__")
    assert stopped.value.code == EXIT_FILE
    assert "dicelog verify: cannot read" in _one_line(capsys.readouterr().err)
