"""The refined OpenAPI document (``service/http/openapi.py``) of deployments other than the committed one
(every built-in ruleset): one ruleset served, where ``POST /games`` takes a body without ``ruleset`` and
the document says so; Swagger UI showing the refined document; and the handler annotations the
refinement reads a body type from. (The committed document: ``test_openapi.py``,
``test_openapi_contract.py``; ``dicelog openapi --check``: ``test_cli_commands.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

import msgspec
import pytest
from litestar.params import Body
from litestar.response import Response, ServerSentEvent
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.http.openapi import _unwrap
from tests.api.conftest import settings_for


@pytest.fixture(scope="module")
def vast_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    settings, _ = settings_for("sqlite", tmp_path_factory.mktemp("vast-only"))
    with TestClient(create_app(settings, rulesets=("vast",))) as client:
        yield client


def test_with_one_ruleset_served_a_new_game_may_leave_out_its_ruleset_and_the_document_says_so(vast_only):
    doc = vast_only.get("/schema/openapi.json").json()
    body = doc["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/NewVastGame"}
    new_game = doc["components"]["schemas"]["NewVastGame"]
    assert "ruleset" not in new_game["required"]
    assert 'Default: `"vast"`' in new_game["properties"]["ruleset"]["description"]
    r = vast_only.post(
        "/games",
        json={
            "setup": {"roles": ["knight", "cave"]},
            "seats": [{"name": "knight", "controls": ["knight"]}, {"name": "cave", "controls": ["cave"]}],
        },
    )
    assert r.status_code == 201, r.text
    assert r.json()["game"]["ruleset"] == "vast"


def test_with_one_ruleset_served_its_events_are_one_union_of_it(vast_only):
    """``GameEvent`` has one member per served ruleset (``test_openapi_plugin_rulesets.py``), here one."""
    schemas = vast_only.get("/schema/openapi.json").json()["components"]["schemas"]
    assert schemas["GameEvent"]["anyOf"] == [{"$ref": "#/components/schemas/VastGameEvent"}]
    mapping = schemas["VastGameEvent"]["discriminator"]["mapping"]
    assert mapping["vast.TurnStarted"] == "#/components/schemas/VastTurnStarted"
    assert mapping["GameCreated"] == "#/components/schemas/GameCreated"
    assert "TurnStarted" not in mapping  # Mice and Mystics' events are not a Vast game's


def test_swagger_ui_shows_the_refined_document_from_the_vendored_bundle(vast_only):
    page = vast_only.get("/schema/swagger")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in page.text
    served = vast_only.get("/schema/openapi.json").json()
    assert served["paths"]["/games"]["post"]["operationId"] == "createGame"
    spec = page.text.split("spec: ", 1)[1].split("\n", 1)[0].rstrip(",")
    assert msgspec.json.decode(spec)["paths"]["/games"]["post"]["operationId"] == "createGame"


class Body_(msgspec.Struct):
    n: int


class Events(ServerSentEvent):
    pass


@pytest.mark.parametrize(
    ("annotation", "body"),
    [
        (Body_, Body_),
        (Annotated[Body_, Body(title="a body")], Body_),
        (Annotated[Response[Body_], Body()], Body_),
        (Response[Body_], Body_),
        (Annotated[int, msgspec.Meta(ge=0)], Annotated[int, msgspec.Meta(ge=0)]),
        (Response, None),
        (bytes, None),
        (None, None),
        (ServerSentEvent, None),
        (Events, None),
    ],
)
def test_the_body_type_of_a_handler_annotation(annotation, body):
    """``Annotated[X, Body]`` and ``Response[X]`` -> ``X``; a constrained type stays; no JSON body -> None."""
    assert _unwrap(annotation) == body
