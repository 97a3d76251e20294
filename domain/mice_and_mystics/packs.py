"""Content packs in games: a game created with a content pack plays with that content.

A content pack is a set of content files (the same names and formats as ``content/``), given
inline in the setup as ``content_pack: {"<file name>": <document>, ...}``. A pack record replaces
the shipped record with the same id; a new id extends the content (``content.records_of``). The
pack is part of the game's first event, and the state keeps it (each document as compact JSON,
``msgspec.Raw``) with its digest, so replay, snapshots, verify and exports need nothing else.

The rules read content with ``packs.library_of(state)``: the pack library is found by the
state's digest in a small bounded cache (``content.PACK_LIBRARIES``) or rebuilt from the state's
pack (``library_of_pack``). Nothing process-global decides which content a game sees.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgspec

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.mice_and_mystics import content
from dicelog.domain.mice_and_mystics.content_check import check
from dicelog.domain.mice_and_mystics.state import State

SECTION = "docs/mice-and-mystics/index.md, Content packs: your own box's cards"

MAX_PACK_BYTES = 1_048_576
"""The largest content pack a game may be created with: 1 MiB of its canonical JSON (the pack's
documents encoded compactly with every object's keys sorted, the bytes its digest is taken of).
A bigger pack is refused with ``PackTooLarge`` (HTTP 413). Every state of the game carries the
pack, and each process keeps a few pack libraries (``content.PACK_LIBRARIES_KEPT``): the cap
bounds what a game costs in memory, in snapshots and in the undo events that hold a state."""

PackDocuments = dict[str, msgspec.Raw]
"""A pack as the state keeps it: file name -> the document's compact JSON."""


class PackTooLarge(RuleBroken):
    """The content pack's canonical JSON is larger than ``MAX_PACK_BYTES`` (HTTP 413)."""

    status = 413

    def __init__(self, size: int) -> None:
        super().__init__(
            "setup.content-pack-too-large",
            section=SECTION,
            detail=f"the content pack is {size} bytes of canonical JSON; at most {MAX_PACK_BYTES} are allowed"
            " (send a smaller pack)",
        )


def canonical(documents: Mapping[str, Any]) -> bytes:
    """The canonical JSON of a pack (compact, keys sorted): what its digest and size are of."""
    return msgspec.json.encode(documents, order="sorted")


def pack_digest(documents: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(documents)).hexdigest()


def pack_library(documents: Mapping[str, Any]) -> tuple[str, content.Library]:
    """(digest, library) of the shipped content with ``documents`` laid over it.

    Raises ``PackTooLarge`` for a pack over ``MAX_PACK_BYTES``, and ``RuleBroken("setup.content-pack")``
    for an unknown file name, a document that does not decode, or content the content check finds
    inconsistent. The library is kept in ``content.PACK_LIBRARIES`` under the digest.
    """
    raw = canonical(documents)
    if len(raw) > MAX_PACK_BYTES:
        raise PackTooLarge(len(raw))
    digest = hashlib.sha256(raw).hexdigest()
    found = content.PACK_LIBRARIES.get(digest)
    if found is not None:
        return digest, found
    unknown = [name for name in documents if not _known(name)]
    if unknown:
        raise RuleBroken("setup.content-pack", section=SECTION, detail=f"not content file names: {unknown}")
    library = _build({name: msgspec.json.encode(doc) for name, doc in documents.items()})
    return digest, content.PACK_LIBRARIES.put(digest, library)


def library_of_pack(pack: Mapping[str, Any]) -> content.Library:
    """The library of a pack a state carries (``PackDocuments``), checked as at creation. Used by
    ``packs.library_of`` when the pack's library is not (or no longer) in the bounded cache."""
    return _build({name: doc for name, doc in pack.items() if _known(name)})


def _build(encoded: Mapping[str, Any]) -> content.Library:
    """The shipped content with the encoded documents (bytes or ``Raw``) laid over it, checked."""
    try:
        read = {name: content.decoder_for(name)(doc) for name, doc in encoded.items()}
    except (msgspec.DecodeError, msgspec.ValidationError, StopIteration) as e:
        raise RuleBroken("setup.content-pack", section=SECTION, detail=str(e)) from None
    shipped = content.shipped_library()
    records = {kind: dict(getattr(shipped, kind)) for kind in content.KINDS.values()}
    for kind, by_id in content.records_of(read).items():
        records[kind].update(by_id)
    library = content.index_library(records)
    findings = check(library)
    if findings:
        shown = "; ".join(f"{f.rule} at {f.where}: {f.detail}" for f in findings[:5])
        detail = f"the pack's content is inconsistent: {shown}"
        raise RuleBroken("setup.content-pack", section=SECTION, detail=detail)
    return library


def _known(name: str) -> bool:
    return content.kind_of(name) is not None


def setup_pack(pack_json: msgspec.Raw) -> tuple[PackDocuments, str, content.Library] | None:
    """The content pack given in a setup (``pack_json``: the raw JSON of its ``content_pack``) as
    (documents as the state keeps them, digest, library); ``None`` when there is none (``null``).

    The documents stay slices of the setup's own bytes (no copy) when those are already compact
    JSON, which they are for setups the service writes; else they are re-encoded compactly. Either
    way they encode exactly as the decoded documents do, as earlier releases stored them.
    """
    documents = msgspec.json.decode(pack_json)
    if documents is None:
        return None
    if not isinstance(documents, dict):
        detail = "content_pack maps file names to documents"
        raise RuleBroken("setup.content-pack", section=SECTION, detail=detail)
    digest, library = pack_library(documents)
    compact = msgspec.json.encode(documents)
    source: Any = pack_json if bytes(pack_json) == compact else compact
    return msgspec.json.decode(source, type=PackDocuments), digest, library


def library_of(state: State) -> content.Library:
    """The content of ``state``'s game: its content pack laid over the shipped content, or the
    shipped content (``State.content_pack_digest`` is ``None``). Every rule reads content here
    (or is handed the library by a caller that did): nothing process-global decides it."""
    digest, pack = state.content_pack_digest, state.content_pack
    if digest is None:
        return content.shipped_library()
    if pack is None:
        raise InvariantViolated("content-pack", f"a content pack digest {digest} without its pack")
    found = content.PACK_LIBRARIES.get(digest)
    if found is not None:
        return found
    return content.PACK_LIBRARIES.put(digest, library_of_pack(pack))
