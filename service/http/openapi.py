"""The OpenAPI document: Litestar's paths, msgspec's schemas, the code's docstrings.

Litestar builds the paths, parameters, security and response codes from the route handlers.
Its schemas of msgspec Structs lose what a client needs (docstrings, constraints inside
optionals, tagged-union discriminators, ``additionalProperties: false``, item types of
variable-length tuples), so ``refine`` replaces every request and response schema with the one
msgspec itself generates (``msgspec.json.schema_components``) for the handler's declared type,
adds each Struct field's attribute docstring as the property's description
(``dicelog.service.http.openapi_docs``),
and fills the per-app *slots* (``openapi_slots``: ``StateSlot``, ...): a field typed by the served
rulesets, e.g. a game's state, whose schema is the union of the rulesets' own types. Events are scoped by
ruleset, then by type (``SCOPED_SLOTS``: two rulesets may store the same tag), and a plug-in's class whose
name another class has is prefixed by its ruleset (``_component_names``).

It also gives every operation a short stable ``operationId``, request-body examples, and the
``links`` from a created game to its operations. The served ``/schema/openapi.json`` and the
committed ``openapi/openapi.json`` are the same refined document (a drift test compares them).
"""

from __future__ import annotations

import copy
import re
import typing
from pathlib import Path
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.openapi.spec import Components, License, SecurityScheme
from litestar.response import Response, ServerSentEvent
from msgspec import Meta

from dicelog.service.bodies.exports import StoredEnvelope
from dicelog.service.bodies.openapi_slots import JSON_FORM, SLOT_KEY
from dicelog.service.bodies.stored_events import MIRRORS, STORED_DOCUMENTS, PartySetup, stored_setup_type
from dicelog.service.http.openapi_docs import class_doc, field_docs
from dicelog.service.http.problem_types import PROBLEM, PROBLEM_TYPES
from dicelog.service.http.quotas import quota_of_operation

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
REF = "#/components/schemas/{name}"
# ---------------------------------------------------------------------------------------------
# Operation ids: short and stable (clients generate method names from them).

OPERATION_IDS: dict[tuple[str, str], str] = {
    ("get", "/games"): "listGames",
    ("post", "/games"): "createGame",
    ("get", "/games/{game_id}"): "getGame",
    ("post", "/games/{game_id}/commands"): "sendCommand",
    ("get", "/games/{game_id}/legal-commands"): "getLegalCommands",
    ("get", "/games/{game_id}/events"): "listEvents",
    ("get", "/games/{game_id}/state"): "getState",
    ("get", "/games/{game_id}/board"): "getBoard",
    ("get", "/games/{game_id}/initiative"): "getInitiative",
    ("get", "/games/{game_id}/log"): "getLog",
    ("get", "/games/{game_id}/stream"): "streamEvents",
    ("get", "/stream"): "streamGames",
    ("post", "/games/{game_id}/verify"): "verifyGame",
    ("get", "/games/{game_id}/export"): "exportGame",
    ("post", "/games/{game_id}/forks"): "forkGame",
    ("post", "/games/{game_id}/claims"): "claimPlace",
    ("post", "/games/{game_id}/tokens/rotate"): "rotateToken",
    ("post", "/games/{game_id}/tokens/revoke"): "revokeToken",
    ("post", "/campaigns/{campaign_id}/tokens/rotate"): "rotateCampaignToken",
    ("post", "/campaigns/{campaign_id}/tokens/revoke"): "revokeCampaignToken",
    ("get", "/games/{game_id}/turns/{number}"): "getTurn",
    ("get", "/games/{game_id}/rounds/{number}"): "getRound",
    ("get", "/games/{game_id}/dice"): "getDiceProof",
    ("post", "/campaigns"): "createCampaign",
    ("get", "/campaigns/{campaign_id}"): "getCampaign",
    ("post", "/campaigns/{campaign_id}/chapters"): "startNextChapter",
    ("post", "/campaigns/{campaign_id}/carry-over"): "chooseCarryOver",
    ("post", "/campaigns/{campaign_id}/reverts"): "requestCampaignRevert",
    ("post", "/campaigns/{campaign_id}/reverts/approval"): "approveCampaignRevert",
    ("get", "/rulesets"): "listRulesets",
    ("get", "/health"): "getHealth",
    ("get", "/ready"): "getReadiness",
}


