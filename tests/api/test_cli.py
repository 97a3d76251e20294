"""The ``dicelog`` command line: export a game from the store, verify it offline, check content; every bad
input (file, game id, ``DICELOG_*`` value, unreachable or missing store) is one line on standard error
and an exit code of its kind."""

from __future__ import annotations

import inspect
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.service.cli.main import (
    EXIT_CONFIG,
    EXIT_FAILED,
    EXIT_FILE,
    EXIT_GAME,
    EXIT_NOT_EMPTY,
    EXIT_OK,
    EXIT_SCHEMA,
    EXIT_STORE,
    main,
)
from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings, default_data_dir
from tests.api.conftest import Table

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("backend", ["sqlite"])  # the CLI reads the store named by DICELOG_* settings
def test_export_then_offline_verify_and_an_edited_line_is_named(client, tmp_path, monkeypatch, capsys):
    table = Table(client)
    mouse = table.summary()["turn"]
    assert table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}).status_code == 201
    monkeypatch.setenv("DICELOG_DATA_DIR", str(client.app.state.runtime.settings.data_dir))
    out = tmp_path / "game.jsonl"
    assert main(["export", table.id, "--output", str(out)]) == 0
    assert main(["verify", str(out)]) == 0
    assert "verified: all" in capsys.readouterr().out
    lines = out.read_bytes().splitlines()
    lines[5] = lines[5].replace(b'"seat":"server"', b'"seat":"red"')
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["verify", str(edited)]) == 1
    assert "DIVERGENCE at version 5" in capsys.readouterr().out


def test_content_check_passes_on_the_shipped_content(capsys):
    assert main(["content", "check"]) == 0
    assert "content ok" in capsys.readouterr().out


# --- bad input: one line on standard error, an exit code per kind ------------------------------

GAME = "3f2b8c1e-5d4a-4e6f-9a7b-0c1d2e3f4a5b"


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def empty_store(tmp_path, monkeypatch):
    """``DICELOG_*`` pointing at a migrated, empty SQLite store."""
    for name in [n for n in os.environ if n.startswith("DICELOG_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path / "store"))
    assert main(["migrate"]) == EXIT_OK
    return tmp_path / "store"


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (["verify", "{tmp}/missing.jsonl"], EXIT_FILE, "cannot read {tmp}/missing.jsonl: No such file"),
        (["verify", "{tmp}"], EXIT_FILE, "Is a directory"),
        (["verify", "{tmp}/garbage.jsonl"], EXIT_FILE, "is not a dicelog export"),
        (["export", "not-a-game"], EXIT_GAME, "not a game id: 'not-a-game'"),
        (["export", GAME], EXIT_GAME, f"no game {GAME} in SQLite in "),
        (["export", GAME, "--output", "{tmp}/no/such/dir/out.jsonl"], EXIT_GAME, "no game"),
        (["backup", "{tmp}/no/such/dir/b.jsonl"], EXIT_FILE, "cannot write {tmp}/no/such/dir/b.jsonl"),
        (["restore", "{tmp}/missing.jsonl"], EXIT_FILE, "cannot read {tmp}/missing.jsonl"),
        (["restore", "{tmp}/garbage.jsonl"], EXIT_FILE, "is not a dicelog backup"),
        (["content", "check", "--pack", "{tmp}/no-pack"], EXIT_FILE, "content pack"),
        (["openapi", "--output", "{tmp}/no/such/dir/openapi.json"], EXIT_FILE, "cannot write"),
    ],
)
def test_a_bad_input_is_one_line_on_stderr_and_its_exit_code(empty_store, tmp_path, capsys, argv, code, says):
    (tmp_path / "garbage.jsonl").write_text("hello\n")
    capsys.readouterr()
    assert main([a.format(tmp=tmp_path) for a in argv]) == code
    err = _one_line(capsys.readouterr().err)
    assert err.startswith(f"dicelog {argv[0]}: ") and says.format(tmp=tmp_path) in err
    assert not list(tmp_path.glob("**/*.partial"))


@pytest.mark.parametrize("backend", ["sqlite"])
def test_export_with_a_token_that_does_not_open_the_game_is_refused(client, capsys, monkeypatch):
    table = Table(client)
    monkeypatch.setenv("DICELOG_DATA_DIR", str(client.app.state.runtime.settings.data_dir))
    assert main(["export", table.id, "--token", "not-a-token"]) == EXIT_GAME
    assert "cannot export game" in _one_line(capsys.readouterr().err)


