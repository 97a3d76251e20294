"""The ``dicelog`` command: ``serve``, ``worker``, ``migrate``, ``backup``, ``restore``, ``export``,
``verify``, ``demo``, ``openapi``, ``content check``.

Configuration other than host and port comes from ``DICELOG_*`` environment variables
(``dicelog.service.ops.settings``). Every bad input ends the command with one line on standard error,
``dicelog <command>: <what is wrong>``, and the exit code of its kind (``EXIT_CODES``, also in
``dicelog --help`` and docs/running.md): no traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn
from uuid import UUID

import msgspec

from dicelog.domain.core import registry
from dicelog.service.ops import logs
from dicelog.service.ops.settings import Settings

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_CONFIG = 3
EXIT_FILE = 4
EXIT_GAME = 5
EXIT_STORE = 6
EXIT_SCHEMA = 7
EXIT_NOT_EMPTY = 8

EXIT_CODES = {
    EXIT_OK: "success",
    EXIT_FAILED: "a check failed: a log or restored game does not verify, openapi.json is out of date, "
    "content findings",
    EXIT_USAGE: "bad command line (unknown command or option)",
    EXIT_CONFIG: "a DICELOG_* environment variable is malformed (the message names it)",
    EXIT_FILE: "a file is missing, unreadable, not writable, or not of the expected format",
    EXIT_GAME: "the game id is malformed, no such game, or the token does not open it",
    EXIT_STORE: "the store is unreachable (PostgreSQL host, port and database named) or missing "
    "(no SQLite store in the data directory)",
    EXIT_SCHEMA: "the store's schema is newer than this dicelog, or not migrated while "
    "DICELOG_AUTO_MIGRATE=false (run dicelog migrate)",
    EXIT_NOT_EMPTY: "restore refused: the store already holds events",
}


class CliError(Exception):
    """Ends a command: ``message`` is printed as one line on standard error, ``code`` is the exit code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def _fail(code: int, message: str) -> NoReturn:
    raise CliError(code, message)


# --- configuration and store -------------------------------------------------------------------


def _settings() -> Settings:
    """``Settings.from_env``; a malformed variable ends the command (``EXIT_CONFIG``). Sets up
    the process's logs as the settings say (``dicelog.service.ops.logs``: JSON lines by default)."""
    try:
        settings = Settings.from_env()
    except ValueError as e:
        _fail(EXIT_CONFIG, str(e))
    logs.configure(settings.log_level, settings.log_format)
    return settings


def _read_only(settings: Settings) -> Settings:
    """Settings for a command that only reads: it never creates a table."""
    return msgspec.structs.replace(settings, auto_migrate=False)


def _first_line(error: BaseException) -> str:
    """The useful part of a driver's message: its first line, after libpq's ``... failed:`` prefixes."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text.rsplit("failed: ", 1)[-1].strip()


def _legacy_data_dir_hint(settings: Settings) -> str:
    """A hint when ``./dicelog-data`` (the default data directory up to release 0.1) holds a store
    and ``DICELOG_DATA_DIR`` is unset."""
    legacy = Path("dicelog-data").resolve()
    if (
        "DICELOG_DATA_DIR" in os.environ
        or settings.data_dir == legacy
        or not (legacy / "games.sqlite").is_file()
    ):
        return ""
    return f"; {legacy} holds a store written with the old default: set DICELOG_DATA_DIR={legacy} to use it"


def _check_store(settings: Settings, *, create: bool) -> None:
    """Reach the store before anything else (at most ``DICELOG_POSTGRES_CONNECT_TIMEOUT`` seconds).

    ``create``: a command that may create the store (serve, worker, migrate, restore); otherwise the
    store must exist (export, backup), or the command would read an empty one. Ends the command with
    ``EXIT_STORE`` naming the SQLite directory, or PostgreSQL's host, port, database and user."""
    from dicelog.service.store.migrations import store_exists

    if settings.store == "sqlite":
        if create:
            try:
                settings.data_dir.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                _fail(
                    EXIT_STORE,
                    f"cannot create the data directory {settings.data_dir} (DICELOG_DATA_DIR): {e.strerror}",
                )
        elif not store_exists(settings):
            _fail(
                EXIT_STORE,
                f"no dicelog store in {settings.data_dir} (DICELOG_DATA_DIR): games.sqlite not found"
                f"{_legacy_data_dir_hint(settings)}",
            )
        return
    import psycopg

    try:
        exists = store_exists(settings)
    except psycopg.Error as e:
        _fail(
            EXIT_STORE,
            f"cannot connect to PostgreSQL at {settings.postgres_host}:{settings.postgres_port}, "
            f"database {settings.postgres_dbname}, user {settings.postgres_user}: {_first_line(e)}",
        )
    if not create and not exists:
        _fail(
            EXIT_STORE,
            f"no dicelog store in {settings.describe_store()}: table games_events not found "
            "(check DICELOG_POSTGRES_SCHEMA, or run dicelog migrate)",
        )


