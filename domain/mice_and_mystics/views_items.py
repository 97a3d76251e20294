"""Log lines for free-action, ability-card and party-item events (``views.describe``)."""

from __future__ import annotations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics import item_events as ie


def describe_item(name_of, event: Event) -> str | None:
    match event:
        case ie.SearchCardShared(mouse=m, with_mouse=w, card=c):
            return f"{name_of(m)} gives {c} to {name_of(w)}"
        case ie.CheeseShared(mouse=m, with_mouse=w, count=n):
            return f"{name_of(m)} gives {n} cheese to {name_of(w)}"
        case ie.PackCardDiscarded(mouse=m, card=c):
            return f"{name_of(m)}'s pack is over the limit: {c} is discarded"
        case ie.SearchCardEquipped(mouse=m, card=c, slot=s, unequipped=back):
            return f"{name_of(m)} equips {c} ({s})" + (
                f", {', '.join(back)} back in the pack" if back else ""
            )
        case ie.SearchCardUnequipped(mouse=m, card=c):
            return f"{name_of(m)} puts {c} in the pack"
        case ie.EquipmentDiscarded(mouse=m, cards=cards):
            return f"{name_of(m)} discards {', '.join(cards)}"
        case ie.MouseLeveledUp(mouse=m, ability=a, cheese=n):
            return f"{name_of(m)} levels up: {a} for {n} cheese"
        case ie.AbilityUsed(mouse=m, ability=a, cost=n):
            return f"{name_of(m)} uses {a} ({n} cheese)"
        case ie.KnifeStrikesLeft(mouse=m, count=n):
            return (
                f"{name_of(m)}'s Knife Strike: {n} more attack(s)"
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
            return f"The party gains {c}"
        case ie.PartyItemPlaced(item=i, spaces=spaces):
            return f"{i} is placed on {' and '.join(spaces)}"
        case ie.PartyItemPickedUp(item=i):
            return f"{i} goes back into the party stash"
        case ie.PartyItemLost(item=i, reason=r):
            return f"{i} is lost ({r})"
        case ie.RoachesAteGrapes(figures=figures, space=s):
            return f"{', '.join(figures)} eat the grapes on {s} and leave the board"
        case ie.MouseCatapulted(mouse=m, by=b, space=s):
            return f"{name_of(b)} catapults {name_of(m)} to {s}"
        case ie.MouseDisplaced(mouse=m, space=s):
            return f"{name_of(m)}'s Cloak of Displacement takes it to {s}"
        case ie.ScrollUsed(mouse=m, card=c, effect=e):
            return f"{name_of(m)} reads {c} ({e} for the rest of the turn); the scroll is discarded"
        case ie.EventCardResolved(mouse=m, card=c):
            return f"{name_of(m)} draws the event {c}: it is resolved and discarded"
        case _:
            return None