def _camel(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def operation_id(method: str, path: str, rulesets: tuple[str, ...]) -> tuple[str, bool]:
    """The operationId of ``method path`` and whether the operation is deprecated.

    Content of a ruleset: ``list<Ruleset><Kind>`` / ``get<Ruleset><Kind>`` (e.g.
    ``listMiceAndMysticsTiles``, ``getMiceAndMysticsTile``); the ruleset-less ``/content/<kind>``
    aliases of release 0.1 end in ``Legacy`` and are deprecated.
    """
    if (method, path) in OPERATION_IDS:
        return OPERATION_IDS[(method, path)], False
    parts = [p for p in path.split("/") if p]
    if parts and parts[0] == "content":
        legacy = len(parts) < 3 or parts[1] not in rulesets
        ruleset = "" if legacy else _camel(parts[1])
        kind = parts[1] if legacy else parts[2]
        if parts[-1].startswith("{"):
            name = f"get{ruleset}{_camel(kind).removesuffix('s')}"
        else:
            name = f"list{ruleset}{_camel(kind)}"
        return name + ("Legacy" if legacy else ""), legacy
    return method + _camel(path), False


# ---------------------------------------------------------------------------------------------
# Examples and links.

EXAMPLES: dict[str, Any] = {
    "createGame": {
        "ruleset": "mice-and-mystics",
        "setup": {"chapter": "chapter-1", "mice": ["collin", "nez", "filch", "maginos"]},
        "seats": [
            {"name": "ana", "controls": ["collin", "nez"]},
            {"name": "ben", "controls": ["filch", "maginos"]},
        ],
        "dice_mode": "server",
        "undo_policy": "all-seats",
        "visibility": "unlisted",
    },
    "sendCommand": {"command": {"type": "Move", "mouse": "collin"}, "expected_version": 12},
    "forkGame": {"version": 12},
    "rotateToken": {"audience": "seat:ben"},
    "revokeToken": {"audience": "seat:ben"},
    "rotateCampaignToken": {"audience": "seat:ana"},
    "revokeCampaignToken": {"audience": "seat:ana"},
    "createCampaign": {
        "ruleset": "mice-and-mystics",
        "chapters": ["chapter-1"],  # the shipped content's chapters (GET /content/mice-and-mystics/chapters)
        "party": {"mice": ["collin", "nez", "filch", "maginos"]},
        "seats": [{"name": "ana", "controls": ["collin", "nez", "filch", "maginos"]}],
    },
    "requestCampaignRevert": {"to_chapter": 1},
    "chooseCarryOver": {"keep": {"filch": "bow-of-precision", "nez": None}},
}
"""One request-body example per operation that takes a body (a test sends each to the app)."""

GAME_LINKS = {
    "getGame": "The game just created.",
    "sendCommand": "Send a command to the game just created.",
    "getLegalCommands": "What a seat of the new game may do now.",
    "listEvents": "The new game's audit log.",
    "getState": "The new game's state.",
    "streamEvents": "The new game's events, live.",
}


SLOT_COMPONENTS = {
    "event": "GameEvent",
    "command": "GameCommand",
    "state": "GameState",
    "board": "BoardDocument",
    "initiative": "InitiativeDocument",
    "setup": "GameSetup",
    "ruleset_state": "RulesetState",
}
ONE_OF_SLOTS = frozenset({"setup", "ruleset_state"})
"""Slots of stored documents that do not name their ruleset: a ``oneOf`` of the served rulesets' types (each
stored value matches exactly one), an ``anyOf`` when a served ruleset's is untyped (any JSON object, which
every value matches: a ruleset without a ``setup_type``)."""
SCOPED_SLOTS = frozenset({"event"})
"""Slots scoped by ruleset, then by type: two rulesets may store the same tag (Mice and Mystics and a plug-in
both store ``TurnStarted``; stored names never change), so the slot's component is an ``anyOf`` of one union
per served ruleset, ``<Ruleset><component>`` (``MiceAndMysticsGameEvent``), each tagged by ``type``: the
union of the game's ruleset (``GameSummary.ruleset``, ``StreamEvent.ruleset``) types a payload exactly."""
SCOPED_DOCS = {
    "event": "Any event of a {ruleset} game: the core's events and the ruleset's own (``type`` names it).",
}
SLOT_DOCS = {
    "event": "Any event of a game of the served rulesets: one union per ruleset, each tagged by ``type`` "
    "(``<Ruleset>GameEvent``). Two rulesets may store the same ``type``; the game's ``ruleset`` says which "
    "union a payload is of.",
    "command": "Any command of the served rulesets or of the core (``type`` names it).",
    "state": "The state of a game of any served ruleset; its ``ruleset`` says which.",
    "board": "The board view of a game of any served ruleset; its ``ruleset`` says which.",
    "initiative": "The initiative view of a game of any served ruleset; its ``ruleset`` says which.",
    "setup": "A game's setup document as stored (``GameCreated.setup``): the setup of one of the served "
    "rulesets, the one ``GameCreated.ruleset`` names (the document itself does not name it).",
    "ruleset_state": "A game's ruleset state as stored (``UndoApplied.state``): the state of one of the "
    "served rulesets, the one the game's ``GameCreated.ruleset`` names (the document itself does not name "
    "it).",
}
GENERIC_DESCRIPTIONS = {"200": "Request fulfilled, document follows", "201": "Document created, URL follows"}
LOCATION_DOCS = {
    "createGame": "The game created: ``/games/{id}``.",
    "forkGame": "The fork: ``/games/{id}``.",
    "claimPlace": "The fork whose place was taken: ``/games/{id}``.",
    "rotateToken": "The game whose place got the new token: ``/games/{id}``.",
    "rotateCampaignToken": "The campaign whose place got the new token: ``/campaigns/{id}``.",
    "sendCommand": "The events this command caused: ``/games/{id}/events?after=<version before>``.",
    "createCampaign": "The campaign created: ``/campaigns/{id}``.",
    "startNextChapter": "The chapter's new game: ``/games/{id}``.",
    "requestCampaignRevert": "The campaign: ``/campaigns/{id}``.",
    "approveCampaignRevert": "The campaign: ``/campaigns/{id}``.",
}


def _links(target: str) -> dict[str, Any]:
    """OpenAPI links from a response whose body has ``game.id`` to the game's operations."""
    return {
        op: {"operationId": op, "parameters": {"game_id": f"$response.body#/{target}"}, "description": text}
        for op, text in GAME_LINKS.items()
    }


# ---------------------------------------------------------------------------------------------
# The refinement.


def _unwrap(annotation: Any) -> Any:
    """The body type of a handler annotation: ``Annotated[X, Body]`` and ``Response[X]`` -> ``X``;
    ``None`` for bodies that are not JSON documents (bytes, server-sent events, no content)."""
    if typing.get_origin(annotation) is Annotated:
        args = typing.get_args(annotation)
        if not any(isinstance(m, Meta) for m in args[1:]):
            return _unwrap(args[0])
    origin = typing.get_origin(annotation) or annotation
    if isinstance(origin, type) and issubclass(origin, Response):
        args = typing.get_args(annotation)
        return _unwrap(args[0]) if args else None
    if annotation in (None, type(None), bytes, str) or annotation is ServerSentEvent:
        return None
    if isinstance(origin, type) and issubclass(origin, ServerSentEvent):
        return None
    return annotation


def _struct_classes(types: list[Any]) -> dict[str, type]:
    """Component name -> class of every Struct and Enum reachable from ``types`` (named as
    msgspec names its components: the class name, or its module path when two classes share it)."""
    import msgspec.inspect as mi

    found: dict[type, None] = {}

    def walk(t: mi.Type) -> None:
        if isinstance(t, mi.StructType):
            if t.cls in found:
                return
            found[t.cls] = None
            for f in t.fields:
                walk(f.type)
        elif isinstance(t, mi.EnumType):
            found[t.cls] = None
        elif isinstance(t, (mi.UnionType,)):
            for sub in t.types:
                walk(sub)
        elif isinstance(t, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
            walk(t.item_type)
        elif isinstance(t, mi.TupleType):
            for sub in t.item_types:
                walk(sub)
        elif isinstance(t, mi.DictType):
            walk(t.key_type)
            walk(t.value_type)
        elif isinstance(t, mi.Metadata):
            walk(t.type)

    for info in mi.multi_type_info(types):
        walk(info)
    names: dict[str, list[type]] = {}
    for cls in found:
        names.setdefault(cls.__name__, []).append(cls)
    out: dict[str, type] = {}
    for name, classes in names.items():
        for cls in classes:
            key = (
                name
                if len(classes) == 1
                else re.sub(r"[^a-zA-Z0-9.\-_]", "_", f"{cls.__module__}.{cls.__qualname__}")
            )
            out[key] = cls
    return out


NAMED_ENUMS = ("DiceMode", "UndoPolicy", "Visibility", "DecisionPolicy")
"""Literal aliases of ``dicelog.domain.core.events`` that become one shared component each (instead of
a copy at every use, which generated clients turn into one enum class per use)."""


def _share_enums(node: Any, components: dict[str, Any]) -> Any:
    """Replace inline ``enum`` schemas equal to a named alias by a ``$ref`` to its component."""
    from dicelog.domain.core import events

    named = {tuple(sorted(typing.get_args(getattr(events, n)))): n for n in NAMED_ENUMS}
    for values, name in named.items():
        components.setdefault(
            name,
            {
                "title": name,
                "type": "string",
                "enum": list(values),
                "description": class_doc_of_alias(name),
            },
        )

    def walk(n: Any, top: bool) -> Any:
        if isinstance(n, list):
            return [walk(x, False) for x in n]
        if not isinstance(n, dict):
            return n
        if not top and "enum" in n and tuple(sorted(n["enum"])) in named:
            rest = {k: v for k, v in n.items() if k not in ("enum", "type")}
            return {**rest, "$ref": REF.format(name=named[tuple(sorted(n["enum"]))])}
        return {k: walk(v, False) for k, v in n.items()}

    return {k: walk(v, k in NAMED_ENUMS) for k, v in node.items()}


def class_doc_of_alias(name: str) -> str:
    return {
        "DiceMode": "Who rolls: ``server`` (the service rolls from its committed seed) or ``manual`` "
        "(players roll physical dice and enter the faces).",
        "UndoPolicy": "Who may undo: ``none``, ``own-turn`` (a seat its own turn), ``all-seats`` "
        "(every other seat approves) or ``host`` (the host decides).",
        "Visibility": "Who may read a game: ``public`` (listed, anyone), ``unlisted`` (anyone with its id) "
        "or ``private`` (a token is needed).",
        "DecisionPolicy": "Choices the rules leave to players: ``ask`` (a pending decision for the seat) or "
        "``default`` (the documented default is taken at once).",
    }[name]


def _tidy(node: Any) -> Any:
    """Shapes generators read badly, said the same way: a fixed-length tuple's ``items: false``
    (``maxItems`` already says it) is dropped."""
    if isinstance(node, list):
        return [_tidy(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _tidy(v) for k, v in node.items()}
    if out.get("items") is False and len(out.get("prefixItems", ())) == out.get("maxItems"):
        del out["items"]
    return out


DESCRIBED_ONLY = {"Problem", "ProblemError"}
"""Structs that only describe a body another library writes (Litestar's problem details omit
absent members)."""


def _always_sent(components: dict[str, Any], classes: dict[str, type], requests: set[str]) -> None:
    """A response-only Struct without ``omit_defaults`` always sends every field: all required."""
    for name, schema in components.items():
        cls = classes.get(name)
        if (
            cls is None
            or name in requests
            or name in DESCRIBED_ONLY
            or not isinstance(cls, type)
            or not issubclass(cls, msgspec.Struct)
            or cls.__struct_config__.omit_defaults
            or "properties" not in schema
        ):
            continue
        schema["required"] = list(schema["properties"])


def _reachable(roots: list[Any], components: dict[str, Any]) -> set[str]:
    """Names of the components ``roots`` (schemas) refer to, transitively."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if ref:
                name = ref.rsplit("/", 1)[1]
                if name not in seen and name in components:
                    seen.add(name)
                    todo.append(components[name])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return seen


def _describe_components(components: dict[str, Any], classes: dict[str, type]) -> None:
    """Class docstrings as schema descriptions, attribute docstrings as property descriptions."""
    for name, schema in components.items():
        cls = classes.get(name)
        if cls is None:
            continue
        doc = class_doc(cls)
        if doc and "description" not in schema:
            schema["description"] = doc
        if not isinstance(cls, type) or not issubclass(cls, msgspec.Struct):
            continue
        docs = field_docs(cls)
        encoded = dict(zip(cls.__struct_fields__, cls.__struct_encode_fields__, strict=True))
        tag_field = cls.__struct_config__.tag_field
        for field, text in docs.items():
            prop = schema.get("properties", {}).get(encoded.get(field, field))
            if prop is not None and "description" not in prop:
                prop["description"] = text
        if tag_field and tag_field in schema.get("properties", {}):
            tag = cls.__struct_config__.tag
            schema["properties"][tag_field] = {
                "type": "string",
                "const": tag,
                "description": f"The {tag_field} of this object: always `{tag}`.",
            }
        import msgspec.inspect as mi

        info = mi.type_info(cls)  # a Struct class's: a StructType
        for member in info.fields if isinstance(info, mi.StructType) else ():
            kinds = member.type.types if isinstance(member.type, mi.UnionType) else (member.type,)
            prop = schema.get("properties", {}).get(member.encode_name)
            if prop is not None and any(isinstance(k, mi.DateTimeType) for k in kinds):
                target = next((v for v in prop.get("anyOf", ()) if v.get("type") == "string"), prop)
                target["format"] = "date-time"


def _slot_types(rulesets: tuple[str, ...]) -> dict[str, tuple[Any, ...]]:
    """The types of each slot for an app serving ``rulesets``: one type, or the members of an ``anyOf``
    (``event``: one union per served ruleset, in ``rulesets`` order, see ``SCOPED_SLOTS``)."""
    from dicelog.domain.core import registry
    from dicelog.service.http.api_types import DOCUMENT_KINDS, api_types, tagged_document

    types = api_types(rulesets)
    documents = {kind: [tagged_document(name, kind) for name in rulesets] for kind in DOCUMENT_KINDS}
    core = _core_events()

    def union(items: list[Any]) -> tuple[Any, ...]:
        # The documents tagged by ``ruleset`` (``tagged_document``) make one discriminated union; an untyped
        # view (a JSON object) cannot be in it, so then each member gets its own schema (an ``anyOf`` below).
        items = list(dict.fromkeys(items))
        if any(i == dict[str, Any] for i in items):
            return tuple(dict.fromkeys([*(i for i in items if i != dict[str, Any]), dict[str, Any]]))
        return (typing.Union[tuple(items)],)  # noqa: UP007 - tagged: one union

    def events_of(name: str) -> Any:
        # A game's events: the core's and its ruleset's, tagged by ``type`` (unique within a ruleset; two
        # rulesets may store the same tag, so the rulesets' events are never one union).
        own = (e for e in registry.get(name).event_types if e not in core)
        return typing.Union[tuple(dict.fromkeys([*core, *own]))]  # noqa: UP007 - tagged: one union

    return {
        "envelope": (StoredEnvelope,),
        "state": union(documents["state"]),
        "event": tuple(events_of(name) for name in rulesets),
        "command": (types.Command,),
        "board": union(documents["board"]),
        "initiative": union(documents["initiative"]),
        "setup": tuple(dict.fromkeys(stored_setup_type(registry.get(name)) for name in rulesets)),
        "ruleset_state": tuple(dict.fromkeys(registry.get(name).state_type for name in rulesets)),
    }


def _core_events() -> list[Any]:
    """The core's event types as the API shows them (the typed mirrors of its free-form stored fields)."""
    from dicelog.domain.core import events as core_events

    return [
        MIRRORS.get(v, v)
        for v in vars(core_events).values()
        if isinstance(v, type) and issubclass(v, core_events.Event) and v is not core_events.Event
    ]


def _owners(rulesets: tuple[str, ...]) -> dict[type, str]:
    """The ruleset each Struct or Enum of one served ruleset alone belongs to: reachable from that ruleset's
    own types (its events, commands, state, setup and views) and from no other served ruleset's nor the
    core's. A class of the core (or shared) is in none."""
    from dicelog.domain.core import registry
    from dicelog.domain.core.commands import Choose, Draw, Roll, Shuffle, UndoCommand
    from dicelog.service.http.api_types import DOCUMENT_KINDS, api_types, tagged_document

    types = api_types(rulesets)
    core_roots = [*_core_events(), Roll, Shuffle, Draw, Choose, *typing.get_args(UndoCommand)]
    core = set(_struct_classes(core_roots).values())
    reached: dict[type, set[str]] = {}
    for name in rulesets:
        ruleset = registry.get(name)
        roots = [
            *ruleset.event_types,
            *types.commands_of[name],
            ruleset.state_type,
            stored_setup_type(ruleset),
            *(tagged_document(name, kind) for kind in DOCUMENT_KINDS),
        ]
        for cls in _struct_classes([r for r in roots if r != dict[str, Any]]).values():
            reached.setdefault(cls, set()).add(name)
    return {cls: next(iter(names)) for cls, names in reached.items() if len(names) == 1 and cls not in core}


def _component_names(classes: dict[str, type], rulesets: tuple[str, ...]) -> dict[str, str]:
    """New component names (old name -> new) for the classes whose name another class of the document has
    too (msgspec names all of them by module path then). The core's (or a shared) class keeps the bare name;
    else a built-in ruleset's, when it is the only one: the names of the committed document stay. The others
    are prefixed by their ruleset (``SecretHandTurnStarted``); a clash no ruleset prefix settles keeps the
    module path."""
    from dicelog.domain.core import registry

    builtin = set(registry.builtin_names())

    groups: dict[str, list[tuple[str, type]]] = {}
    for name, cls in classes.items():
        groups.setdefault(cls.__name__, []).append((name, cls))
    clashing = {bare: members for bare, members in groups.items() if len(members) > 1}
    if not clashing:
        return {}
    owners = _owners(rulesets)

    def rank(cls: type) -> int:
        owner = owners.get(cls)
        return 0 if owner is None else 1 if owner in builtin else 2

    names: dict[str, str] = {}
    for bare, members in clashing.items():
        best = min(rank(cls) for _, cls in members)
        keepers = [cls for _, cls in members if rank(cls) == best]
        for name, cls in members:
            if len(keepers) == 1 and cls is keepers[0]:
                names[name] = bare
            elif cls in owners:
                names[name] = f"{_camel(owners[cls])}{bare}"
    final = [names.get(name, name) for name in classes]
    clashes = {n for n in final if final.count(n) > 1}
    return {old: new for old, new in names.items() if new not in clashes and new != old}


def _renamed(node: Any, names: dict[str, str]) -> Any:
    """``node`` (schemas: dicts, lists, tuples) with every ``$ref`` and discriminator mapping to a renamed
    component following it."""

    def ref(target: str) -> str:
        name = target.rsplit("/", 1)[1]
        return REF.format(name=names.get(name, name))

    if isinstance(node, list):
        return [_renamed(n, names) for n in node]
    if isinstance(node, tuple):
        return tuple(_renamed(n, names) for n in node)
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {
        k: ref(v) if k == "$ref" and isinstance(v, str) else _renamed(v, names) for k, v in node.items()
    }
    discriminator = out.get("discriminator")
    if isinstance(discriminator, dict) and isinstance(discriminator.get("mapping"), dict):
        mapping = {k: ref(v) for k, v in discriminator["mapping"].items()}
        out["discriminator"] = {**discriminator, "mapping": mapping}
    return out


def _fill_slots(node: Any, roots: dict[str, Any]) -> Any:
    """Replace every ``{x-dicelog-slot: name}`` schema by the slot's schema (keeping its
    description and nullability)."""
    if isinstance(node, list):
        return [_fill_slots(n, roots) for n in node]
    if not isinstance(node, dict):
        return node
    if SLOT_KEY in node:
        filled = copy.deepcopy(roots[node[SLOT_KEY]])
        if "description" in node:
            filled = {
                "description": node["description"],
                **({"allOf": [filled]} if "$ref" in filled else filled),
            }
            if "allOf" in filled and len(filled["allOf"]) == 1:
                filled = {"description": node["description"], **filled["allOf"][0]}
        return filled
    return {k: _fill_slots(v, roots) for k, v in node.items()}


def _plain_parameter(parameter: dict[str, Any]) -> None:
    """A parameter is absent or has a value, never ``null``: ``oneOf [X, null]`` becomes ``X``
    (Litestar writes optional parameters as nullable); whole-number bounds stay integers."""
    schema = parameter.get("schema", {})
    variants = schema.get("oneOf") or schema.get("anyOf")
    if variants:
        kept = [v for v in variants if v.get("type") != "null"]
        if len(kept) == 1:
            schema.pop("oneOf", None)
            schema.pop("anyOf", None)
            schema.update(kept[0])
    for bound in ("minimum", "maximum"):
        if isinstance(schema.get(bound), float) and schema[bound].is_integer():
            schema[bound] = int(schema[bound])


def _problem_types(components: dict[str, Any]) -> None:
    """The ``ProblemType`` enum (every ``urn:dicelog:problem:<kind>``, ``PROBLEM_TYPES``) and
    ``Problem.type`` as that enum or a rule's ``urn:dicelog:rule:<rule id>``."""
    lines = [f"- `{PROBLEM}{kind}` ({status}): {text}" for kind, (status, text) in PROBLEM_TYPES.items()]
    components["ProblemType"] = {
        "title": "ProblemType",
        "type": "string",
        "enum": [PROBLEM + kind for kind in PROBLEM_TYPES],
        "description": "Every problem type the API sends besides a rule's `urn:dicelog:rule:<rule id>` "
        "(docs/api-contract.md, Problem types):\n\n" + "\n".join(lines),
    }
    properties = components["Problem"]["properties"]
    properties["type"] = {
        "description": properties["type"].get("description", ""),
        "anyOf": [
            {"$ref": REF.format(name="ProblemType")},
            {"type": "string", "pattern": "^urn:dicelog:rule:[A-Za-z0-9._:-]+$"},
        ],
    }


_INTEGER = {"type": "integer"}
RATE_LIMIT_HEADERS = {
    "RateLimit-Policy": ("The quota: `<limit>; w=<window seconds>`", {"type": "string"}),
    "RateLimit-Limit": ("Requests the quota allows per window", _INTEGER),
    "RateLimit-Remaining": ("Requests left in the current window", _INTEGER),
    "RateLimit-Reset": ("Seconds until the current window ends", _INTEGER),
}
RETRY_AFTER = ("Seconds to wait before retrying.", _INTEGER)


def _declare_headers(response: dict[str, Any], status: str, quota: str | None) -> None:
    """The headers a response may carry: ``RateLimit-*`` on every answer of an operation a quota
    counts (``dicelog.service.http.quotas``: any answer to a counted request, a refusal by the handler
    included), ``Retry-After`` on its 429 and on every 503."""
    headers: dict[str, tuple[str, dict[str, Any]]] = {}
    if quota is not None:
        headers.update(
            {
                name: (f"{text} (quota `{quota}`)", schema)
                for name, (text, schema) in RATE_LIMIT_HEADERS.items()
            }
        )
    if status in ("429", "503"):
        headers["Retry-After"] = RETRY_AFTER
    for name, (text, schema) in headers.items():
        response.setdefault("headers", {})[name] = {"description": text, "schema": schema}


def _cached(method: str, path: str) -> bool:
    """Whether ``dicelog.service.http.cache`` tags the operation's answers (a game's reads but its
    stream, and content)."""
    game_read = path.startswith("/games/{game_id}") and not path.endswith("/stream")
    return method == "get" and (game_read or path.startswith("/content/"))


def _declare_caching(responses: dict[str, Any], op_id: str) -> None:
    """``ETag`` and ``Cache-Control`` on the 200, a ``304`` for a conditional ``GET``, and ``Link``
    (``rel="next"``) on the pages of ``listEvents`` (docs/api-contract.md, HTTP caching)."""
    ok = responses.get("200")
    if ok is None:
        return
    headers = ok.setdefault("headers", {})
    headers["ETag"] = {
        "description": "Strong tag of this answer's bytes: send it back in `If-None-Match` to get a 304.",
        "schema": {"type": "string"},
    }
    headers["Cache-Control"] = {
        "description": "`max-age=31536000, immutable` once the game (and a fork's original) ended, else "
        "`no-cache`; `private` for a token's (or a private game's) view; content: `public, max-age=86400`.",
        "schema": {"type": "string"},
    }
    if op_id == "listEvents":
        headers["Link"] = {
            "description": 'The next page, when there is one: `</games/{id}/events?after=N>; rel="next"`.',
            "schema": {"type": "string"},
        }
    responses["304"] = {
        "description": "Not Modified: the `If-None-Match` names the current `ETag` (no body).",
        "headers": {"ETag": headers["ETag"], "Cache-Control": headers["Cache-Control"]},
    }


def refine(app: Litestar, document: dict[str, Any], rulesets: tuple[str, ...]) -> dict[str, Any]:
    """The app's OpenAPI document with msgspec's schemas, descriptions, slots, operation ids,
    examples and links (see the module docstring). ``document`` is Litestar's, not modified."""
    from dicelog.service.bodies.schemas import Problem

    doc = copy.deepcopy(document)
    bodies: dict[tuple[str, str, str], Any] = {}  # (method, path, "request" | status) -> type
    json_forms: set[tuple[str, str, str]] = set()  # answers whose JSON body is a second media type
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if not handler.resolve_include_in_schema():
                continue
            signature = handler.parsed_fn_signature
            data = signature.parameters.get("data")
            returned = _unwrap(signature.return_type.annotation)
            for method in handler.http_methods:
                key = (method.lower(), route.path_format)
                if data is not None:
                    bodies[(*key, "request")] = _unwrap(data.annotation)
                if returned is not None:
                    bodies[(*key, str(handler.status_code))] = returned
                if JSON_FORM in handler.opt:  # a second media type of the answer: its typed JSON form
                    bodies[(*key, str(handler.status_code))] = handler.opt[JSON_FORM]
                    json_forms.add((*key, str(handler.status_code)))
    slot_types = _slot_types(rulesets)
    members = [t for types in slot_types.values() for t in types]
    roots = [Problem, *members, *bodies.values()]
    schemas, components = msgspec.json.schema_components(roots, ref_template=REF)
    classes = _struct_classes(roots)
    names = _component_names(classes, rulesets)
    schemas, components = _renamed(schemas, names), _renamed(components, names)
    components = {names.get(k, k): v for k, v in components.items()}
    classes = {names.get(k, k): v for k, v in classes.items()}
    for new in set(names.values()) & set(components):
        components[new]["title"] = new
    _describe_components(components, classes)
    member_schemas = iter(schemas[1 : 1 + len(members)])
    slot_roots: dict[str, Any] = {}
    for name, types in slot_types.items():
        parts = [next(member_schemas) for _ in types]
        if name in SCOPED_SLOTS:  # one named union per ruleset, in the order served
            scopes = []
            for ruleset, part in zip(rulesets, parts, strict=True):
                scoped = f"{_camel(ruleset)}{SLOT_COMPONENTS[name]}"
                scoped += "Union" if scoped in components else ""  # a ruleset's own type has the name
                text = SCOPED_DOCS[name].format(ruleset=ruleset)
                components[scoped] = {"title": scoped, "description": text, **part}
                scopes.append(scoped)
            slot_roots[name] = {"anyOf": [{"$ref": REF.format(name=scope)} for scope in scopes]}
            continue
        # A ruleset whose document is untyped (any JSON object) matches every stored value: then no ``oneOf``.
        untyped = dict[str, Any] in types
        parts = [{**p, "additionalProperties": True} if p == {"type": "object"} else p for p in parts]
        union = "oneOf" if name in ONE_OF_SLOTS and not untyped else "anyOf"
        slot_roots[name] = parts[0] if len(parts) == 1 else {union: parts}
    for name, component in SLOT_COMPONENTS.items():  # unions get a name: clients get one type
        if "$ref" not in slot_roots[name]:
            components[component] = {"title": component, "description": SLOT_DOCS[name], **slot_roots[name]}
            slot_roots[name] = {"$ref": REF.format(name=component)}
    by_key = dict(zip(bodies, schemas[1 + len(members) :], strict=True))
    problem = schemas[0]
    _problem_types(components)

    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            op_id, deprecated = operation_id(method, path, rulesets)
            op["operationId"] = op_id
            op.setdefault("security", [])  # public: no token (generators then send none)
            if deprecated:
                op["deprecated"] = True
            for parameter in op.get("parameters", ()):
                _plain_parameter(parameter)
            request = bodies.get((method, path, "request"))
            if request is not None and "requestBody" in op:
                media = op["requestBody"]["content"].setdefault("application/json", {})
                media["schema"] = by_key[(method, path, "request")]
                if op_id in EXAMPLES:
                    media["example"] = EXAMPLES[op_id]
            for status, response in op["responses"].items():
                if (
                    status in GENERIC_DESCRIPTIONS
                    and response.get("description") in GENERIC_DESCRIPTIONS.values()
                ):
                    returned = bodies.get((method, path, status))
                    first = (class_doc(returned) or "").split("\n\n")[0] if isinstance(returned, type) else ""
                    response["description"] = " ".join(first.split()) or op.get("summary", "OK")
                if status == "201":
                    response.setdefault("headers", {})["Location"] = {
                        "description": LOCATION_DOCS.get(op_id, "Where the created resource is."),
                        "schema": {"type": "string", "format": "uri-reference"},
                    }
                _declare_headers(response, status, quota_of_operation(method, path))
                if (method, path, status) in json_forms:
                    response.setdefault("content", {})["application/json"] = {}
                for media_type, media in response.get("content", {}).items():
                    if media_type == "application/problem+json":
                        media["schema"] = problem
                    elif (method, path, status) in by_key and media_type.endswith("json"):
                        media["schema"] = by_key[(method, path, status)]
            if _cached(method, path):
                _declare_caching(op["responses"], op_id)
            if op_id in ("createGame", "forkGame") and "201" in op["responses"]:
                op["responses"]["201"]["links"] = _links("game/id")
    if len(rulesets) == 1:  # msgspec decodes a lone tagged Struct without its tag: say so
        from dicelog.service.http.api_types import api_types

        lone = api_types(rulesets).NewGame
        schema = components.get(lone.__name__, {})
        tag = lone.__struct_config__.tag_field
        if tag in schema.get("required", ()):
            schema["required"] = [r for r in schema["required"] if r != tag]
            schema["properties"][tag]["default"] = lone.__struct_config__.tag
    requests = _reachable([by_key[k] for k in by_key if k[2] == "request"], components)
    stored = {*STORED_DOCUMENTS, *(t for name in ONE_OF_SLOTS for t in slot_types[name])}
    _always_sent(components, classes, requests | {n for n, cls in classes.items() if cls in stored})
    accepted = components.get("CommandAccepted", {}).get("properties", {})
    if "command" in accepted:  # masked to ``{"type": ...}`` for a reader who may not see it
        accepted["command"] = {
            **accepted["command"],
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string", "description": "The command's type."}},
            "additionalProperties": True,
        }
    doc["paths"] = _fill_slots(doc.get("paths", {}), slot_roots)
    shared: dict[str, Any] = {}
    filled = _tidy(_share_enums(_fill_slots(components, slot_roots), shared))
    doc["paths"] = _tidy(_share_enums(doc["paths"], shared))
    filled.update(shared)
    doc.setdefault("components", {})["schemas"] = dict(sorted(filled.items()))
    plain: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(doc))  # plain JSON data (tuples as lists)
    setups = {*slot_types["setup"], PartySetup}  # as stored: a defaulted field may be absent, as in a request
    stored_setups = frozenset({SLOT_COMPONENTS["setup"], *(n for n, c in classes.items() if c in setups)})
    _request_schemas(plain, stored_setups)
    _stream_messages(plain)
    return plain


SSE_MESSAGE = "ServerSentEventMessage"
SSE_GAMES_MESSAGE = "ServerSentGameEventMessage"
"""The component name of one message of ``GET /stream`` (the events of many games)."""
LINT_IGNORE_PATH = OPENAPI_PATH.parents[1] / "clients" / "typescript" / "lint" / ".redocly.lint-ignore.yaml"
_LINT_IGNORE_HEADER = """\
# Problems `redocly lint` (recommended rules, redocly.yaml) reports that are accepted, each with its reason.
# Written by `dicelog openapi` with openapi/openapi.json (`--check` compares it): do not edit.
# operation-4xx-response: these operations take no parameter, no body and no token, so no request to them
# is a client's error and the service answers none of them with a 4xx (an unknown query parameter is
# ignored, any Accept gets JSON). tests/clients/test_redocly_lint.py checks that the list is exactly
# those operations.
"""


def lint_ignore_text(doc: dict[str, Any]) -> str:
    """The ``redocly lint`` ignore file of ``doc`` (``LINT_IGNORE_PATH``): ``operation-4xx-response`` on
    the operations without input (no parameter, no body, ``security: []``), which answer no 4xx."""
    lines = [_LINT_IGNORE_HEADER.rstrip("\n"), "../../../openapi/openapi.json:", "  operation-4xx-response:"]
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            if (
                isinstance(op, dict)
                and "responses" in op
                and not op.get("parameters")
                and "requestBody" not in op
                and op.get("security") == []
            ):
                pointer = path.replace("~", "~0").replace("/", "~1")
                lines.append(f"    - '#/paths/{pointer}/{method}/responses'")
    return "\n".join(lines) + "\n"


def _stream_messages(doc: dict[str, Any]) -> None:
    """The ``text/event-stream`` answers point at the event schema: the body is text (a sequence of
    messages), each message as ``ServerSentEventMessage`` (``x-itemSchema``, as OpenAPI 3.2's
    ``itemSchema``), whose ``data`` is the JSON text of an ``EventOut`` (``contentSchema``). The AsyncAPI
    document (``dicelog.service.http.asyncapi``) describes the same channel."""
    components = doc.get("components", {}).get("schemas", {})
    if "EventOut" not in components:
        return
    components[SSE_MESSAGE] = {
        "title": SSE_MESSAGE,
        "type": "object",
        "description": "One message of a game's server-sent events, as an EventSource delivers it. "
        "Between messages the stream sends `: keep-alive` comment lines; the first message carries "
        "`retry` (milliseconds) and may be a comment alone.",
        "properties": {
            "event": {"const": "event", "description": "The message type: always `event`."},
            "id": {"type": "string", "pattern": "^[1-9][0-9]*$", "description": "The event's version."},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": REF.format(name="EventOut")},
                "description": "The event as `GET /games/{game_id}/events` shows it to the reader (JSON).",
            },
            "retry": {"type": "integer", "minimum": 0, "description": "On the first message only."},
        },
        "required": ["event", "id", "data"],
    }
    components["StreamEvent"] = {
        "title": "StreamEvent",
        "type": "object",
        "description": "One event of one of the reader's games on `GET /stream`, with the game it is of.",
        "properties": {
            "game_id": {
                "type": "string",
                "format": "uuid",
                "description": "The game (UUID) the event belongs to.",
            },
            "ruleset": {
                "type": "string",
                "description": "The game's ruleset (`mice-and-mystics`, `vast`, ...).",
            },
            "event": {
                "$ref": REF.format(name="EventOut"),
                "description": "The event as `GET /games/{game_id}/events` shows it to the token's place "
                "in that game (the same who-sees-what lens).",
            },
        },
        "required": ["game_id", "ruleset", "event"],
    }
    components[SSE_GAMES_MESSAGE] = {
        "title": SSE_GAMES_MESSAGE,
        "type": "object",
        "description": "One message of `GET /stream` (the events of every game the tokens read), as an "
        "EventSource delivers it. Between messages the stream sends `: keep-alive` comment lines; the first "
        "message carries `retry` (milliseconds) and may be a comment alone.",
        "properties": {
            "event": {"const": "event", "description": "The message type: always `event`."},
            "id": {
                "type": "string",
                "pattern": "^[1-9][0-9]*$",
                "description": "The event's position in the store's total order (resume with "
                "`Last-Event-ID`).",
            },
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": REF.format(name="StreamEvent")},
                "description": "The game, its ruleset and the event as the token's place sees it (JSON).",
            },
            "retry": {"type": "integer", "minimum": 0, "description": "On the first message only."},
        },
        "required": ["event", "id", "data"],
    }
    for path, item in doc.get("paths", {}).items():
        name = SSE_GAMES_MESSAGE if path == "/stream" else SSE_MESSAGE
        for op in item.values():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            for status, response in op["responses"].items():
                media = response.get("content", {}).get("text/event-stream")
                if media is not None and status == "200":
                    media["schema"] = {
                        "type": "string",
                        "description": f"A `text/event-stream` body: a sequence of `{name}` messages.",
                        "contentMediaType": "text/event-stream",
                        "contentSchema": {"type": "array", "items": {"$ref": REF.format(name=name)}},
                    }
                    media["x-itemSchema"] = {"$ref": REF.format(name=name)}
    doc["components"]["schemas"] = dict(sorted(components.items()))