@contextmanager
def _store_errors(settings: Settings) -> Iterator[None]:
    """Store failures while a command runs end it with ``EXIT_STORE`` (where, and the driver's reason)."""
    import sqlite3

    import psycopg
    from eventsourcing.persistence import PersistenceError

    try:
        yield
    except (PersistenceError, psycopg.Error, sqlite3.Error) as e:
        _fail(EXIT_STORE, f"store error ({settings.describe_store()}): {_first_line(e)}")


def _ensure_schema(settings: Settings) -> None:
    """Before ``serve``/``worker``: the schema check of ``dicelog.service.store.migrations.ensure_schema``
    (exit ``EXIT_SCHEMA``), then the store's location logged (with a warning when ``./dicelog-data`` holds
    a store of the old default)."""
    from dicelog.service.store.migrations import SchemaError, ensure_schema

    try:
        with _store_errors(settings):
            version = ensure_schema(settings)
    except SchemaError as e:
        _fail(EXIT_SCHEMA, str(e))
    log = logging.getLogger("dicelog")
    log.info("store: %s, schema version %d", settings.describe_store(), version)
    if settings.store == "sqlite" and (hint := _legacy_data_dir_hint(settings)):
        log.warning("store: %s%s", settings.describe_store(), hint)


def _game_id(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        _fail(EXIT_GAME, f"not a game id: {text!r} (a UUID, e.g. 3f2b8c1e-5d4a-4e6f-9a7b-0c1d2e3f4a5b)")


@contextmanager
def _unclosed(stream: Any) -> Iterator[Any]:
    """Standard output as a file a command writes then leaves: flushed, not closed (``main`` may run
    in-process, in a test or a caller that prints after it)."""
    try:
        yield stream
    finally:
        stream.flush()


def _open_input(name: str) -> Any:
    """A file to read (``-``: standard input); ends the command with ``EXIT_FILE`` when it cannot be read."""
    if name == "-":
        return _unclosed(sys.stdin.buffer)
    try:
        return open(name, "rb")  # closed by the caller's with
    except OSError as e:
        _fail(EXIT_FILE, f"cannot read {name}: {e.strerror}")


# --- commands ------------------------------------------------------------------------------------


def _serve(args: argparse.Namespace) -> int:
    settings = _settings()
    _check_store(settings, create=True)
    _ensure_schema(settings)
    import uvicorn

    from dicelog.service.http.app import create_app

    # log_config=None: uvicorn's loggers keep the handler ``logs.configure`` installed (JSON lines)
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level=settings.log_level,
        log_config=None,
        **proxy_options(settings),
    )
    return EXIT_OK


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's ``proxy_headers``/``forwarded_allow_ips`` for ``dicelog serve``: the
    ``X-Forwarded-For``/``-Proto`` headers are trusted only from ``DICELOG_FORWARDED_ALLOW_IPS``
    (uvicorn's own default trusts 127.0.0.1, so a caller on the proxy's host could pick the address
    its quota counts); with none configured they are not read at all."""
    if not settings.forwarded_allow_ips:
        return {"proxy_headers": False, "forwarded_allow_ips": ""}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(settings.forwarded_allow_ips)}


def _worker(args: argparse.Namespace) -> int:
    """Run the projections and the Redis publisher until SIGTERM/SIGINT, with liveness,
    readiness and metrics on ``--port`` (``dicelog.service.worker.http_port``)."""
    settings = _settings()
    _check_store(settings, create=True)
    _ensure_schema(settings)
    import uvicorn

    from dicelog.service.http.app import Runtime
    from dicelog.service.worker.http_port import worker_app

    with _store_errors(settings):
        runtime = Runtime(settings)
    runtime.follower.poll_interval = args.poll_interval
    port = args.port if args.port is not None else settings.worker_port
    logging.getLogger("dicelog.worker").info(
        "worker following the notification log; probes and metrics on %s:%d", args.host, port
    )
    uvicorn.run(
        worker_app(runtime),
        host=args.host,
        port=port,
        log_level=settings.log_level,
        log_config=None,
        access_log=False,
    )
    return EXIT_OK


def _migrate(args: argparse.Namespace) -> int:
    """Create or upgrade the store's tables (``dicelog.service.store.migrations``); idempotent."""
    from dicelog.service.store.migrations import SCHEMA_VERSION, SchemaError, migrate, schema_version

    settings = _settings()
    _check_store(settings, create=True)
    try:
        with _store_errors(settings):
            if args.check:
                current = schema_version(settings)
                print(
                    f"{settings.describe_store()}: schema version {current}, this dicelog's {SCHEMA_VERSION}"
                )
                return EXIT_OK if current == SCHEMA_VERSION else EXIT_SCHEMA
            report = migrate(settings)
    except SchemaError as e:
        _fail(EXIT_SCHEMA, str(e))
    for migration in report.applied:
        print(f"applied migration {migration.version}: {migration.description}")
    state = "up to date" if not report.applied else f"migrated from version {report.before}"
    print(f"{settings.describe_store()}: schema version {report.after} ({state})")
    return EXIT_OK


