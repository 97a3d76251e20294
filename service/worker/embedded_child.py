"""The embedded worker's child process (``python -m dicelog.service.worker.embedded_child``; the protocol
is ``dicelog.service.worker.embedded``'s docstring): read the settings line, run the app's ``Runtime``
follower, run a pass on each wake-up line, stop at end of input. Apart from ``embedded_worker`` so that
the parent's side, which ``app`` imports, imports nothing of ``app``."""

from __future__ import annotations

import signal
import sys
from typing import IO, Any

from dicelog.service.http.app import Runtime
from dicelog.service.ops import logs
from dicelog.service.worker.embedded import decode_settings


def main(stdin: IO[bytes] | None = None) -> int:
    """The child: read the settings line, follow the store until end of input (module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    source = stdin or sys.stdin.buffer
    first = source.readline()
    if not first.strip():
        return 0  # the parent went away before it said anything
    settings = decode_settings(first)

    logs.configure(settings.log_level, settings.log_format)
    runtime: Any = Runtime(settings)
    runtime.follower.start()
    try:
        for _ in iter(source.readline, b""):
            runtime.fanout.deliver_all()
    finally:
        runtime.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