def _operations(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        op
        for item in doc.get("paths", {}).values()
        for method, op in item.items()
        if isinstance(op, dict) and "responses" in op
    ]


def _defaults_described(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a request component) with each property's ``default`` moved into its description
    (``Default: `false`.``): generators such as openapi-typescript (default options) read a ``default``
    in a shared component as "always present", which is true of an answer, not of a request."""
    out = copy.deepcopy(schema)
    for prop in out.get("properties", {}).values():
        if isinstance(prop, dict) and "default" in prop:
            value = msgspec.json.encode(prop.pop("default")).decode()
            prop["description"] = f"{prop.get('description', '').rstrip()} Default: `{value}`.".lstrip()
    return out


def _request_schemas(doc: dict[str, Any], stored: frozenset[str] = frozenset()) -> None:
    """Separate request schemas: the components a request body reaches, with their properties'
    defaults described rather than declared (``_defaults_described``: the server fills those fields,
    so a client leaves them out). A component answers reach too keeps its name there (its
    defaulted fields are always sent, so required) and gets a request copy named ``<name>Input``.
    Answers reaching a component only through ``stored`` (the setup documents as stored, where a
    defaulted field may be absent as in a request) do not count: it keeps one schema."""
    components: dict[str, Any] = doc.get("components", {}).get("schemas", {})
    ops = _operations(doc)
    bodies = [
        media["schema"]
        for op in ops
        for media in op.get("requestBody", {}).get("content", {}).values()
        if "schema" in media
    ]
    answers = [op["responses"] for op in ops] + [op.get("parameters", []) for op in ops]
    requested = _reachable(bodies, components)
    answered = _reachable(answers, {k: v for k, v in components.items() if k not in stored})

    def refs(node: Any) -> set[str]:
        return _reachable([node], components)

    def defaulted(name: str) -> bool:
        return any(
            isinstance(p, dict) and "default" in p for p in components[name].get("properties", {}).values()
        )

    changed = {n for n in requested if defaulted(n) or any(defaulted(r) for r in refs(components[n]))}
    renamed = {n: f"{n}Input" if n in answered else n for n in changed}

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.rsplit("/", 1)[1] in renamed:
                return {**node, "$ref": REF.format(name=renamed[ref.rsplit("/", 1)[1]])}
            out = {k: rewrite(v) for k, v in node.items()}
            mapping = out.get("discriminator", {}).get("mapping")
            if isinstance(mapping, dict):  # a tagged union's mapping names its members' refs too
                out["discriminator"] = {
                    **out["discriminator"],
                    "mapping": {k: rewrite({"$ref": v})["$ref"] for k, v in mapping.items()},
                }
            return out
        if isinstance(node, list):
            return [rewrite(v) for v in node]
        return node

    for name in sorted(changed):
        schema = rewrite(_defaults_described(components[name]))
        if renamed[name] != name:
            schema["title"] = renamed[name]
            schema["description"] = (
                f"{schema.get('description', '').rstrip()}\n\nAs sent in a request: the server fills a field "
                f"left out (its default is in its description); answers carry `{name}`, every field set."
            ).lstrip()
        components[renamed[name]] = schema
    for op in ops:
        for media in op.get("requestBody", {}).get("content", {}).values():
            if "schema" in media:
                media["schema"] = rewrite(media["schema"])
    doc["components"]["schemas"] = dict(sorted(components.items()))


# ---------------------------------------------------------------------------------------------
# Serving and committing the document.


_REFINED: dict[int, dict[str, Any]] = {}


def _refined(
    request: Request[Any, Any, Any], openapi_schema: dict[str, Any], rulesets: tuple[str, ...]
) -> Any:
    """The refined document of the request's app (built once per app)."""
    key = id(request.app)
    if key not in _REFINED:
        _REFINED[key] = refine(request.app, openapi_schema, rulesets)
    return _REFINED[key]


