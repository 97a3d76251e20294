"""Stored names of the event store's records (docs/event-model.md, Stored names are forever).

Every stored event carries a *topic* that says which class decodes it. Topics are written as
``<namespace>/<Name>``, never as Python module paths, so classes may move between modules and
files without making a stored game undecodable:

- ``core/<Name>``: the game-agnostic types of ``domain/core`` (its events, the campaign events,
  ``GameSnapshot``), listed below in ``CORE_TYPES`` with their topics written out;
- ``<ruleset.name>/<Name>``: an event type of a ruleset (``ruleset.event_types``), e.g.
  ``mice-and-mystics/MouseMoved``. Resolved through ``domain.core.registry`` when asked, so a
  ruleset registered at run time (e.g. a test ruleset) is found as well;
- ``service/<Name>``: the service's own records (``service/store/records.py``), and any type added
  with ``register(topic, cls)``.

A ruleset event's ``<Name>`` is its msgspec tag (the ``type`` field of its stored JSON), which
``domain.core.events`` already fixes forever and which is the class name unless pinned with
``tag="..."``: a renamed event class keeps its tag, and with it its topic. A tag namespaced with a dot
(Vast's ``vast.TileRevealed``) is stored after the dot: ``vast/TileRevealed``.

Release 0.1 wrote module-path topics (``eventsourcing.utils.get_topic``, e.g.
``domain.core.events:GameCreated``). They stay readable forever: ``legacy_topics()`` maps each of
them, as the literal string that was stored, to its canonical topic; the game-agnostic ones are
listed here, a ruleset's own are its ``legacy_topics`` (``dicelog.domain.core.ruleset``).

``topic_of(cls)`` is the topic new writes use; ``resolve(topic)`` reads canonical and legacy
topics; ``topics_of(cls)`` lists every topic a class may be stored under (notification
filters). An unknown class or topic raises ``StoredNameError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from eventsourcing.utils import TopicError

from dicelog.domain.core import registry
from dicelog.domain.core.campaign import CAMPAIGN_EVENTS
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    CommandAccepted,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    GameCreated,
    GameEnded,
    RollRequested,
    ShuffleRequested,
    UndoApplied,
    UndoApproved,
    UndoRejected,
    UndoRequested,
)
from dicelog.domain.core.game import GameSnapshot

CORE = "core"
SERVICE = "service"
RESERVED_NAMESPACES = frozenset({CORE, SERVICE})


class StoredNameError(TopicError, ValueError):
    """A topic that names no known class, or a class that has no stored name."""


CORE_TYPES: Mapping[str, type] = MappingProxyType(
    {
        "core/GameCreated": GameCreated,
        "core/CommandAccepted": CommandAccepted,
        "core/RollRequested": RollRequested,
        "core/DiceRolled": DiceRolled,
        "core/ShuffleRequested": ShuffleRequested,
        "core/CardsShuffled": CardsShuffled,
        "core/DrawRequested": DrawRequested,
        "core/CardsDrawn": CardsDrawn,
        "core/DecisionRequested": DecisionRequested,
        "core/DecisionMade": DecisionMade,
        "core/GameEnded": GameEnded,
        "core/UndoRequested": UndoRequested,
        "core/UndoApproved": UndoApproved,
        "core/UndoRejected": UndoRejected,
        "core/UndoApplied": UndoApplied,
        "core/GameSnapshot": GameSnapshot,
        **{f"{CORE}/{event.__name__}": event for event in CAMPAIGN_EVENTS},  # stored names: the class names
    }
)
"""The game-agnostic stored types, by topic. A new core event must be added here."""


# Every topic release 0.1 (commit 6bd448a) could write for a game-agnostic type, listed from its
# code: the events of domain/core (events.py, campaign.py), GameSnapshot and the service's two
# records; grouped by the namespace of their canonical topic. A ruleset's own are its
# ``legacy_topics`` (dicelog.domain.core.ruleset).
_RELEASE_0_1: Mapping[str, tuple[str, ...]] = {
    "core": (
        "domain.core.events:GameCreated",
        "domain.core.events:CommandAccepted",
        "domain.core.events:RollRequested",
        "domain.core.events:DiceRolled",
        "domain.core.events:ShuffleRequested",
        "domain.core.events:CardsShuffled",
        "domain.core.events:DrawRequested",
        "domain.core.events:CardsDrawn",
        "domain.core.events:DecisionRequested",
        "domain.core.events:DecisionMade",
        "domain.core.events:GameEnded",
        "domain.core.events:UndoRequested",
        "domain.core.events:UndoApproved",
        "domain.core.events:UndoRejected",
        "domain.core.events:UndoApplied",
        "domain.core.campaign:CampaignStarted",
        "domain.core.campaign:ChapterBegun",
        "domain.core.campaign:ChapterRecorded",
        "domain.core.campaign:CampaignRevertRequested",
        "domain.core.campaign:CampaignRevertApproved",
        "domain.core.campaign:CampaignReverted",
        "domain.core.game:GameSnapshot",
    ),
    "service": (
        "service.records:GameSecret",
        "service.records:IdempotencyRecord",
    ),
}

_AGNOSTIC_LEGACY_TOPICS: Mapping[str, str] = MappingProxyType(
    {
        legacy: f"{namespace}/{legacy.rpartition(':')[2]}"
        for namespace, legacies in _RELEASE_0_1.items()
        for legacy in legacies
    }
)
"""The game-agnostic topics release 0.1 wrote (a module path, as stored) -> the canonical topic of
their class. Frozen: these strings are in stored logs and must resolve forever, wherever the classes
move."""


_registered: dict[str, type] = dict(CORE_TYPES)  # canonical topic -> class (core, service, others)
_topics: dict[type, str] = {cls: topic for topic, cls in CORE_TYPES.items()}  # class -> topic (cache)
_rulesets: dict[str, tuple[Any, dict[str, type]]] = {}  # ruleset name -> (ruleset, stored name -> class)
_legacy: dict[str, tuple[Any, dict[str, str]]] = {}  # ruleset name -> (ruleset, legacy topic -> canonical)
_service_loaded = False


def register(topic: str, cls: type) -> type:
    """Store ``cls`` under ``topic`` (``<namespace>/<Name>``, e.g. ``service/GameSecret``);
    returns ``cls``. A stored type that is neither a core type nor a ruleset's event type (a
    record of the service) must be registered before it is written or read. Registering the
    same pair again is harmless; a topic or a class already taken otherwise raises."""
    namespace, slash, name = topic.partition("/")
    if not slash or not namespace or not name or "/" in name or ":" in topic:
        # release 0.1's module-path topics (with a colon) are refused here too
        raise StoredNameError(f"a topic is <namespace>/<Name>, not {topic!r}")
    taken, known = _registered.get(topic), _topics.get(cls)
    if (taken is not None and taken is not cls) or (known is not None and known != topic):
        raise StoredNameError(f"{topic!r} -> {cls!r} conflicts with {taken!r} / {known!r}")
    _registered[topic] = cls
    _topics[cls] = topic
    return cls


def _load_service_records() -> None:
    """Register the service's own records (imported late: ``service.records`` may register
    its types through this module)."""
    global _service_loaded
    if _service_loaded:
        return
    _service_loaded = True
    from dicelog.service.store.records import (
        GameSecret,
        IdempotencyRecord,
        SeatClaim,
        TokenHolder,
        TokenIndex,
        TokenRevoked,
    )

    register("service/GameSecret", GameSecret)
    register("service/IdempotencyRecord", IdempotencyRecord)
    register("service/TokenIndex", TokenIndex)
    register("service/SeatClaim", SeatClaim)
    register("service/TokenHolder", TokenHolder)
    register("service/TokenRevoked", TokenRevoked)


def stored_name(cls: type) -> str:
    """The ``<Name>`` of a ruleset event type: its msgspec tag (a string), else its class name; a tag
    prefixed with the ruleset's namespace (``vast.TileRevealed``) is stored without it, as the topic
    names the ruleset already (``vast/TileRevealed``)."""
    config = getattr(cls, "__struct_config__", None)
    tag = getattr(config, "tag", None)
    name = tag if isinstance(tag, str) else cls.__name__
    head, dot, rest = name.partition(".")
    return rest if dot and head and rest else name


def _ruleset_types(name: str) -> dict[str, type]:
    """Stored name -> event type of the ruleset registered as ``name`` (cached per ruleset object)."""
    try:
        ruleset = registry.get(name)
    except RuleBroken:
        raise StoredNameError(f"no ruleset {name!r}") from None
    cached = _rulesets.get(name)
    if cached is not None and cached[0] is ruleset:
        return cached[1]
    if name in RESERVED_NAMESPACES or "/" in name:
        raise StoredNameError(f"a ruleset may not be called {name!r}: its topics would be ambiguous")
    types: dict[str, type] = {}
    for cls in ruleset.event_types:
        if types.setdefault(stored_name(cls), cls) is not cls:
            raise StoredNameError(f"two event types of {name!r} are stored as {stored_name(cls)!r}")
    _rulesets[name] = (ruleset, types)
    return types


def _ruleset_legacy_topics(name: str) -> dict[str, str]:
    """Legacy topic -> canonical topic of the ruleset registered as ``name``: its ``legacy_topics``
    (cached per ruleset object). A legacy topic is a module path (``<module>:<Name>``) and resolves
    to ``<name>/<Name>``."""
    try:
        ruleset = registry.get(name)
    except RuleBroken:
        raise StoredNameError(f"no ruleset {name!r}") from None
    cached = _legacy.get(name)
    if cached is not None and cached[0] is ruleset:
        return cached[1]
    found: dict[str, str] = {}
    for legacy in getattr(ruleset, "legacy_topics", ()):
        module, colon, stored = legacy.rpartition(":")
        if not colon or not module or not stored or "/" in legacy:
            raise StoredNameError(f"a legacy topic of {name!r} is <module>:<Name>, not {legacy!r}")
        found[legacy] = f"{name}/{stored}"
    _legacy[name] = (ruleset, found)
    return found


def legacy_topics(rulesets: Iterable[str] | None = None) -> Mapping[str, str]:
    """Every topic release 0.1 wrote (a module path, as stored) -> the canonical topic of its class:
    the game-agnostic ones and the ``legacy_topics`` of ``rulesets`` (default: every registered
    ruleset). Frozen: these strings are in stored logs and must resolve forever. Raises
    ``StoredNameError`` when two of them claim the same string."""
    found = dict(_AGNOSTIC_LEGACY_TOPICS)
    for name in registry.names() if rulesets is None else rulesets:
        for legacy, canonical in _ruleset_legacy_topics(name).items():
            if found.setdefault(legacy, canonical) != canonical:
                raise StoredNameError(f"the legacy topic {legacy!r} is claimed twice")
    return MappingProxyType(found)


def _canonical_of_legacy(topic: str) -> str:
    """The canonical topic of release 0.1's ``topic``, or ``topic`` itself when it is none."""
    canonical = _AGNOSTIC_LEGACY_TOPICS.get(topic)
    for name in () if canonical is not None else registry.names():
        canonical = _ruleset_legacy_topics(name).get(topic)
        if canonical is not None:
            break
    return topic if canonical is None else canonical


