"""Campaign carry-over (MM rulebook (it) §Giocare Mice and Mystics come una Campagna; MM summary (fr) Mode
Campagne; docs/mice-and-mystics/facts.md, Campaign carry-over). Rulings in docs/mice-and-mystics/rulings.md
(Campaign carry-over).

After a won chapter the next one receives a ``CarryOver`` document:

1. story achievements (party) and abilities (per mouse) are all kept;
2. each mouse keeps 1 search card (MM rulebook (it) «I Topi possono conservare solo 1 delle carte Ricerca … va
   aggiunta all'equipaggiamento iniziale»), put in its pack at setup (``CarryOver.equipment`` names
   it; it is not equipped). The players choose it: between the chapter's victory and the next
   chapter, the seat controlling a mouse names its card (``CarryOverChoice``, a campaign's
   ``CarryOverChosen`` event; ``check_choice``) or ``null`` for none; a mouse no seat chose for keeps
   the default: the card with the highest battle + defense bonus, ties to the one found first. Never a
   party item, never the mouse's own starting equipment; the card kept from the chapter before
   competes like any other;
3. party items, personal achievements, cheese, wounds and effects are lost (simply not carried).

The next chapter's ``Begin`` applies it (``CarryOverApplied``, after the decks are prepared): the
achievements and abilities are restored and each kept card goes to its mouse's pack, out of the deck.
"""

from __future__ import annotations

import msgspec

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.chapter_events import CarryOverApplied
from dicelog.domain.mice_and_mystics.content import Library, shipped_library
from dicelog.domain.mice_and_mystics.documents import CarryOver, CarryOverChoice
from dicelog.domain.mice_and_mystics.events import DecksPrepared
from dicelog.domain.mice_and_mystics.packs import library_of, setup_pack
from dicelog.domain.mice_and_mystics.state import State

SECTION = "MM rulebook (it) §Giocare Mice and Mystics come una Campagna"
# docs/mice-and-mystics/facts.md §5
PARTY_ITEMS = frozenset({"disguises", "fishhook-and-thread", "dinner-fork", "grapes"})


def _card_stats(lib: Library, card: str) -> tuple[str | None, int]:
    found = getattr(lib, "search_cards", {}).get(card)
    if found is not None:
        return found.type, found.battle + found.defense
    item = lib.items.get(card)
    return (item.kind, item.battle + item.defense) if item is not None else (None, 0)


def keepable(lib: Library, cards: tuple[str, ...]) -> list[str]:
    """The cards of ``cards`` a mouse may keep: every one but the party items."""
    return [c for c in cards if c not in PARTY_ITEMS and _card_stats(lib, c)[0] != "party-item"]


def kept_card(lib: Library, cards: tuple[str, ...]) -> str | None:
    """The one search card a mouse keeps by default: best battle + defense bonus, ties to the first found."""
    eligible = keepable(lib, cards)
    return max(eligible, key=lambda c: (_card_stats(lib, c)[1], -cards.index(c)), default=None)


def held_cards(lib: Library, final_state: State, mouse: str) -> tuple[str, ...]:
    """The search cards ``mouse`` holds at the chapter's end, in the order found: its pack, then what it has
    equipped (equipped search cards compete too, rules/equip.py), less its own starting equipment."""
    start = set(lib.mice[mouse].starting_equipment)
    held = (*final_state.pack.get(mouse, ()), *(c for c, _ in final_state.equipped.get(mouse, ())))
    return tuple(dict.fromkeys(c for c in held if c not in start))


def check_choice(final_state: State, pieces: frozenset[str], choice: CarryOverChoice) -> None:
    """Check a seat's ``CarryOverChoice`` against the won chapter's final state; ``pieces`` are the mice the
    seat controls. Raises ``RuleBroken``: ``campaign.not-your-mouse`` (a mouse the seat does not control, or
    not of the party) and ``campaign.card-not-kept`` (a card the mouse does not hold at the end, a party
    item, or its starting equipment)."""
    lib = library_of(final_state)
    for mouse, card in choice.keep.items():
        if mouse not in final_state.party or mouse not in pieces:
            raise RuleBroken(
                "campaign.not-your-mouse",
                section=SECTION,
                detail=f"{mouse!r} is not a mouse of the party this seat controls ({sorted(pieces)})",
            )
        allowed = keepable(lib, held_cards(lib, final_state, mouse))
        if card is not None and card not in allowed:
            raise RuleBroken(
                "campaign.card-not-kept",
                section=SECTION,
                detail=f"{mouse} may keep one of {allowed} (or null: none), not {card!r}",
            )