BAD_VALUES = [
    ("DICELOG_STORE", "mysql"),
    ("DICELOG_AUTO_MIGRATE", "perhaps"),
    ("DICELOG_POSTGRES_HOST", " "),
    ("DICELOG_POSTGRES_PORT", "54x2"),
    ("DICELOG_POSTGRES_PORT", "70000"),
    ("DICELOG_POSTGRES_DBNAME", ""),
    ("DICELOG_POSTGRES_USER", ""),
    ("DICELOG_POSTGRES_SCHEMA", ""),
    ("DICELOG_POSTGRES_POOL_SIZE", "0"),
    ("DICELOG_POSTGRES_MAX_OVERFLOW", "-1"),
    ("DICELOG_POSTGRES_CONNECT_TIMEOUT", "0"),
    ("DICELOG_POSTGRES_STATEMENT_TIMEOUT", "soon"),
    ("DICELOG_POSTGRES_LOCK_TIMEOUT", "-1"),
    ("DICELOG_POSTGRES_SOCKET_TIMEOUT", "7s"),
    ("DICELOG_POSTGRES_MAX_WAITING", "many"),
    ("DICELOG_POSTGRES_CONN_MAX_AGE", "forever"),
    ("DICELOG_POSTGRES_PRE_PING", "2"),
    ("DICELOG_POSTGRES_PREPARED_STATEMENTS", "never"),
    ("DICELOG_REDIS_URL", "localhost:6379"),
    ("DICELOG_STREAM_MAXLEN", "1e4"),
    ("DICELOG_STREAM_RETENTION", "1 week"),
    ("DICELOG_GLOBAL_STREAM_MAXLEN", "-5"),
    ("DICELOG_GLOBAL_STREAM_RETENTION", "1y"),
    ("DICELOG_ENDED_STREAM_RETENTION", "a day"),
    ("DICELOG_SNAPSHOT_INTERVAL", "ten"),
    ("DICELOG_EMBEDDED_WORKER", "sometimes"),
    ("DICELOG_WRITE_THREADS", "0"),
    ("DICELOG_LOG_LEVEL", "loud"),
    ("DICELOG_LOG_FORMAT", "xml"),
    ("DICELOG_WORKER_PORT", "eighty"),
    ("DICELOG_RATE_LIMIT_CREATE", "30"),
    ("DICELOG_RATE_LIMIT_COMMANDS", "lots"),
    ("DICELOG_RATE_LIMIT_EXPENSIVE", "often"),
    ("DICELOG_FORWARDED_ALLOW_IPS", "proxy.example.org"),
    ("DICELOG_SSE_HEARTBEAT", "0"),
    ("DICELOG_SSE_POLL_INTERVAL", "-2"),
    ("DICELOG_CORS_ORIGINS", "example.org"),
    ("DICELOG_SQLITE_LOCK_TIMEOUT", "0"),
    ("DICELOG_MAX_BODY_BYTES", "2MiB"),
    ("DICELOG_PARTITIONS", "0"),
    ("DICELOG_PARTITIONS", "4"),  # more than one needs PostgreSQL: the store is SQLite here
    ("DICELOG_LEASE_TTL", "soon"),
]


@pytest.mark.parametrize(("variable", "value"), BAD_VALUES)
def test_a_bad_dicelog_value_names_its_variable_and_exits_3(tmp_path, monkeypatch, capsys, variable, value):
    monkeypatch.setenv("DICELOG_DATA_DIR", str(tmp_path))
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=variable):
        Settings.from_env()
    for argv in (["serve"], ["worker"], ["export", GAME], ["backup", "-"], ["migrate"], ["demo"]):
        assert main(argv) == EXIT_CONFIG, argv
        err = _one_line(capsys.readouterr().err)
        assert (variable in err and repr(value) in err) or "must not be empty" in err, err


def test_every_variable_of_the_settings_is_checked_above():
    read = set(re.findall(r'read\("([A-Z_]+)"', inspect.getsource(Settings.from_env)))
    assert {f"DICELOG_{name}" for name in read} - {"DICELOG_POSTGRES_PASSWORD", "DICELOG_DATA_DIR"} == {
        variable for variable, _ in BAD_VALUES
    }


def test_every_variable_of_the_settings_is_in_the_operators_table():
    """docs/running.md's configuration table names every variable ``Settings.from_env`` reads (the
    PostgreSQL connection's share one row: ``DICELOG_POSTGRES_HOST`` / ``_PORT`` / ...)."""
    read = set(re.findall(r'read\("([A-Z_]+)"', inspect.getsource(Settings.from_env)))
    table = (Path(__file__).resolve().parents[2] / "docs" / "running.md").read_text(encoding="utf-8")
    missing = sorted(
        f"DICELOG_{name}"
        for name in read
        if f"`DICELOG_{name}`" not in table
        and not (name.startswith("POSTGRES_") and f"`_{name.removeprefix('POSTGRES_')}`" in table)
    )
    assert missing == []


def test_help_lists_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for code in (EXIT_FAILED, EXIT_CONFIG, EXIT_FILE, EXIT_GAME, EXIT_STORE, EXIT_SCHEMA, EXIT_NOT_EMPTY):
        assert f"\n  {code}  " in out


# --- the data directory ------------------------------------------------------------------------


