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


def _demo(args: argparse.Namespace) -> int:
    from service.demo import run_demo

    return run_demo(seed=args.seed, mice=args.mice, max_turns=args.max_turns, quiet=args.quiet)


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

    demo = sub.add_parser("demo", help="play Chapter 1 with bot seats through the real HTTP API")
    demo.add_argument("--seed", type=int, default=1, help="the bots' choices (dice come from the server)")
    demo.add_argument("--mice", nargs=4, default=["collin", "filch", "maginos", "nez"], metavar="MOUSE")
    demo.add_argument("--max-turns", type=int, default=60, help="stop after this many mouse turns")
    demo.add_argument("--quiet", action="store_true", help="no board/log printing, only the summary")
    demo.set_defaults(func=_demo)

    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