def carry_over_of(
    final_state: State, previous: CarryOver | None, chosen: dict[str, str | None] | None = None
) -> CarryOver:
    """The carry-over of a won chapter; ``chosen``: the card each mouse's seat chose (``None``: none), the
    default for every other mouse."""
    previous = previous or CarryOver()
    chosen = chosen or {}
    equipment = {}
    lib = library_of(final_state)
    for mouse in final_state.party:
        card = chosen[mouse] if mouse in chosen else kept_card(lib, held_cards(lib, final_state, mouse))
        if card is not None:
            equipment[mouse] = card
    return CarryOver(
        from_chapter=final_state.chapter,
        story_achievements=tuple(
            dict.fromkeys((*previous.story_achievements, *final_state.story_achievements))
        ),
        abilities={**previous.abilities, **final_state.abilities},
        equipment=equipment,
    )


def campaign_carry_over(
    final_state: State, previous: msgspec.Raw | None, choices: tuple[msgspec.Raw, ...] = ()
) -> msgspec.Raw:
    """What the next chapter receives (JSON of ``CarryOver``), from the final state of a won chapter,
    the carry-over that chapter itself received, and the seats' choices (JSON of ``CarryOverChoice``, each
    checked by ``check_choice`` when it was made)."""
    before = msgspec.json.decode(previous, type=CarryOver) if previous is not None else None
    chosen: dict[str, str | None] = {}
    for raw in choices:
        chosen.update(msgspec.json.decode(raw, type=CarryOverChoice).keep)
    return msgspec.Raw(msgspec.json.encode(carry_over_of(final_state, before, chosen)))


def campaign_choice(final_state: State, pieces: frozenset[str], choice: object) -> msgspec.Raw:
    """A seat's carry-over choice (JSON data of ``CarryOverChoice``) checked against the won chapter's
    final state, as canonical JSON to record. Raises ``msgspec.ValidationError`` (not a
    ``CarryOverChoice``) and what ``check_choice`` raises."""
    parsed = msgspec.convert(choice, CarryOverChoice)
    check_choice(final_state, pieces, parsed)
    return msgspec.Raw(msgspec.json.encode(parsed))


class _PartyContent(msgspec.Struct, frozen=True, kw_only=True):
    """The one field of a party's setup that says which content it plays: its content pack, if any."""

    content_pack: msgspec.Raw = msgspec.Raw(b"null")


def campaign_chapters(party: msgspec.Raw) -> frozenset[str]:
    """The chapter ids a campaign of ``party`` (``CampaignStarted.setup``: the setup document without its
    chapter, JSON) can play: those of the shipped content, or of the content with the party's
    ``content_pack`` laid over it. Raises ``RuleBroken``: ``setup.invalid`` (not a setup object) and
    ``setup.content-pack`` (a pack that does not load)."""
    try:
        pack = msgspec.json.decode(party, type=_PartyContent).content_pack
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise RuleBroken("setup.invalid", section=SECTION, detail=str(e)) from None
    found = setup_pack(pack)
    lib = found[2] if found is not None else shipped_library()
    return frozenset(lib.chapters)


def check_carry_over(lib: Library, carry: CarryOver, party: tuple[str, ...]) -> None:
    for mouse in (*carry.equipment, *carry.abilities):
        if mouse not in lib.mice:
            raise RuleBroken("setup.unknown-mouse", section=SECTION, detail=f"carry-over: no mouse {mouse!r}")


def with_carry_over(state: State, events: list[Event]) -> list[Event]:
    """The chapter's setup events with ``CarryOverApplied`` right after the decks are prepared."""
    carry = state.carry_in
    if carry is None:
        return events
    applied = CarryOverApplied(
        from_chapter=carry.from_chapter,
        story_achievements=carry.story_achievements,
        abilities={m: a for m, a in carry.abilities.items() if m in state.party},
        equipment={m: c for m, c in carry.equipment.items() if m in state.party},
    )
    at = next((i + 1 for i, e in enumerate(events) if isinstance(e, DecksPrepared)), len(events))
    return [*events[:at], applied, *events[at:]]
