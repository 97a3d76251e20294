"""Game and chapter setup (MM rulebook (it) §Preparazione del Gioco; MM rulebook (it) §Capitolo 1,
Preparazione).

``GameCreated.setup`` is the JSON of ``Setup``. ``initial_state`` checks it; ``decide_begin`` puts
the chapter on the table: room tiles, mice on the start space, the chapter's minions on minion
entrances (MM rulebook (it) §Collocare i Servitori sul Tabellone), hourglass and end marker (MM rulebook (it)
§Plancia del Racconto), decks; each mouse's starting ability card (``starting_abilities.py``); then asks for
the initiative shuffle (MM rulebook (it) §Determinare l'Ordine di Iniziativa: "mescolate le carte Iniziativa
dei Topi e dei Servitori presenti nella Stanza").
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event, GameCreated, ShuffleRequested
from dicelog.domain.mice_and_mystics.campaign import check_carry_over
from dicelog.domain.mice_and_mystics.chapter_events import ChapterStoryRead, StartingAbilityTaken
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.documents import Card, CarryOver, Sandbox
from dicelog.domain.mice_and_mystics.events import (
    DecksPrepared,
    FigurePlaced,
    InitiativeTrackLaid,
    RoomTilePlaced,
    StoryBoardPrepared,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.packs import library_of, setup_pack
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.placement import place_groups
from dicelog.domain.mice_and_mystics.rules.sandbox import sandbox_begin, sandbox_events
from dicelog.domain.mice_and_mystics.rules.starting_abilities import begin_tail, check_setup_abilities
from dicelog.domain.mice_and_mystics.rules.ties import Choices
from dicelog.domain.mice_and_mystics.state import RULES_REVISION, State

DECKS_PROVISIONAL = (
    "encounter card contents unknown (facts.md §6); search deck of 71 cards not listed (facts.md §5)"
)
"""``DecksPrepared.provisional_reason``, stored in every game since release 0.1: its bytes never change
(docs/event-model.md, Stored names are forever), or stored games would no longer re-derive. The facts
file it names is today's docs/mice-and-mystics/facts.md (§6 encounter cards, §5 search cards)."""


class Setup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The ruleset's setup document: the chapter and the party of mice; optionally an explicit
    ``sandbox`` table instead of the chapter's setup (``rules/sandbox.py``; the chapter's rules still
    apply), a campaign ``carry_over`` from the previous chapter (``campaign.py``), and the
    ``abilities`` chosen for the mice (mouse → ability card; every mouse left out chooses through a
    pending decision at setup: ``rules/starting_abilities.py``)."""

    chapter: str = "chapter-1"
    """The chapter played (a chapter id from ``/content/mice-and-mystics/chapters``)."""
    mice: tuple[str, ...]
    """The party: mouse ids from ``/content/mice-and-mystics/mice`` (MM rulebook (it) §Preparazione del
    Gioco)."""
    sandbox: Sandbox | None = None
    """An explicit table to start from instead of the chapter's own setup (``null``: the chapter's)."""
    carry_over: CarryOver | None = None
    """What the party brings from the previous chapter of a campaign (``null``: a fresh party)."""
    abilities: dict[Card, Card] = {}
    """The starting ability card of each mouse (mouse id -> ability card id); a mouse left out
    chooses through a pending ``starting-ability`` decision."""


class StoredSetup(Setup, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``GameCreated.setup`` as stored: the ``Setup`` and, for a game created with a content pack,
    the pack's raw JSON (``packs.setup_pack``; ``null`` when there is none)."""

    content_pack: msgspec.Raw = msgspec.Raw(b"null")