def _backup(args: argparse.Namespace) -> int:
    """Write every game's and campaign's log, with the service's records, to a backup file."""
    settings = _read_only(_settings())
    _check_store(settings, create=False)
    from dicelog.service.app.games import Games
    from dicelog.service.store.backup import write_backup

    target = Path(args.path) if args.path != "-" else None
    partial = target.with_name(target.name + ".partial") if target is not None else None
    with _store_errors(settings):
        games = Games(settings.library_env("games"), snapshot_interval=0)
        try:
            try:
                out = partial.open("wb") if partial is not None else _unclosed(sys.stdout.buffer)
                with out as stream:
                    counts = write_backup(games, stream, source=settings.describe_store())
                if partial is not None and target is not None:
                    partial.replace(target)
            except OSError as e:
                if partial is not None:
                    partial.unlink(missing_ok=True)
                _fail(EXIT_FILE, f"cannot write {args.path}: {e.strerror or e}")
            except BaseException:
                if partial is not None:
                    partial.unlink(missing_ok=True)
                raise
        finally:
            games.close()
    print(
        f"backed up {counts.events} stored events ({counts.games} games, {counts.campaigns} campaigns) "
        f"from {settings.describe_store()} to {args.path}",
        file=sys.stderr if target is None else sys.stdout,
    )
    return EXIT_OK


def _restore(args: argparse.Namespace) -> int:
    """Restore a backup into an empty store, then verify every game."""
    from dicelog.service.app.games import Games
    from dicelog.service.store.backup import BackupFileError, StoreNotEmpty, check_backup, restore
    from dicelog.service.store.migrations import SchemaError, migrate

    settings = _settings()
    path = Path(args.path)
    try:
        header, counts = check_backup(path)
    except BackupFileError as e:
        _fail(EXIT_FILE, str(e))
    except SchemaError as e:
        _fail(EXIT_SCHEMA, str(e))
    except OSError as e:
        _fail(EXIT_FILE, f"cannot read {args.path}: {e.strerror or e}")
    _check_store(settings, create=True)
    try:
        with _store_errors(settings):
            migrate(settings)
            games = Games(
                _read_only(settings).library_env("games"), snapshot_interval=settings.snapshot_interval
            )
            try:
                report = restore(games, path, checked=counts, snapshot_interval=settings.snapshot_interval)
            finally:
                games.close()
    except SchemaError as e:
        _fail(EXIT_SCHEMA, str(e))
    except StoreNotEmpty as e:
        _fail(EXIT_NOT_EMPTY, f"{settings.describe_store()}: {e}")
    n = len(report.game_ids)
    print(
        f"restored {counts.events} stored events ({counts.games} games, {counts.campaigns} campaigns) from "
        f"{args.path} (dicelog {header.dicelog_version}, {header.created_at:%Y-%m-%d %H:%M:%S} UTC) into "
        f"{settings.describe_store()}"
    )
    for game_id, d in report.failures:
        where = (
            f"version {d.version} ({d.check}): expected {d.expected}, found {d.found}" if d else "no events"
        )
        print(f"game {game_id} does not verify: {where}", file=sys.stderr)
    print(
        f"verified {n - len(report.failures)} of {n} games"
        + (f"; {len(report.failures)} FAILED" if report.failures else ": all ok")
        + (f"; {report.snapshots} snapshots taken" if report.snapshots else "")
    )
    return EXIT_FAILED if report.failures else EXIT_OK


