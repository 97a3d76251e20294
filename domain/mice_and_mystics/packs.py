"""Content packs in games: a game created with a content pack plays with that content.

A content pack is a set of content files (the same names and formats as ``content/``), given
inline in the setup as ``content_pack: {"<file name>": <document>, ...}``. A pack record replaces
the shipped record with the same id; a new id extends the content (``content.records_of``). The
pack is part of the game's first event, and the state keeps it (with its digest), so replay,
snapshots, verify and exports need nothing else.

The rules read content through ``content.library()``; ``PackAwareRuleset`` wraps the ruleset so
that every call made with a state of a pack game runs with that game's library active (a
``ContextVar``, so concurrent games in one process never see each other's content).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.core.errors import RuleBroken
from domain.core.events import GameCreated
from domain.mice_and_mystics import content

SECTION = "issue 4, Content as data (content packs)"
_libraries: dict[str, content.Library] = {}


def pack_library(documents: dict[str, Any]) -> tuple[str, content.Library]:
    """(digest, library) of the shipped content with ``documents`` laid over it.

    Raises ``RuleBroken("setup.content-pack")`` for an unknown file name, a document that does
    not decode, or content the content check finds inconsistent.
    """
    raw = msgspec.json.encode(documents, order="sorted")
    digest = hashlib.sha256(raw).hexdigest()
    if digest in _libraries:
        return digest, _libraries[digest]
    try:
        read = {name: content.decoder_for(name)(msgspec.json.encode(doc)) for name, doc in documents.items()
                if _known(name)}
    except (msgspec.DecodeError, msgspec.ValidationError, StopIteration) as e:
        raise RuleBroken("setup.content-pack", section=SECTION, detail=str(e)) from None
    unknown = [name for name in documents if not _known(name)]
    if unknown:
        raise RuleBroken("setup.content-pack", section=SECTION, detail=f"not content file names: {unknown}")
    shipped = content.shipped_library()
    records = {kind: dict(getattr(shipped, kind)) for kind in content.KINDS.values()}
    for kind, by_id in content.records_of(read).items():
        records[kind].update(by_id)
    library = content.index_library(records)
    from domain.mice_and_mystics.content_check import check

    findings = check(library)
    if findings:
        shown = "; ".join(f"{f.rule} at {f.where}: {f.detail}" for f in findings[:5])
        raise RuleBroken("setup.content-pack", section=SECTION, detail=f"the pack's content is inconsistent: {shown}")
    _libraries[digest] = library
    return digest, library


def _known(name: str) -> bool:
    return content.kind_of(name) is not None


@contextmanager
def using(state: Any) -> Iterator[None]:
    """Run the block with the content of ``state``'s game (its pack, if it has one)."""
    pack = getattr(state, "content_pack", None)
    if pack is None:
        yield
        return
    digest = state.content_pack_digest
    library = _libraries.get(digest) or pack_library(pack)[1]
    token = content.ACTIVE_LIBRARY.set(library)
    try:
        yield
    finally:
        content.ACTIVE_LIBRARY.reset(token)


class PackAwareRuleset:
    """The Mice and Mystics ruleset, running each call with the game's own content."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.state_type = inner.state_type
        self.command_type = inner.command_type
        self.event_types = inner.event_types

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def initial_state(self, created: GameCreated) -> Any:
        setup = msgspec.json.decode(created.setup)
        documents = setup.pop("content_pack", None) if isinstance(setup, dict) else None
        if documents is None:
            return self.inner.initial_state(created)
        if not isinstance(documents, dict):
            raise RuleBroken("setup.content-pack", section=SECTION, detail="content_pack maps file names to documents")
        digest, library = pack_library(documents)
        stripped = replace(created, setup=msgspec.Raw(msgspec.json.encode(setup)))
        token = content.ACTIVE_LIBRARY.set(library)
        try:
            state = self.inner.initial_state(stripped)
        finally:
            content.ACTIVE_LIBRARY.reset(token)
        return replace(state, content_pack=documents, content_pack_digest=digest)

    def _with(self, method: str, state: Any, *args: Any) -> Any:
        with using(state):
            return getattr(self.inner, method)(state, *args)

    def decide(self, state: Any, command: Any) -> Any:
        return self._with("decide", state, command)

    def resolve(self, state: Any, answer: Any) -> Any:
        return self._with("resolve", state, answer)

    def evolve(self, state: Any, event: Any) -> Any:
        if state.content_pack is None:
            return self.inner.evolve(state, event)
        return self._with("evolve", state, event)

    def outcome(self, state: Any) -> Any:
        return self._with("outcome", state)

    def turn_piece(self, state: Any) -> Any:
        return self._with("turn_piece", state)

    def legal_commands(self, state: Any) -> Any:
        return self._with("legal_commands", state)

    def initiative_view(self, state: Any) -> Any:
        return self._with("initiative_view", state)

    def board_view(self, state: Any) -> Any:
        return self._with("board_view", state)

    def describe(self, state: Any, event: Any) -> Any:
        return self._with("describe", state, event)

    def campaign_carry_over(self, state: Any, previous: Any) -> Any:
        return self._with("campaign_carry_over", state, previous)
