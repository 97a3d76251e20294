"""Log lines for free-action, ability-card and party-item events (``read_models.describe``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics import item_events as ie

if TYPE_CHECKING:
    from dicelog.domain.mice_and_mystics.words import Words


def describe_item(words: Words, event: Event) -> str | None:
    """The log line of a free-action, ability-card or party-item event, in players' words; ``None`` for
    another event."""
    name_of, card, at, fig = words.card, words.card, words.space, words.figure
    match event:
        case ie.SearchCardShared(mouse=m, with_mouse=w, card=c):
            return f"{name_of(m)} gives {card(c)} to {name_of(w)}"
        case ie.CheeseShared(mouse=m, with_mouse=w, count=n):
            return f"{name_of(m)} gives {n} cheese to {name_of(w)}"
        case ie.PackCardDiscarded(mouse=m, card=c):
            return f"{name_of(m)}'s pack is over the limit: {card(c)} is discarded"
        case ie.SearchCardEquipped(mouse=m, card=c, slot=s, unequipped=back):
            return f"{name_of(m)} equips {card(c)} ({s.replace('-', ' ')})" + (
                f", {words.cards(back)} back in the pack" if back else ""
            )
        case ie.SearchCardUnequipped(mouse=m, card=c):
            return f"{name_of(m)} puts {card(c)} in the pack"
        case ie.EquipmentDiscarded(mouse=m, cards=cards):
            return f"{name_of(m)} discards {words.cards(cards)}"
        case ie.MouseLeveledUp(mouse=m, ability=a, cheese=n):
            return f"{name_of(m)} levels up: {card(a)} for {n} cheese"
        case ie.AbilityUsed(mouse=m, ability=a, cost=n):
            return f"{name_of(m)} uses {card(a)} ({n} cheese)"
        case ie.KnifeStrikesLeft(mouse=m, count=n):
            return (
                f"{name_of(m)}'s Knife Strike: {n} more attack{'' if n == 1 else 's'}"
                if n
                else f"{name_of(m)}'s Knife Strike is over"
            )
        case ie.PreemptiveShotWindowClosed(mouse=m):
            return f"{name_of(m)} takes a Preemptive Shot" if m else "No Preemptive Shot after the placement"
        case ie.MiceInspired(mouse=m, round=r):
            return f"{name_of(m)} inspires the mice: one extra action each for 1 cheese until round {r} ends"
        case ie.ExtraActionTaken(mouse=m, cheese=n):
            return f"{name_of(m)} pays {n} cheese for an extra action (Inspire)"
        case ie.PartyItemGained(card=c):
            return f"The party gains {card(c)}"
        case ie.PartyItemPlaced(item=i, spaces=spaces):
            return f"{words.thing(i)} is placed on {' and '.join(at(s) for s in spaces)}"
        case ie.PartyItemPickedUp(item=i):
            return f"{words.thing(i)} goes back into the party stash"
        case ie.PartyItemLost(item=i, reason=r):
            return f"{words.thing(i)} is lost ({r.replace('-', ' ')})"
        case ie.RoachesAteGrapes(figures=figures, space=s):
            return f"{', '.join(fig(f) for f in figures)} eat the grapes on {at(s)} and leave the board"
        case ie.MouseCatapulted(mouse=m, by=b, space=s):
            return f"{name_of(b)} catapults {name_of(m)} to {at(s)}"
        case ie.MouseDisplaced(mouse=m, space=s):
            return f"{name_of(m)}'s Cloak of Displacement takes it to {at(s)}"
        case ie.ScrollUsed(mouse=m, card=c, effect=e):
            return f"{name_of(m)} reads {card(c)} ({e} for the rest of the turn); the scroll is discarded"
        case ie.EventCardResolved(mouse=m, card=c):
            return f"{name_of(m)} draws the event {card(c)}: it is resolved and discarded"
        case _:
            return None