class RefinedJson(JsonRenderPlugin):
    """Serves the refined document at ``/schema/openapi.json``."""

    def __init__(self, rulesets: tuple[str, ...]) -> None:
        super().__init__()
        self.rulesets = rulesets

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return msgspec.json.encode(_refined(request, openapi_schema, self.rulesets))


class RefinedSwagger(SwaggerRenderPlugin):
    """Swagger UI at ``/schema`` (and ``/schema/swagger``) showing the refined document, from
    assets shipped in the package (``service/http/web/static/vendor``): no CDN."""

    def __init__(self, rulesets: tuple[str, ...]) -> None:
        super().__init__(
            js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
            css_url="/static/vendor/swagger-ui/swagger-ui.css",
            standalone_preset_js_url="/static/vendor/swagger-ui/swagger-ui-standalone-preset.js",
            favicon="<link rel='icon' href='data:,'>",
        )
        self.rulesets = rulesets

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, _refined(request, openapi_schema, self.rulesets))


def openapi_config(rulesets: tuple[str, ...]) -> OpenAPIConfig:
    """The app's OpenAPI configuration: handler docstrings become operation descriptions, the
    JSON document is refined (``RefinedJson``), Swagger UI reads it."""
    return OpenAPIConfig(
        title="dicelog",
        version="0.1.0",
        license=License(name="MIT", identifier="MIT"),
        description=(
            "Event-sourced rules service for tabletop games. Every die roll and decision is an immutable "
            "event; clients create games, send commands as seats holding bearer tokens, answer pending "
            "rolls, draws and decisions, and read state, audit logs, replays and dice proofs. Errors are "
            "RFC 9457 problem details (`application/problem+json`)."
        ),
        path="/schema",
        use_handler_docstrings=True,
        components=Components(
            security_schemes={
                "bearer": SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A token returned by POST /games "
                    "(a seat's, the spectator's or the auditor's)",
                )
            }
        ),
        render_plugins=[RefinedSwagger(rulesets), RefinedJson(rulesets)],
    )


def schema_document(app: Litestar) -> dict[str, Any]:
    """The app's refined OpenAPI 3.1 document as plain JSON data."""
    rulesets: tuple[str, ...] = app.state.get("rulesets", ())
    return refine(app, app.openapi_schema.to_schema(), rulesets)


def schema_text(app: Litestar) -> str:
    """The document as committed: sorted keys, two-space indent, trailing newline."""
    raw = msgspec.json.encode(schema_document(app), order="sorted")
    return msgspec.json.format(raw, indent=2).decode() + "\n"
