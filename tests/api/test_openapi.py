"""The committed OpenAPI document matches the app, and the app keeps its promises (schemathesis)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import allow_header_conformance, positive_data_acceptance

from dicelog.service.cli.demo import running_service
from dicelog.service.http.app import create_app
from dicelog.service.http.openapi import OPENAPI_PATH, schema_text
from dicelog.service.ops.settings import Settings
from tests.api.conftest import MICE, NO_QUOTAS, SEATS


def test_the_committed_openapi_document_is_up_to_date():
    generated = schema_text(create_app(Settings(), start_worker=False))
    assert OPENAPI_PATH.read_text() == generated, "openapi/openapi.json is stale: run `dicelog openapi`"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A live server with one real game, so generated requests also reach existing games."""
    settings_ = Settings(data_dir=tmp_path_factory.mktemp("schemathesis"), **NO_QUOTAS)
    with running_service(settings_) as base:
        r = httpx.post(
            f"{base}/games", json={"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": SEATS}
        )
        body = r.json()
        yield {"base": base, "game": body["game"]["id"], "token": body["tokens"][0]["token"]}


_alternate = itertools.cycle((True, False))
_DOC = json.loads(OPENAPI_PATH.read_text())
OPERATIONS = {
    op["operationId"]: (path, method)
    for path, item in _DOC["paths"].items()
    if not path.endswith("/stream")  # the event stream never ends: tests/api/test_stream.py tests it
    for method, op in item.items()
}


@pytest.fixture(params=list(OPERATIONS))
def operation_schema(request: pytest.FixtureRequest) -> schemathesis.BaseSchema:
    """The document narrowed to one operation: one test item per operation, whose cases (the
    explicit examples, the coverage phase's boundary cases and the generated ones) are built when
    the item runs, on the worker that runs it, not when every worker collects the module."""
    return _narrowed(request, {})


@pytest.fixture(params=list(OPERATIONS))
def operation_schema_fuzzing(request: pytest.FixtureRequest) -> schemathesis.BaseSchema:
    """As ``operation_schema``, with generated cases only: the examples and the coverage phase are
    the default profile's, and would be the same cases again."""
    return _narrowed(request, {"examples": {"enabled": False}, "coverage": {"enabled": False}})


def _narrowed(request: pytest.FixtureRequest, phases: dict[str, Any]) -> schemathesis.BaseSchema:
    """The document with every operation but ``request.param`` turned off in its configuration
    (``[[operations]]``). The others stay in the document, so their methods are declared ones,
    never sent as unexpected methods. Not ``include``: ``from_fixture`` replaces a loaded schema's
    own ``include``/``exclude`` filters with the lazy schema's (none), so such a schema would run
    every operation in every item."""
    # schemathesis 4.32's lazy loader reads and renames the item's ``_nodeid``, which pytest 9.2's
    # items no longer have (their id is ``nodeid``): give it one to read; pytest reports the item
    # under its own id, ``[operationId]``.
    request.node._nodeid = request.node.nodeid
    config = {"phases": phases, "operations": [{"exclude-operation-id": request.param, "enabled": False}]}
    return schemathesis.openapi.from_dict(_DOC, config=SchemathesisConfig.from_dict(config))


@schemathesis.pytest.from_fixture("operation_schema").parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_every_response_matches_the_schema(case, live, request):
    _call_and_validate(case, live, request.node.callspec.params["operation_schema"])


@pytest.mark.slow  # 100 generated cases per operation (4 times the default), one request each
@schemathesis.pytest.from_fixture("operation_schema_fuzzing").parametrize()
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_every_response_matches_the_schema_on_more_generated_cases(case, live, request):
    _call_and_validate(case, live, request.node.callspec.params["operation_schema_fuzzing"])


def _call_and_validate(case: schemathesis.Case, live: dict[str, str], operation_id: str) -> None:
    assert case.operation.definition.raw["operationId"] == operation_id  # one operation per item
    positive = case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE
    if positive and case.path_parameters and "game_id" in case.path_parameters and next(_alternate):
        case.path_parameters["game_id"] = live["game"]  # every other valid case hits the real game
    case.call_and_validate(
        base_url=live["base"],
        headers={"Authorization": f"Bearer {live['token']}"},
        # Excluded, everything else is checked:
        # - Litestar 2.x lists only one method in the automatic OPTIONS answer of a path that has
        #   several handlers (litestar-org/litestar#4169, fixed in 3.0);
        # - a schema-valid command may still break a game rule: its documented 422 is the rules
        #   engine working, not a rejected valid request.
        excluded_checks=[allow_header_conformance, positive_data_acceptance],
    )