def _openapi(args: argparse.Namespace) -> int:
    """Write (or with --check, compare) openapi/openapi.json from the app, and with it (unless ``--output``
    names another file) the AsyncAPI document of the live channels, openapi/asyncapi.json, and redocly
    lint's ignore file (clients/typescript/lint/.redocly.lint-ignore.yaml)."""
    from dicelog.service.http.app import create_app
    from dicelog.service.http.asyncapi import ASYNCAPI_PATH, asyncapi_text
    from dicelog.service.http.openapi import LINT_IGNORE_PATH, OPENAPI_PATH, lint_ignore_text, schema_text

    text = schema_text(create_app(Settings(), start_worker=False))
    files = {args.output or OPENAPI_PATH: text}
    if args.output is None:
        document = msgspec.json.decode(text)
        files[ASYNCAPI_PATH] = asyncapi_text(document)
        files[LINT_IGNORE_PATH] = lint_ignore_text(document)  # redocly lint's accepted problems
    for path, content in files.items():
        if args.check:
            if not path.exists() or path.read_text() != content:
                print(f"{path} is out of date: run `dicelog openapi`", file=sys.stderr)
                return EXIT_FAILED
            print(f"{path} is up to date")
            continue
        try:
            path.write_text(content)
        except OSError as e:
            _fail(EXIT_FILE, f"cannot write {path}: {e.strerror}")
        print(f"wrote {path}")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    """Write a game's (or a campaign's) log as JSON Lines (reads the configured store directly).

    Without ``--token``: the full log exactly as stored (the operator is the auditor), which
    ``dicelog verify`` checks offline. With a game token: that reader's own view (events it may
    not see are stubs), the same as ``GET /games/{id}/events`` shows it. A campaign's id: its own
    log (``dicelog-campaign-export/1``, as ``GET /campaigns/{id}/export``; a token given must be one
    of the campaign's)."""
    settings = _read_only(_settings())
    game_id = _game_id(args.game)
    _check_store(settings, create=False)
    from dicelog.domain.core.campaign import CampaignStarted
    from dicelog.service.app.export import campaign_export_lines, export_lines, reader_export_lines
    from dicelog.service.app.games import GameNotFound, Games, Unauthorized
    from dicelog.service.store.persistence import decode_recorded

    with _store_errors(settings):
        games = Games(settings.library_env("games"), snapshot_interval=0)
        try:
            stored = games.recorder.select_events(game_id)
            if not stored:
                _fail(EXIT_GAME, f"no game {game_id} in {settings.describe_store()}")
            first = decode_recorded(game_id, 1, stored[0].topic, stored[0].state).payload
            if isinstance(first, CampaignStarted):  # a campaign's own log: every reader of it sees it whole
                if args.token is not None:  # without one, the operator reads it all
                    try:
                        games.reader(game_id, first.seats, first.visibility, args.token, "campaign")
                    except Unauthorized as e:
                        _fail(EXIT_GAME, f"cannot export campaign {game_id} with this token: {e}")
                records = [decode_recorded(game_id, s.originator_version, s.topic, s.state) for s in stored]
                lines = campaign_export_lines(game_id, records)
            elif args.token is not None:
                try:
                    game = games.game(game_id)
                    lens = games.lens(game, games.viewer(game, args.token))
                except (GameNotFound, Unauthorized) as e:
                    _fail(EXIT_GAME, f"cannot export game {game_id} with this token: {e}")
                lines = reader_export_lines(game, games.records(game_id), lens)
            else:
                lines = export_lines(game_id, stored, chain_format=getattr(first, "chain_format", 1))
            try:
                out = (
                    _unclosed(sys.stdout.buffer) if args.output in (None, "-") else open(args.output, "wb")  # noqa: SIM115
                )
                with out as stream:
                    for line in lines:
                        stream.write(line + b"\n")
            except OSError as e:
                _fail(EXIT_FILE, f"cannot write {args.output}: {e.strerror or e}")
        finally:
            games.close()
    return EXIT_OK