def topic_of(cls: type) -> str:
    """The canonical topic new writes of ``cls`` use. Raises ``StoredNameError``."""
    topic = _topics.get(cls)
    if topic is not None:
        return topic
    _load_service_records()
    topic = _topics.get(cls)
    if topic is None:
        for name in registry.names():
            if cls in _ruleset_types(name).values():
                topic = f"{name}/{stored_name(cls)}"
                break
        else:
            raise StoredNameError(
                f"{cls.__module__}.{cls.__qualname__} has no stored name: it is no core type "
                "(service/store/topics.py), no event type of a registered ruleset, and was not registered "
                "with service.topics.register"
            )
        _topics[cls] = topic
    return topic


def resolve(topic: str) -> type:
    """The class of a stored topic, canonical or release 0.1. Raises ``StoredNameError``."""
    cls = _registered.get(topic)
    if cls is not None:
        return cls
    canonical = _canonical_of_legacy(topic) if ":" in topic else topic
    namespace, slash, name = canonical.partition("/")
    if not slash:
        raise StoredNameError(f"unknown topic {topic!r}")
    if namespace in RESERVED_NAMESPACES:
        _load_service_records()
        cls = _registered.get(canonical)
    else:
        cls = _ruleset_types(namespace).get(name)
    if cls is None:
        raise StoredNameError(f"unknown topic {topic!r}")
    return cls


def topics_of(cls: type) -> tuple[str, ...]:
    """Every topic ``cls`` may be stored under: the canonical one first, then its release 0.1
    topics (for notification filters by topic)."""
    topic = topic_of(cls)
    return (topic, *(legacy for legacy, canonical in legacy_topics().items() if canonical == topic))


def stored_types(rulesets: Iterable[str] | None = None) -> dict[str, type]:
    """Canonical topic -> class of every stored type known now: core, registered (the service's
    records), and the event types of ``rulesets`` (default: every registered ruleset)."""
    _load_service_records()
    found = dict(_registered)
    for name in registry.names() if rulesets is None else rulesets:
        for stored, cls in _ruleset_types(name).items():
            found[f"{name}/{stored}"] = cls
    return found
