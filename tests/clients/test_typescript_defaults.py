"""openapi-typescript with its default options types a minimal client that ``tsc --strict`` compiles.

``clients/typescript/minimal/minimal.ts`` creates a game with the smallest body (ruleset, setup, seats:
every other field has a server default) and reads its state. Its types come from openapi-typescript run
on ``openapi/openapi.json`` with no option (the ``generate-defaults`` script of
``clients/typescript/package.json``), which reads a ``default`` in a component as "always present": so
request bodies use request schemas whose defaults are described, not declared (``SeatInput`` beside the
answers' ``Seat``; ``dicelog.service.http.openapi._request_schemas``). Without node or npm the test skips, or
fails under ``REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess

from tests.clients.test_redocly_lint import CLIENT, _redocly


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=CLIENT, capture_output=True, text=True, timeout=300, check=False)


def test_openapi_typescript_default_options_type_a_minimal_client_that_compiles_strictly():
    _redocly()  # node, npm and the pinned packages (npm ci when missing)
    script = shlex.split(json.loads((CLIENT / "package.json").read_text())["scripts"]["generate-defaults"])
    assert script[0] == "openapi-typescript" and not any(
        a.startswith("--") and a != "--output" for a in script
    )
    generated = _run([str(CLIENT / "node_modules" / ".bin" / script[0]), *script[1:]])
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert not re.search(r"warn|error|⚠", output, re.IGNORECASE), output
    compiled = _run(
        [str(CLIENT / "node_modules" / ".bin" / "tsc"), "-p", "minimal/tsconfig.json", "--strict"]
    )
    assert compiled.returncode == 0 and "error TS" not in compiled.stdout, compiled.stdout + compiled.stderr
    source = re.sub(r"//.*", "", (CLIENT / "minimal" / "minimal.ts").read_text())
    assert not re.search(r"\bany\b|\bas\s+(unknown|any)\b|@ts-(ignore|expect-error|nocheck)", source)