class SetupDocument(Setup, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``GameCreated.setup`` (and a campaign's ``CampaignStarted.setup``, the party's) as stored and as the
    API shows it: the ``Setup``, and for a game created with a content pack the pack itself. The typed
    mirror of ``StoredSetup`` (which keeps the pack as raw bytes) for the OpenAPI document and the checks of
    stored setups; the ruleset's ``stored_setup_type``."""

    content_pack: Annotated[dict[str, Any], Meta(extra_json_schema={"additionalProperties": True})] | None = (
        None
    )
    """The game's content pack (file name, as in the shipped content, e.g. ``mice.json`` -> that document:
    a JSON object in the shipped file's format); absent or ``null``: the shipped content."""


def decode_setup(raw: bytes) -> StoredSetup:
    try:
        return msgspec.json.decode(raw, type=StoredSetup)
    except msgspec.DecodeError as error:
        raise RuleBroken("setup.invalid", section=sections.SETUP, detail=str(error)) from None


def check_setup(lib: Library, setup: Setup, created: GameCreated) -> None:
    """Refuse an unknown chapter or mouse (of the game's content ``lib``), a wrong party size, a
    mouse the chapter forbids, or a party mouse not controlled by exactly one seat."""
    chapter = lib.chapters.get(setup.chapter)
    if chapter is None:
        raise RuleBroken(
            "setup.unknown-chapter", section=sections.SETUP, detail=f"no chapter {setup.chapter!r}"
        )
    for mouse in setup.mice:
        if mouse not in lib.mice:
            raise RuleBroken("setup.unknown-mouse", section=sections.SETUP, detail=f"no mouse {mouse!r}")
        if mouse in chapter.mice_not_allowed:
            raise RuleBroken(
                "setup.mouse-not-allowed", section=sections.CHAPTER_1, detail=chapter.mice_not_allowed_reason
            )
    sizes = range(1, chapter.party_size + 1) if setup.sandbox is not None else (chapter.party_size,)
    if len(set(setup.mice)) != len(setup.mice) or len(setup.mice) not in sizes:
        raise RuleBroken(
            "setup.party-size",
            section=sections.CHAPTER_1,
            detail=f"{chapter.id} needs exactly {chapter.party_size} different mice",
        )
    controlled = [piece for seat in created.seats for piece in seat.controls]
    for mouse in setup.mice:
        if controlled.count(mouse) != 1:
            raise RuleBroken(
                "setup.seat-controls",
                section=sections.SETUP,
                detail=f"{mouse} must be controlled by exactly one seat, not {controlled.count(mouse)}",
            )
    strangers = sorted(set(controlled) - set(setup.mice))
    if strangers:
        raise RuleBroken(
            "setup.seat-controls", section=sections.SETUP, detail=f"not in the party: {strangers}"
        )


def initial_state(created: GameCreated) -> State:
    """The state right after ``GameCreated``: the party chosen, nothing on the table yet; with the
    game's content pack, if the setup has one (``packs.setup_pack``: refused if too large or
    inconsistent), which every later state carries so the rules read that content."""
    if not 1 <= created.rules_revision <= RULES_REVISION:
        raise RuleBroken(
            "setup.rules-revision",
            section=sections.SETUP,
            detail=f"rules revision {created.rules_revision}: this build plays 1 to {RULES_REVISION}",
        )
    setup = decode_setup(created.setup)
    pack = setup_pack(setup.content_pack)
    state = State(chapter=setup.chapter, party=setup.mice, rules_revision=created.rules_revision)
    if pack is not None:
        state = replace(state, content_pack=pack[0], content_pack_digest=pack[1])
    lib = library_of(state) if pack is None else pack[2]
    check_setup(lib, setup, created)
    if setup.sandbox is not None:
        sandbox_events(state, setup.sandbox)  # refuses a table that cannot be
    if setup.carry_over is not None:
        check_carry_over(lib, setup.carry_over, setup.mice)
    check_setup_abilities(lib, setup.abilities, setup.mice, setup.carry_over)
    return replace(
        state, sandbox=setup.sandbox, carry_in=setup.carry_over, setup_abilities=dict(setup.abilities)
    )


def decide_begin(state: State, choices: Choices | None = None) -> list[Event]:
    """Put chapter ``state.chapter`` on the table and ask for the initiative shuffle.

    Ties in placing the chapter's minions (MM rulebook (it) §Collocare i Servitori sul Tabellone) are broken
    by ``choices`` (``rules/ties.py``: ``Undecided`` propagates at an unanswered tie; ``None`` takes the
    defaults); ``deferred.begin`` wraps this for the ``Begin`` command. Raises
    ``RuleBroken("setup.already-begun")``."""
    if state.phase != "setup" or state.tiles:
        raise RuleBroken(
            "setup.already-begun", section=sections.SETUP, detail="the chapter is already set up"
        )
    events: list[Event]
    if state.sandbox is not None:
        events = sandbox_begin(state, state.sandbox)
        at = next(i for i, e in enumerate(events) if isinstance(e, (ShuffleRequested, InitiativeTrackLaid)))
        taken = [
            StartingAbilityTaken(mouse=m, ability=a, chosen_in="setup")
            for m, a in state.setup_abilities.items()
        ]
        return [*events[:at], *taken, *events[at:]]
    chapter = library_of(state).chapters[state.chapter]
    events = []
    if state.rules_revision >= 2 and chapter.opening:  # the chapter's opening read-aloud (MM rulebook (pt))
        events.append(ChapterStoryRead(part="opening", text=chapter.opening))
    events += [RoomTilePlaced(tile=t.tile, column=t.column, row=t.row) for t in chapter.tiles]
    events += [FigurePlaced(figure=m, card=m, space=chapter.start_space) for m in state.party]
    after = evolve_all(state, events)
    for tile in dict.fromkeys(
        g.tile for g in chapter.minions
    ):  # one placement per room: melee spread over all cards
        placed = place_groups(
            after, [(g.card, g.count) for g in chapter.minions if g.tile == tile], tile, choices
        )
        after = evolve_all(after, placed)
        events += placed
    events.append(
        StoryBoardPrepared(hourglass_page=chapter.hourglass_page, end_marker_page=chapter.end_marker_page)
    )
    events.append(
        DecksPrepared(
            encounter_deck=chapter.encounter_deck,
            search_deck=chapter.search_deck,
            provisional_reason=DECKS_PROVISIONAL,
        )
    )
    after = evolve_all(after, events[-2:])
    return events + begin_tail(after)