def _verify(args: argparse.Namespace) -> int:
    """Verify an exported log offline; exit 0 when every event re-derives (a full export), when the chain
    and every payload shown whole check (a reader's view), or when a reader's view matches the full export
    of the ended game (``--against``)."""
    from dicelog.service.app.export import verify_file

    with _open_input(args.file) as handle:
        try:
            if args.against is None:
                report = verify_file(handle)
            else:
                with open(args.against, "rb") as against:
                    report = verify_file(handle, against)
        except OSError as e:
            _fail(EXIT_FILE, f"cannot read {e.filename or args.file}: {e.strerror or e}")
    if report.ok:
        seed = (
            f"; dice re-derived from the revealed seed: {report.dice_checked:d}"
            if report.seed_revealed
            else ""
        )
        key = "; every salt derived from the revealed view key" if report.view_key_revealed else ""
        if report.digest_only:
            print(
                f"verified: the chain across all {report.events} events and every payload shown whole; "
                f"{len(report.digest_only)} payloads checked by digest only (versions "
                f"{_ranges(report.digest_only)}): verify with --against the full export after the end"
            )
        else:
            print(f"verified: all {report.events} events{seed}{key}")
        return EXIT_OK
    d = report.divergence
    if d is None:
        _fail(EXIT_FAILED, f"{args.file} does not verify")
    if d.check == "structure" and d.version == 0:
        _fail(EXIT_FILE, f"{args.file} is not a dicelog export: expected {d.expected}, found {d.found}")
    print(f"DIVERGENCE at version {d.version} ({d.check}):\n  expected: {d.expected}\n  found:    {d.found}")
    return EXIT_FAILED


def _ranges(versions: Sequence[int]) -> str:
    """``1-3, 7`` for ``[1, 2, 3, 7]``."""
    spans: list[list[int]] = []
    for v in versions:
        if spans and spans[-1][1] == v - 1:
            spans[-1][1] = v
        else:
            spans.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def _demo(args: argparse.Namespace) -> int:
    from dicelog.service.cli.demo import demos, run_demo

    _settings()  # a malformed DICELOG_* variable ends the demo before it starts
    found = demos()
    demo = found.get(args.game)
    if demo is None:
        _fail(EXIT_USAGE, f"no demo for ruleset {args.game!r} (demos: {', '.join(sorted(found))})")
    own = {option.dest for option in demo.options}
    for name, other in found.items():
        for option in other.options:
            if option.dest not in own and getattr(args, option.dest, None) is not None:
                _fail(EXIT_USAGE, f"{option.flag} is an option of the {name} demo; use it with --game {name}")
    options = {option.dest: getattr(args, option.dest, None) for option in demo.options}
    try:
        return run_demo(
            args.game, seed=args.seed, max_turns=args.max_turns, quiet=args.quiet, options=options
        )
    except ValueError as e:
        _fail(EXIT_USAGE, str(e))


def _content_check(args: argparse.Namespace) -> int:
    """Check a ruleset's content (its ``check_content``; with --pack: laid over by a content pack); exit 1 on
    any finding."""
    check = getattr(registry.get(args.game), "check_content", None)
    if check is None:
        _fail(EXIT_USAGE, f"ruleset {args.game!r} has no content check")
    try:
        findings, counts = check(args.pack)
    except (OSError, ValueError) as e:
        _fail(EXIT_FILE, f"content pack {args.pack}: {e}")
    for finding in findings:
        print(finding)
    print(f"{len(findings)} finding(s) in {counts}" if findings else f"content ok: {counts}")
    return EXIT_FAILED if findings else EXIT_OK


