"""The OpenAPI document is a product: valid, described, typed, with examples and links, and the
app keeps it over whole stateful scenarios (schemathesis following the document's links).

Issue "An API contract a client author can trust": every response typed, constraints kept,
``discriminator`` on every tagged union, ``additionalProperties: false`` where the server forbids
unknown fields, every operation, schema, property and parameter described, short operationIds,
``Location`` on 201s, an example per request body, ``links`` from ``POST /games``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.specs.openapi.checks import allow_header_conformance, positive_data_acceptance

from dicelog.service.cli.demo import running_service
from dicelog.service.http.openapi import EXAMPLES, OPENAPI_PATH, OPERATION_IDS
from dicelog.service.ops.settings import Settings
from tests.api.conftest import NO_QUOTAS

DOC: dict[str, Any] = json.loads(OPENAPI_PATH.read_text())
SCHEMAS: dict[str, Any] = DOC["components"]["schemas"]
OPERATIONS = [(path, method, op) for path, item in DOC["paths"].items() for method, op in item.items()]


def _walk(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{where}/{i}")


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = SCHEMAS[node["$ref"].rsplit("/", 1)[1]]
    return node


def test_the_document_is_valid_openapi_3_1():
    validate(DOC)
    assert DOC["openapi"].startswith("3.1")


def test_every_operation_has_a_short_unique_operation_id_a_summary_and_a_description():
    ids = [op["operationId"] for *_, op in OPERATIONS]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for path, method, op in OPERATIONS:
        assert re.fullmatch(r"[a-z][A-Za-z]{2,40}", op["operationId"]), (method, path, op["operationId"])
        assert op.get("summary") and op.get("description"), (method, path)
    assert {op["operationId"] for *_, op in OPERATIONS} >= set(OPERATION_IDS.values())


def test_every_parameter_schema_and_property_is_described():
    missing = [
        f"{method.upper()} {path} parameter {p['name']}"
        for path, method, op in OPERATIONS
        for p in op.get("parameters", ())
        if not p.get("description")
    ]
    for name, schema in SCHEMAS.items():
        if not schema.get("description"):
            missing.append(f"schema {name}")
        missing += [
            f"property {name}.{prop}"
            for prop, sub in schema.get("properties", {}).items()
            if not sub.get("description")
        ]
    assert not missing, f"{len(missing)} without a description, e.g. {missing[:20]}"


def test_every_response_is_typed_and_every_error_is_a_problem():
    for path, method, op in OPERATIONS:
        for status, response in op["responses"].items():
            for media_type, media in response.get("content", {}).items():
                schema = media.get("schema", {})
                if media_type == "application/problem+json":
                    assert schema == {"$ref": "#/components/schemas/Problem"}, (method, path, status)
                elif media_type == "application/json":
                    assert schema not in ({}, {"type": "string"}, {"type": "object"}), (method, path, status)


SCHEMA_KEYWORDS = ("type", "$ref", "oneOf", "anyOf", "allOf", "const", "enum")
"""A schema that has none of these says nothing about its value: any JSON (``{}`` or a description alone)."""


def test_no_schema_says_x_or_anything():
    """Variable-length tuples were ``items: {oneOf: [X, {}]}`` and free maps were untyped; the stored
    free-form event fields (``GameCreated.setup``, ``UndoApplied.state``...) were properties with a
    description and no schema at all."""
    schema_less = []
    for where, node in _walk(DOC):
        for key in ("oneOf", "anyOf"):
            assert {} not in node.get(key, []), where
        if node.get("type") == "object" and "properties" not in node and "$ref" not in node:
            assert "additionalProperties" in node, f"an untyped object at {where}"
        subschemas = [(f"{where}/properties/{k}", v) for k, v in node.get("properties", {}).items()]
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                subschemas.append((f"{where}/{key}", node[key]))
        schema_less += [at for at, sub in subschemas if not any(k in sub for k in SCHEMA_KEYWORDS)]
    assert not schema_less, f"{len(schema_less)} schema-less spots: {schema_less}"


def test_every_tagged_union_has_a_discriminator_naming_its_tag():
    unions = 0
    for where, node in _walk(DOC):
        members = node.get("anyOf") or node.get("oneOf")
        if not members or not all("$ref" in m for m in members) or len(members) < 2:
            continue
        tags = [_resolve(m).get("properties", {}).get("type", {}) for m in members]
        if all("enum" in t or "const" in t for t in tags):
            unions += 1
            assert node.get("discriminator", {}).get("propertyName") == "type", where
    assert unions >= 5


def test_request_bodies_forbid_unknown_fields_and_keep_their_constraints():
    request = SCHEMAS["CommandRequest"]
    assert request["additionalProperties"] is False
    assert request["properties"]["expected_version"]["anyOf"][0]["minimum"] == 0
    move_to = SCHEMAS["MoveTo"]
    assert move_to["additionalProperties"] is False
    assert (
        move_to["properties"]["path"]["items"]["type"] == "string"
        and move_to["properties"]["path"]["minItems"] == 1
    )
    for name in ("NewMiceAndMysticsGame", "ForkRequest", "NewCampaign", "RevertRequest"):
        assert SCHEMAS[name]["additionalProperties"] is False, name


def test_the_command_answer_is_a_typed_command_result():
    op = DOC["paths"]["/games/{game_id}/commands"]["post"]
    assert op["operationId"] == "sendCommand"
    assert op["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CommandResult"
    }
    events = _resolve(SCHEMAS["CommandResult"]["properties"]["events"]["items"])
    assert events["properties"]["payload"]["anyOf"][0] == {"$ref": "#/components/schemas/GameEvent"}
    legal = SCHEMAS["LegalCommands"]["properties"]["commands"]["items"]
    assert legal == {"$ref": "#/components/schemas/GameCommand"}


def test_every_201_declares_location_and_created_games_link_to_their_operations():
    created = [(p, m, op) for p, m, op in OPERATIONS if "201" in op["responses"]]
    assert len(created) >= 6
    for path, method, op in created:
        assert "Location" in op["responses"]["201"].get("headers", {}), (method, path)
    links = DOC["paths"]["/games"]["post"]["responses"]["201"]["links"]
    ids = {op["operationId"] for *_, op in OPERATIONS}
    assert {"getGame", "sendCommand", "getLegalCommands", "listEvents"} <= set(links)
    assert all(link["operationId"] in ids for link in links.values())


def test_every_request_body_has_an_example():
    for path, method, op in OPERATIONS:
        if "requestBody" in op:
            media = op["requestBody"]["content"]["application/json"]
            assert "example" in media, (method, path)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_service(Settings(data_dir=tmp_path_factory.mktemp("contract"), **NO_QUOTAS)) as base:
        yield base


def test_the_served_document_is_the_committed_one(live):
    # The first request builds the document (about 5 s of CPU for every command, event and view type): on
    # a busy machine that takes longer than httpx's default 5 s timeout.
    assert httpx.get(f"{live}/schema/openapi.json", timeout=120).json() == DOC


def test_each_example_is_accepted_by_the_live_app_and_201s_send_location(live):
    """The examples are schema-valid requests: never 400/415/5xx; the creations succeed and their
    ``Location`` leads to what was created."""
    game = httpx.post(f"{live}/games", json=EXAMPLES["createGame"])
    assert game.status_code == 201, game.text
    assert httpx.get(f"{live}{game.headers['location']}").json()["id"] == game.json()["game"]["id"]
    body = game.json()
    game_id, turn = body["game"]["id"], body["game"]["turn"]
    seat = next(s["name"] for s in body["game"]["seats"] if turn in s["controls"])
    token = next(t["token"] for t in body["tokens"] if t["seat"] == seat)
    auth = {"Authorization": f"Bearer {token}"}
    command = httpx.post(f"{live}/games/{game_id}/commands", json=EXAMPLES["sendCommand"], headers=auth)
    assert command.status_code in (201, 409, 422), command.text
    legal = httpx.get(f"{live}/games/{game_id}/legal-commands", headers=auth).json()
    version = legal["version"]
    sent = httpx.post(
        f"{live}/games/{game_id}/commands",
        headers=auth,
        json={"command": legal["commands"][0], "expected_version": version},
    )
    assert sent.status_code == 201, sent.text
    page = httpx.get(f"{live}{sent.headers['location']}").json()
    assert [e["version"] for e in page["events"]][: len(sent.json()["events"])] == [
        e["version"] for e in sent.json()["events"]
    ]
    fork = httpx.post(f"{live}/games/{game_id}/forks", json=EXAMPLES["forkGame"], headers=auth)
    assert fork.status_code in (201, 422), fork.text
    campaign = httpx.post(f"{live}/campaigns", json=EXAMPLES["createCampaign"])
    assert campaign.status_code == 201, campaign.text
    assert httpx.get(f"{live}{campaign.headers['location']}").status_code == 200
    revert = httpx.post(
        f"{live}{campaign.headers['location']}/reverts",
        json=EXAMPLES["requestCampaignRevert"],
        headers={"Authorization": f"Bearer {campaign.json()['tokens'][0]['token']}"},
    )
    assert revert.status_code in (201, 409, 422), revert.text


# --- Stateful: schemathesis follows the links from POST /games with the created game's token.

_stateful = schemathesis.openapi.from_dict(DOC).include(
    operation_id=[
        "createGame",
        "getGame",
        "sendCommand",
        "getLegalCommands",
        "listEvents",
        "getState",
    ]
)


class _Tokens:
    by_game: dict[str, str] = {}


@pytest.fixture(scope="module")
def stateful_machine(live):
    base = _stateful.as_state_machine()

    class Workflow(base):  # type: ignore[misc, valid-type]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            game_id = (case.path_parameters or {}).get("game_id")
            token = _Tokens.by_game.get(str(game_id))
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            return {"base_url": live, "headers": headers}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            if (
                case.operation.definition.raw.get("operationId") == "createGame"
                and response.status_code == 201
            ):
                body = response.json()
                _Tokens.by_game[body["game"]["id"]] = body["tokens"][0]["token"]

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            case.validate_response(
                response,
                transport_kwargs=kwargs or None,
                excluded_checks=[allow_header_conformance, positive_data_acceptance],
            )

    return Workflow


def test_stateful_scenarios_following_the_links_keep_the_contract(stateful_machine):
    """Bounded budget for CI: scenarios start with ``createGame`` and follow its links."""
    stateful_machine.run(
        settings=settings(
            max_examples=25,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert _Tokens.by_game, "no scenario created a game"


def test_a_games_documents_are_unions_tagged_by_ruleset():
    """``GameState``, ``BoardDocument`` and ``InitiativeDocument``: one member per served ruleset, each with
    ``ruleset`` required and constant, and a discriminator naming it (the live answers carry it: the
    response-validation test of tests/api/test_openapi.py checks ``/state``, ``/board``, ``/initiative``
    and the turn views against these schemas)."""
    for name in ("GameState", "BoardDocument", "InitiativeDocument"):
        union = SCHEMAS[name]
        assert union["discriminator"]["propertyName"] == "ruleset", name
        mapping = union["discriminator"]["mapping"]
        assert set(mapping) == {"mice-and-mystics", "vast"}, name
        for ruleset, ref in mapping.items():
            member = _resolve({"$ref": ref})
            assert member["properties"]["ruleset"]["const"] == ruleset and "ruleset" in member["required"]
        assert sorted(m["$ref"] for m in union["anyOf"]) == sorted(mapping.values())