def test_the_default_data_dir_is_absolute_and_follows_xdg(tmp_path, monkeypatch):
    assert default_data_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "dicelog"
    assert default_data_dir({"XDG_DATA_HOME": "relative"}) == Path.home() / ".local" / "share" / "dicelog"
    assert default_data_dir({}).is_absolute() and Settings().data_dir.is_absolute()
    monkeypatch.chdir(tmp_path)
    assert Settings.from_env({"DICELOG_DATA_DIR": "data"}).data_dir == tmp_path / "data"
    assert Settings.from_env({"DICELOG_DATA_DIR": "~/x"}).data_dir == Path.home() / "x"


def test_export_from_another_directory_reads_the_same_store_and_never_creates_an_empty_one(
    tmp_path, monkeypatch, capsys
):
    for name in [n for n in os.environ if n.startswith("DICELOG_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    settings = msgspec.structs.replace(Settings.from_env(), rate_limit_create="off")
    assert settings.data_dir == tmp_path / "xdg" / "dicelog"
    with TestClient(create_app(settings, start_worker=False)) as client:
        game = Table(client).id
    monkeypatch.chdir(tmp_path / "b")
    assert main(["export", game, "--output", "game.jsonl"]) == EXIT_OK
    assert main(["verify", "game.jsonl"]) == EXIT_OK
    # a relative directory that holds no store: an error, and nothing is created
    monkeypatch.setenv("DICELOG_DATA_DIR", "dicelog-data")
    capsys.readouterr()
    assert main(["export", game]) == EXIT_STORE
    err = _one_line(capsys.readouterr().err)
    assert f"no dicelog store in {tmp_path / 'b' / 'dicelog-data'} (DICELOG_DATA_DIR)" in err
    assert not (tmp_path / "b" / "dicelog-data").exists()


def test_a_store_left_in_the_old_default_directory_is_pointed_out(tmp_path, monkeypatch, capsys):
    for name in [n for n in os.environ if n.startswith("DICELOG_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DICELOG_DATA_DIR", "dicelog-data")
    assert main(["migrate"]) == EXIT_OK
    monkeypatch.delenv("DICELOG_DATA_DIR")
    capsys.readouterr()
    assert main(["export", GAME]) == EXIT_STORE
    err = _one_line(capsys.readouterr().err)
    assert f"set DICELOG_DATA_DIR={tmp_path / 'dicelog-data'} to use it" in err


# --- an unreachable PostgreSQL: named within 5 s ---------------------------------------------------


@pytest.fixture
def silent_server():
    """A TCP port that accepts connections and never answers (a hung or firewalled server)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    yield server.getsockname()[1]
    server.close()


UNREACHABLE = [["serve"], ["worker"], ["export", GAME], ["backup", "-"], ["migrate"], ["restore", "x.jsonl"]]


def _postgres_at(port: int, environ: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in environ.items() if not k.startswith("DICELOG_")}
    env.update(DICELOG_STORE="postgres", DICELOG_POSTGRES_PORT=str(port), DICELOG_POSTGRES_DBNAME="games_db")
    return env


def _closed_port() -> int:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    return port


@pytest.mark.parametrize("command", UNREACHABLE[:3])
def test_the_console_script_names_an_unreachable_postgresql_in_one_line(tmp_path, command):
    port = _closed_port()
    env = _postgres_at(port, dict(os.environ))
    done = subprocess.run(
        [sys.executable, "-m", "dicelog.service.cli.main", *command],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == EXIT_STORE, done.stderr
    err = _one_line(done.stderr)
    assert err == (
        f"dicelog {command[0]}: cannot connect to PostgreSQL at 127.0.0.1:{port}, "
        "database games_db, user postgres: Connection refused\n"
    )


@pytest.mark.parametrize("command", UNREACHABLE)
def test_a_postgresql_that_never_answers_is_named_within_5_seconds(
    tmp_path, silent_server, monkeypatch, capsys, command
):
    monkeypatch.chdir(tmp_path)
    _backup_file(tmp_path / "x.jsonl")
    for name, value in _postgres_at(silent_server, {}).items():
        monkeypatch.setenv(name, value)
    # the first command waits the default DICELOG_POSTGRES_CONNECT_TIMEOUT (4 s); the others 1 s, which
    # libpq rounds up to its least, 2 s: each of them waits what the setting says (and the suite 10 s less)
    default = command == UNREACHABLE[0]
    if not default:
        monkeypatch.setenv("DICELOG_POSTGRES_CONNECT_TIMEOUT", "1")
    started = time.monotonic()
    assert main(command) == EXIT_STORE
    took = time.monotonic() - started
    err = _one_line(capsys.readouterr().err)
    assert f"cannot connect to PostgreSQL at 127.0.0.1:{silent_server}, database games_db" in err
    assert "timeout" in err and took < (5.0 if default else 3.5), (took, err)


def _backup_file(path: Path) -> None:
    """An empty, valid backup (restore checks its file before it connects)."""
    from dicelog.service.store.backup import FORMAT

    path.write_text(
        f'{{"format":"{FORMAT}","dicelog_version":"0","schema_version":1,"created_at":"2026-01-01T00:00:00Z",'
        '"source":"test"}\n'
        f'{{"end":"{FORMAT}","events":0,"games":0,"campaigns":0,'
        '"sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}\n'
    )
