"""``redocly lint`` with the recommended rules finds nothing in the committed OpenAPI document.

``@redocly/cli`` is pinned in ``clients/typescript/package.json`` (installed by ``npm ci`` in
``.ci/run``, or by this test when ``node_modules`` is missing); its configuration is
``clients/typescript/lint/redocly.yaml`` (``extends: recommended``; not in ``clients/typescript``
itself, where openapi-typescript would read it). The only problems accepted are listed in
``clients/typescript/lint/.redocly.lint-ignore.yaml``: ``operation-4xx-response`` on the operations
that take no parameter, no body and no token (no request to them is a client's error), and this test
checks the list is exactly those operations, so a new operation must declare its 4xx answers. Without
node or npm the test skips, or fails under ``REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import yaml

from tests.clients.conftest import OPENAPI, ROOT
from tests.services import _unavailable

CLIENT = ROOT / "clients" / "typescript"
METHODS = ("get", "post", "put", "patch", "delete")


def _redocly() -> str:
    npm = shutil.which("npm")
    if shutil.which("node") is None or npm is None:
        _unavailable("node", "Node.js 20 and npm are needed for redocly lint")
    if not (CLIENT / "node_modules" / ".package-lock.json").exists():
        installed = subprocess.run(
            [npm or "npm", "ci", "--no-audit", "--no-fund"],
            cwd=CLIENT,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert installed.returncode == 0, f"npm ci failed:\n{installed.stdout}\n{installed.stderr}"
    return str(CLIENT / "node_modules" / ".bin" / "redocly")


def _pointer(path: str, method: str) -> str:
    return f"#/paths/{path.replace('~', '~0').replace('/', '~1')}/{method}/responses"


def test_redocly_lint_recommended_finds_no_error_and_no_warning_but_the_listed_ones():
    linted = subprocess.run(
        [_redocly(), "lint", "../../openapi/openapi.json", "--config", "lint/redocly.yaml", "--format=json"],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(linted.stdout)
    problems = [(p["ruleId"], p["severity"], p["message"]) for p in report["problems"]]
    assert report["totals"]["errors"] == 0 and report["totals"]["warnings"] == 0, problems
    assert linted.returncode == 0, linted.stderr

    document: dict[str, Any] = json.loads(OPENAPI.read_text())
    public = {_pointer(p, m) for p, item in document["paths"].items() for m in item if m in METHODS}
    assert all(
        "security" in op for item in document["paths"].values() for m, op in item.items() if m in METHODS
    ), "every operation says its security (public ones: [])"
    silent = {
        _pointer(path, method)
        for path, item in document["paths"].items()
        for method, op in item.items()
        if method in METHODS and not op.get("parameters") and "requestBody" not in op and op["security"] == []
    }
    ignored = yaml.safe_load((CLIENT / "lint" / ".redocly.lint-ignore.yaml").read_text())
    accepted = ignored["../../../openapi/openapi.json"]
    assert set(accepted) == {"operation-4xx-response"}, "only operations without input go without a 4xx"
    assert set(accepted["operation-4xx-response"]) == silent and silent <= public
    assert report["totals"]["ignored"] == len(silent)
