"""Log lines for free-action, ability-card and party-item events (``read_models.describe``): one describer per
event type (``dicelog.domain.core.dispatch``), as ``read_models`` for the other events."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicelog.domain.core.dispatch import ByEventType
from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics import item_events as ie

if TYPE_CHECKING:
    from dicelog.domain.mice_and_mystics.words import Words

ITEM_DESCRIBE: ByEventType[Words, str | None] = ByEventType("describer", lambda words, event: None)
"""The describers of the item events, by event type; another event has no line here."""

_describes = ITEM_DESCRIBE.on


def describe_item(words: Words, event: Event) -> str | None:
    """The log line of a free-action, ability-card or party-item event, in players' words; ``None`` for
    another event."""
    return ITEM_DESCRIBE(words, event)


@_describes(ie.SearchCardShared)
def _search_card_shared(words: Words, event: ie.SearchCardShared) -> str | None:
    name_of = words.card
    return f"{name_of(event.mouse)} gives {words.card(event.card)} to {name_of(event.with_mouse)}"


@_describes(ie.CheeseShared)
def _cheese_shared(words: Words, event: ie.CheeseShared) -> str | None:
    name_of = words.card
    return f"{name_of(event.mouse)} gives {event.count} cheese to {name_of(event.with_mouse)}"


@_describes(ie.PackCardDiscarded)
def _pack_card_discarded(words: Words, event: ie.PackCardDiscarded) -> str | None:
    return f"{words.card(event.mouse)}'s pack is over the limit: {words.card(event.card)} is discarded"


@_describes(ie.SearchCardEquipped)
def _search_card_equipped(words: Words, event: ie.SearchCardEquipped) -> str | None:
    back = event.unequipped
    return f"{words.card(event.mouse)} equips {words.card(event.card)} ({event.slot.replace('-', ' ')})" + (
        f", {words.cards(back)} back in the pack" if back else ""
    )


@_describes(ie.SearchCardUnequipped)
def _search_card_unequipped(words: Words, event: ie.SearchCardUnequipped) -> str | None:
    return f"{words.card(event.mouse)} puts {words.card(event.card)} in the pack"


@_describes(ie.EquipmentDiscarded)
def _equipment_discarded(words: Words, event: ie.EquipmentDiscarded) -> str | None:
    return f"{words.card(event.mouse)} discards {words.cards(event.cards)}"


@_describes(ie.MouseLeveledUp)
def _mouse_leveled_up(words: Words, event: ie.MouseLeveledUp) -> str | None:
    return f"{words.card(event.mouse)} levels up: {words.card(event.ability)} for {event.cheese} cheese"


@_describes(ie.AbilityUsed)
def _ability_used(words: Words, event: ie.AbilityUsed) -> str | None:
    return f"{words.card(event.mouse)} uses {words.card(event.ability)} ({event.cost} cheese)"


@_describes(ie.KnifeStrikesLeft)
def _knife_strikes_left(words: Words, event: ie.KnifeStrikesLeft) -> str | None:
    name, n = words.card(event.mouse), event.count
    return (
        f"{name}'s Knife Strike: {n} more attack{'' if n == 1 else 's'}"
        if n
        else f"{name}'s Knife Strike is over"
    )


@_describes(ie.PreemptiveShotWindowClosed)
def _preemptive_shot_window_closed(words: Words, event: ie.PreemptiveShotWindowClosed) -> str | None:
    if event.mouse:
        return f"{words.card(event.mouse)} takes a Preemptive Shot"
    return "No Preemptive Shot after the placement"


@_describes(ie.MiceInspired)
def _mice_inspired(words: Words, event: ie.MiceInspired) -> str | None:
    return (
        f"{words.card(event.mouse)} inspires the mice: one extra action each for 1 cheese until round "
        f"{event.round} ends"
    )


@_describes(ie.ExtraActionTaken)
def _extra_action_taken(words: Words, event: ie.ExtraActionTaken) -> str | None:
    return f"{words.card(event.mouse)} pays {event.cheese} cheese for an extra action (Inspire)"


@_describes(ie.PartyItemGained)
def _party_item_gained(words: Words, event: ie.PartyItemGained) -> str | None:
    return f"The party gains {words.card(event.card)}"


@_describes(ie.PartyItemPlaced)
def _party_item_placed(words: Words, event: ie.PartyItemPlaced) -> str | None:
    return f"{words.thing(event.item)} is placed on {' and '.join(words.space(s) for s in event.spaces)}"


@_describes(ie.PartyItemPickedUp)
def _party_item_picked_up(words: Words, event: ie.PartyItemPickedUp) -> str | None:
    return f"{words.thing(event.item)} goes back into the party stash"


@_describes(ie.PartyItemLost)
def _party_item_lost(words: Words, event: ie.PartyItemLost) -> str | None:
    return f"{words.thing(event.item)} is lost ({event.reason.replace('-', ' ')})"


@_describes(ie.RoachesAteGrapes)
def _roaches_ate_grapes(words: Words, event: ie.RoachesAteGrapes) -> str | None:
    figures = ", ".join(words.figure(f) for f in event.figures)
    return f"{figures} eat the grapes on {words.space(event.space)} and leave the board"


@_describes(ie.MouseCatapulted)
def _mouse_catapulted(words: Words, event: ie.MouseCatapulted) -> str | None:
    return f"{words.card(event.by)} catapults {words.card(event.mouse)} to {words.space(event.space)}"


@_describes(ie.MouseDisplaced)
def _mouse_displaced(words: Words, event: ie.MouseDisplaced) -> str | None:
    return f"{words.card(event.mouse)}'s Cloak of Displacement takes it to {words.space(event.space)}"


@_describes(ie.ScrollUsed)
def _scroll_used(words: Words, event: ie.ScrollUsed) -> str | None:
    mouse, scroll = words.card(event.mouse), words.card(event.card)
    return f"{mouse} reads {scroll} ({event.effect} for the rest of the turn); the scroll is discarded"


@_describes(ie.EventCardResolved)
def _event_card_resolved(words: Words, event: ie.EventCardResolved) -> str | None:
    return f"{words.card(event.mouse)} draws the event {words.card(event.card)}: it is resolved and discarded"
