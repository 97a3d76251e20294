"""The ``dicelog`` command: ``serve``, ``worker``, ``demo``.

Configuration other than host and port comes from ``DICELOG_*`` environment variables
(``service.settings``).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from domain.core import registry
from service.settings import Settings


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from service.app import create_app

    settings = Settings.from_env()
    logging.basicConfig(level=settings.log_level.upper())
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=settings.log_level.lower())
    return 0


def _worker(args: argparse.Namespace) -> int:
    """Run the projections and the Redis publisher until SIGTERM/SIGINT."""
    from service.app import Runtime

    settings = Settings.from_env()
    logging.basicConfig(level=settings.log_level.upper())
    runtime = Runtime(settings)
    runtime.follower.poll_interval = args.poll_interval
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    runtime.follower.start()
    logging.getLogger("dicelog.worker").info("worker following the notification log")
    stop.wait()
    runtime.close()
    return 0


def _openapi(args: argparse.Namespace) -> int:
    """Write (or with --check, compare) openapi/openapi.json from the app."""
    from service.app import create_app
    from service.openapi import OPENAPI_PATH, schema_text

    text = schema_text(create_app(Settings(), start_worker=False))
    path = args.output or OPENAPI_PATH
    if args.check:
        if not path.exists() or path.read_text() != text:
            print(f"{path} is out of date: run `dicelog openapi`", file=sys.stderr)
            return 1
        print(f"{path} is up to date")
        return 0
    path.write_text(text)
    print(f"wrote {path}")
    return 0


def _export(args: argparse.Namespace) -> int:
    """Write a game's log as JSON Lines (reads the configured store directly).

    Without ``--token``: the full log exactly as stored (the operator is the auditor), which
    ``dicelog verify`` checks offline. With a game token: that reader's own view (events it may
    not see are stubs), the same as ``GET /games/{id}/events`` shows it."""
    from uuid import UUID

    from service.application import Games, GameNotFound, Unauthorized
    from service.export import export_lines, export_view_lines

    settings = Settings.from_env()
    games = Games(settings.library_env("games"), snapshot_interval=0)
    try:
        game_id = UUID(args.game)
        stored = games.recorder.select_events(game_id)
        if not stored:
            print(f"no game {game_id} in {settings.store} store", file=sys.stderr)
            return 1
        if args.token is not None:
            try:
                game = games.game(game_id)
                lens = games.lens(game, games.viewer(game, args.token))
            except (GameNotFound, Unauthorized) as e:
                print(f"cannot export game {game_id} with this token: {e}", file=sys.stderr)
                return 1
            lines = export_view_lines(game, games.records(game_id), lens)
        else:
            lines = export_lines(game_id, stored)
        out = sys.stdout.buffer if args.output in (None, "-") else open(args.output, "wb")  # noqa: SIM115
        with out:
            for line in lines:
                out.write(line + b"\n")
    finally:
        games.close()
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Verify an exported log offline; exit 0 when every event re-derives."""
    from service.export import verify_file

    with (sys.stdin.buffer if args.file == "-" else open(args.file, "rb")) as handle:  # noqa: SIM115
        report = verify_file(handle)
    if report.ok:
        seed = "; dice re-derived from the revealed seed: %d" % report.dice_checked if report.seed_revealed else ""
        print(f"verified: all {report.events} events{seed}")
        return 0
    d = report.divergence
    assert d is not None
    print(f"DIVERGENCE at version {d.version} ({d.check}):\n  expected: {d.expected}\n  found:    {d.found}")
    return 1


def _demo(args: argparse.Namespace) -> int:
    from service.demo import DEMOS

    demo = DEMOS.get(args.game)
    if demo is None:
        print(f"no demo for ruleset {args.game!r} yet (demos: {', '.join(sorted(DEMOS))})", file=sys.stderr)
        return 2
    return demo(seed=args.seed, mice=args.mice, max_turns=args.max_turns, quiet=args.quiet)


def _content_check(args: argparse.Namespace) -> int:
    """Check the shipped content (with --pack: laid over by a content pack); exit 1 on any finding."""
    from domain.mice_and_mystics.content import library, library_with_pack
    from domain.mice_and_mystics.content_check import check

    try:
        lib = library_with_pack(args.pack) if args.pack else library()
    except (OSError, ValueError) as e:
        print(f"content pack {args.pack}: {e}", file=sys.stderr)
        return 1
    findings = check(lib)
    for finding in findings:
        print(finding)
    counts = f"{len(lib.tiles)} tiles, {len(lib.chapters)} chapters, {len(lib.search_cards)} search cards"
    print(f"{len(findings)} finding(s) in {counts}" if findings else f"content ok: {counts}")
    return 1 if findings else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dicelog`` console script."""
    parser = argparse.ArgumentParser(prog="dicelog", description="Event-sourced rules service for tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=_serve)

    worker = sub.add_parser("worker", help="run the projections and the Redis publisher")
    worker.add_argument("--poll-interval", type=float, default=0.5, help="seconds between passes (default 0.5)")
    worker.set_defaults(func=_worker)

    openapi = sub.add_parser("openapi", help="write openapi/openapi.json from the app")
    openapi.add_argument("--check", action="store_true", help="fail if the committed file differs")
    openapi.add_argument("--output", type=Path, default=None)
    openapi.set_defaults(func=_openapi)

    export = sub.add_parser("export", help="write a game's log as JSON Lines (from the configured store)")
    export.add_argument("game", help="game id")
    export.add_argument("--output", "-o", default=None, help="file (default: standard output)")
    export.add_argument("--token", default=None,
                        help="export this token's view of the game (default: the full log, as stored)")
    export.set_defaults(func=_export)

    verify = sub.add_parser("verify", help="verify an exported log offline")
    verify.add_argument("file", help="a file written by `dicelog export` (- for standard input)")
    verify.set_defaults(func=_verify)

    demo = sub.add_parser("demo", help="play Chapter 1 with bot seats through the real HTTP API")
    demo.add_argument("--game", default="mice-and-mystics", choices=registry.builtin_names(),
                      help="the ruleset to play (default: mice-and-mystics)")
    demo.add_argument("--seed", type=int, default=1, help="the bots' choices (dice come from the server)")
    demo.add_argument("--mice", nargs=4, default=["collin", "filch", "maginos", "nez"], metavar="MOUSE")
    demo.add_argument("--max-turns", type=int, default=2000, help="a safety stop after this many mouse turns")
    demo.add_argument("--quiet", action="store_true", help="no board/log printing, only the summary")
    demo.set_defaults(func=_demo)

    content = sub.add_parser("content", help="game content as data")
    content_sub = content.add_subparsers(dest="content_command", required=True)
    content_check = content_sub.add_parser("check", help="check the content's consistency; exit 1 on any finding")
    content_check.add_argument("--pack", type=Path, default=None, help="a content pack directory laid over it")
    content_check.set_defaults(func=_content_check)

    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