def parser() -> argparse.ArgumentParser:
    """The ``dicelog`` argument parser (its epilog lists the exit codes)."""
    codes = "\n".join(f"  {code}  {meaning}" for code, meaning in EXIT_CODES.items())
    root = argparse.ArgumentParser(
        prog="dicelog",
        description="Event-sourced rules service for tabletop games.",
        epilog=f"configuration: DICELOG_* environment variables (docs/running.md)\n\nexit codes:\n{codes}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = root.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 in a container or for replicas)",
    )
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=_serve)

    worker = sub.add_parser("worker", help="run the projections and the Redis publisher")
    worker.add_argument(
        "--poll-interval", type=float, default=0.5, help="seconds between passes (default 0.5)"
    )
    worker.add_argument(
        "--host",
        default="127.0.0.1",
        help="address of the probe and metrics port (default 127.0.0.1; 0.0.0.0 in a container)",
    )
    worker.add_argument(
        "--port",
        type=int,
        default=None,
        help="port of /live, /ready and /metrics (default DICELOG_WORKER_PORT, 8001)",
    )
    worker.set_defaults(func=_worker)

    migrate = sub.add_parser(
        "migrate", help="create or upgrade the store's tables (idempotent; run before serve)"
    )
    migrate.add_argument(
        "--check",
        action="store_true",
        help=f"only compare the store's schema version with this dicelog's (exit {EXIT_SCHEMA} "
        "when they differ)",
    )
    migrate.set_defaults(func=_migrate)

    backup = sub.add_parser("backup", help="write every game's and campaign's log to a backup file")
    backup.add_argument("path", help="the backup file (- for standard output); written whole or not at all")
    backup.set_defaults(func=_backup)

    restore = sub.add_parser("restore", help="restore a backup into an empty store, then verify every game")
    restore.add_argument("path", help="a file written by `dicelog backup`")
    restore.set_defaults(func=_restore)

    openapi = sub.add_parser("openapi", help="write openapi/openapi.json from the app")
    openapi.add_argument("--check", action="store_true", help="fail if the committed file differs")
    openapi.add_argument("--output", type=Path, default=None)
    openapi.set_defaults(func=_openapi)

    export = sub.add_parser("export", help="write a game's log as JSON Lines (from the configured store)")
    export.add_argument("game", help="game id")
    export.add_argument("--output", "-o", default=None, help="file (default: standard output)")
    export.add_argument(
        "--token",
        default=None,
        help="export this token's view of the game (default: the full log, as stored); "
        "write it as --token=T: a token may begin with '-'",
    )
    export.set_defaults(func=_export)

    verify = sub.add_parser("verify", help="verify an exported log offline")
    verify.add_argument("file", help="a file written by `dicelog export` (- for standard input)")
    verify.add_argument(
        "--against",
        default=None,
        metavar="FULL",
        help="with a reader's view taken during play: the full export of the ended game to check it against",
    )
    verify.set_defaults(func=_verify)

    demo = sub.add_parser(
        "demo",
        help="play a game with bot seats through the real HTTP API (Chapter 1, or a Vast setup of any roles)",
    )
    # the ruleset a command names when it names none: the one that says so (as a POST /games body without
    # ruleset; Mice and Mystics); with none, --game is required
    default_game = registry.default_when_unnamed(registry.names())
    demo.add_argument(
        "--game",
        default=default_game,
        required=default_game is None,
        choices=registry.names(),
        help="the ruleset to play (default: %(default)s)",
    )
    demo.add_argument("--seed", type=int, default=1, help="the bots' choices (dice come from the server)")
    demo.add_argument("--max-turns", type=int, default=2000, help="a safety stop after this many turns")
    demo.add_argument("--quiet", action="store_true", help="no board/log printing, only the summary")
    added: set[str] = set()
    for name in registry.names():  # each ruleset's demo options (dicelog.domain.core.ruleset.Demo)
        for option in getattr(getattr(registry.get(name), "demo", None), "options", ()):
            if option.dest not in added:
                added.add(option.dest)
                demo.add_argument(
                    option.flag,
                    dest=option.dest,
                    default=None,
                    help=option.help,
                    metavar=option.metavar,
                    nargs=option.nargs,
                )
    demo.set_defaults(func=_demo)

    content = sub.add_parser("content", help="game content as data")
    content_sub = content.add_subparsers(dest="content_command", required=True)
    content_check = content_sub.add_parser(
        "check", help="check the content's consistency; exit 1 on any finding"
    )
    content_check.add_argument(
        "--pack", type=Path, default=None, help="a content pack directory laid over it"
    )
    checked = [n for n in registry.names() if hasattr(registry.get(n), "check_content")]
    content_check.add_argument(
        "--game",
        default=default_game if default_game in checked else None,
        required=default_game not in checked,
        choices=checked,
        help="the ruleset whose content is checked (default: %(default)s)",
    )
    content_check.set_defaults(func=_content_check)
    return root


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dicelog`` console script; returns the exit code (``EXIT_CODES``)."""
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except CliError as e:
        print(f"dicelog {args.command}: {e}", file=sys.stderr)
        return e.code


if __name__ == "__main__":
    sys.exit(main())
