"""The embedded worker in a child process: ``DICELOG_EMBEDDED_WORKER=process`` (the default).

``dicelog serve`` runs the projections (board, initiative track, log, audit index) and the Redis publisher
itself unless told not to (``off``: a ``dicelog worker`` runs them). Run as threads of the API
process (``thread``), they share its one interpreter lock with the requests: with 32 clients on two
cores they took a third of the API's CPU and the commands/s fell by a quarter
(``bench/README.md`` §1). So by default the API process starts them in a child process of its own,
``python -m dicelog.service.worker.embedded_child``: the same ``Follower`` as ``dicelog worker``, without
its probe port, started and stopped with the API. Nothing else changes for a client: the read
models were already read from the store, and lag is reported the same way (``/ready``, metrics).

The parent talks to the child through the child's standard input only:

- the first line is the API's ``Settings`` as JSON (so the child uses exactly the parent's
  settings, however they were made; nothing secret goes on a command line or in the environment);
- each later line is a wake-up: the parent forwards its saves (``FanOut``), coalesced, so the child
  runs a pass within milliseconds of a commit, as the embedded thread did (the child also polls,
  and with Redis it gets the other processes' wake-ups like any worker);
- end of input means stop: the child finishes its pass, closes its store connections and exits.
  The parent closes it at shutdown; if the parent dies (even by ``kill -9``) the operating system
  closes it, so a child never outlives its API process.

The child ignores SIGINT (a Ctrl-C in a terminal reaches the whole process group; the parent's
shutdown stops the child in order). Its log lines go to the same standard error, in the same
format. When it exits on its own (a crash), the parent logs it and starts a new one, waiting 1 s,
then twice as long after each quick failure (at most 30 s); the projections' checkpoints are in
the store, so the new child resumes where the last one stopped.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import msgspec

from dicelog.service.ops.settings import Settings
from dicelog.service.store.fanout import FanOut

log = logging.getLogger("dicelog.worker")

MODULE = "dicelog.service.worker.embedded_child"
RESTART_FIRST = 1.0
"""Seconds before the first restart of a child that exited on its own."""
RESTART_MOST = 30.0
"""Longest wait between restarts (the wait doubles after each child that lived less than a minute)."""
STOP_TIMEOUT = 10.0
"""Seconds the parent waits for the child to stop after closing its input, before killing it."""


def encode_settings(settings: Settings) -> bytes:
    """``settings`` as one line of JSON (paths as strings)."""
    return msgspec.json.encode(settings, enc_hook=str) + b"\n"


def decode_settings(line: bytes) -> Settings:
    """The ``Settings`` of ``encode_settings``. Raises ``msgspec.ValidationError`` on anything else."""
    return msgspec.json.decode(
        line, type=Settings, dec_hook=lambda kind, value: Path(value) if kind is Path else value
    )


class WorkerProcess:
    """The API's child worker process (module docstring): ``start``, ``running``, ``stop``.

    ``fanout``: the API's wake-ups, forwarded to the child; ``command``: what to run (default
    ``python -m dicelog.service.worker.embedded_child`` with this interpreter).
    """

    def __init__(self, settings: Settings, fanout: FanOut, *, command: list[str] | None = None) -> None:
        self.settings = settings
        self.command = command or [sys.executable, "-m", MODULE]
        self._wake = fanout.waker()
        self._stopping = threading.Event()
        self._proc: subprocess.Popen[bytes] | None = None
        self._thread: threading.Thread | None = None
        self.restarts = 0

    def start(self) -> None:
        """Start the child and the thread that forwards wake-ups and restarts it."""
        self._spawn()
        self._thread = threading.Thread(target=self._run, name="dicelog-embedded-worker", daemon=True)
        self._thread.start()

    def running(self) -> bool:
        """Whether the child process is running now."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _spawn(self) -> None:
        proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, start_new_session=False)
        stdin: IO[bytes] = proc.stdin  # type: ignore[assignment]  # stdin=PIPE: never None
        try:
            stdin.write(encode_settings(self.settings))
            stdin.flush()
        except OSError:
            pass  # it died at once: the loop sees it exit and restarts it
        self._proc = proc
        self._started = time.monotonic()
        log.info("embedded worker started in process %d", proc.pid)

    def _run(self) -> None:
        delay = RESTART_FIRST
        while not self._stopping.is_set():
            woken = self._wake.wait(1.0)
            if self._stopping.is_set():
                return
            proc = self._proc
            if proc is None:
                return
            if proc.poll() is not None:
                lived = time.monotonic() - self._started
                delay = RESTART_FIRST if lived > 60 else delay
                log.warning(
                    "embedded worker (process %d) exited with %s; starting a new one in %.0f s",
                    proc.pid,
                    proc.returncode,
                    delay,
                )
                if self._stopping.wait(delay):
                    return
                delay = min(delay * 2, RESTART_MOST)
                self.restarts += 1
                self._spawn()
                continue
            if woken:
                self._wake.clear()
                try:
                    proc.stdin.write(b"\n")  # type: ignore[union-attr]  # stdin=PIPE: never None
                    proc.stdin.flush()  # type: ignore[union-attr]  # stdin=PIPE: never None
                except OSError:
                    pass  # the child is gone: seen at the next turn

    def stop(self) -> None:
        """Stop the child: close its input, wait up to ``STOP_TIMEOUT`` seconds, then kill it."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        proc = self._proc
        if proc is None:
            return
        try:
            proc.stdin.close()  # type: ignore[union-attr]  # stdin=PIPE: never None
        except OSError:
            pass
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            log.warning("embedded worker (process %d) did not stop in %.0f s: killed", proc.pid, STOP_TIMEOUT)
            proc.kill()
            proc.wait()
