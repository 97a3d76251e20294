"""Clients generated from the committed OpenAPI document play against a live service.

The service runs with uvicorn on a free local port (``dicelog.service.cli.demo.running_service``), on SQLite
in the test's temporary directory, without quotas (games are played as fast as the server answers).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dicelog.service.cli.demo import running_service
from dicelog.service.ops.settings import Settings
from tests.api.conftest import NO_QUOTAS

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "openapi" / "openapi.json"
MICE = ["collin", "filch", "maginos", "nez"]
SEATS = {"red": ["collin", "filch"], "blue": ["maginos", "nez"]}
MAX_COMMANDS = 400
"""A safety stop: the clients' policy (fight, search, end the turn) loses Chapter 1 in ~100-150 commands."""


@pytest.fixture
def live_service(tmp_path: Path) -> Iterator[str]:
    """The base URL of a real dicelog service (SQLite under ``tmp_path``, no quotas)."""
    with running_service(Settings(data_dir=tmp_path / "data", **NO_QUOTAS)) as base_url:
        yield base_url
