"""Events of free actions, ability cards and party items (past tense, frozen, tagged; never changed
once stored: docs/conventions.md, rule 8). Added to ``events.MouseEvent``/``EVENT_TYPES``; folded by
``evolve_items``.

Free actions: MM rulebook (it) §Azioni Gratuite (Condividere, Equipaggiare, Salire di Livello). Ability cards:
MM rulebook (it) §Carte Abilità dei Topi. Party items: MM rulebook (it) §Oggetti del Gruppo (pp. 18-19).
"""

from __future__ import annotations

from dicelog.domain.core.events import Event


class SearchCardShared(Event, kw_only=True):
    """Share: ``mouse`` gave a search card from its pack to ``with_mouse`` (MM rulebook (it) §Condividere);
    ``by`` is the mouse taking the Share free action (None: ``mouse``; a Share may also take cards)."""

    mouse: str
    """The mouse that gave the card (a mouse id such as ``filch``)."""
    with_mouse: str
    """The mouse that received it."""
    card: str
    """The search card moved from ``mouse``'s pack to ``with_mouse``'s (a search card id; see
    ``/content/mice-and-mystics/search-cards``)."""
    by: str | None = None
    """The mouse that took the Share free action (it may give or take); ``None``: ``mouse``."""


class CheeseShared(Event, kw_only=True):
    """Share: ``mouse`` gave ``count`` cheese to ``with_mouse`` (MM rulebook (it) §Condividere); ``by`` as for
    ``SearchCardShared``."""

    mouse: str
    """The mouse that gave the cheese (a mouse id such as ``filch``)."""
    with_mouse: str
    """The mouse that received it."""
    count: int
    """Cheese moved from ``mouse``'s stash to ``with_mouse``'s (1 or more)."""
    by: str | None = None
    """The mouse that took the Share free action (it may give or take); ``None``: ``mouse``."""


class PackCardDiscarded(Event, kw_only=True):
    """A pack over its limit of 3 non-trick cards: the player discarded ``card`` of their choice from
    ``mouse``'s pack, for no cheese (MM rulebook (it) §Equipaggiare: "dovrete scartare 1 carta a scelta")."""

    mouse: str
    """The mouse whose pack was over its limit (a mouse id such as ``filch``)."""
    card: str
    """The card its player chose to discard (a search card id)."""
    reason: str = "pack-limit"
    """Why it was discarded: always ``pack-limit`` so far."""


class SearchCardEquipped(Event, kw_only=True):
    """Equip: a card moved from the pack to ``slot``; ``unequipped`` cards it displaced went back to
    the pack (MM rulebook (it) §Equipaggiare). Starting equipment counts as equipped until first moved."""

    mouse: str
    """The mouse that equipped the card (a mouse id such as ``filch``)."""
    card: str
    """The card moved from its pack to its equipment (a search card or equipment id)."""
    slot: str
    """Where it went: ``paw``, ``both-paws``, ``body``, ``accessory`` or ``tail`` (Filch's dagger)."""
    unequipped: tuple[str, ...] = ()
    """Equipped cards it displaced, moved back to the pack."""
    loadout: tuple[tuple[str, str], ...] = ()  # every equipped (card, slot) after it
    """Every equipped (card, place) pair of the mouse after the change, in the order equipped."""


class SearchCardUnequipped(Event, kw_only=True):
    """Equip: an equipped card moved back to the pack (MM rulebook (it) §Equipaggiare)."""

    mouse: str
    """The mouse that unequipped the card (a mouse id such as ``filch``)."""
    card: str
    """The card moved from its equipment to its pack."""
    loadout: tuple[tuple[str, str], ...] = ()  # every equipped (card, slot) after it
    """Every equipped (card, place) pair of the mouse after the change, in the order equipped."""


class MouseLeveledUp(Event, kw_only=True):
    """Level up: ``cheese`` spent for the ability card ``ability`` (MM rulebook (it) §Salire di Livello)."""

    mouse: str
    """The mouse that levelled up (a mouse id such as ``filch``)."""
    ability: str
    """The ability card it took (an ability id; see ``/content/mice-and-mystics/abilities``)."""
    cheese: int = 6
    """Cheese it paid from its stash (6)."""


class AbilityUsed(Event, kw_only=True):
    """An ability card used, ``cost`` cheese paid (MM rulebook (it) §Carte Abilità dei Topi: one card a
    turn)."""

    mouse: str
    """The mouse that used the card (a mouse id such as ``filch``)."""
    ability: str
    """The ability card used (an ability id; see ``/content/mice-and-mystics/abilities``)."""
    cost: int = 0
    """Cheese paid from the mouse's stash for this use: the card's cost (First Aid: 1 less for a Healer; Cure:
    1 per thing taken off)."""


class KnifeStrikesLeft(Event, kw_only=True):
    """Knife Strike: ``count`` more attacks, one per equipped dagger not yet used, are still to make
    this Battle action; 0 ends the Knife Strike (docs/mice-and-mystics/facts.md §4;
    ``rules/knife_strike.py``)."""

    mouse: str
    """The mouse making the Knife Strike (a mouse id such as ``filch``)."""
    count: int = 0
    """Attacks still to make after the one declared right after this event (one per further equipped dagger);
    0: the Knife Strike is over."""


class PreemptiveShotWindowClosed(Event, kw_only=True):
    """The moment right after the placement of ``figures`` is over: Preemptive Shot was used
    (``mouse``), passed, or nobody could use it (docs/mice-and-mystics/facts.md §4;
    ``rules/preemptive_shot.py``)."""

    figures: tuple[str, ...] = ()
    """The minion figures whose placement opened the window (figure ids such as ``rat-warriors-3``)."""
    mouse: str | None = None
    """The mouse that took the Preemptive Shot (a mouse id); ``None``: passed, or nobody could."""


class MiceInspired(Event, kw_only=True):
    """Inspire, played by ``mouse`` before its turn: until round ``round`` ends each mouse may pay 1
    cheese for one extra action (docs/mice-and-mystics/facts.md §4; ``rules/inspire.py``)."""

    mouse: str
    """The mouse that played Inspire (a mouse id such as ``collin``)."""
    round: int
    """The current round number: Inspire lasts until that round ends."""


class ExtraActionTaken(Event, kw_only=True):
    """``mouse`` paid ``cheese`` for its one extra action of the round under Inspire
    (docs/mice-and-mystics/facts.md §4)."""

    mouse: str
    """The mouse taking the extra action (a mouse id such as ``filch``)."""
    cheese: int = 1
    """Cheese paid from its stash (1)."""
    ability: str = "inspire"
    """The ability card that allows the extra action (``inspire``)."""


class PartyItemGained(Event, kw_only=True):
    """A party item card found: the card goes by the story board, its token into the party stash
    (MM rulebook (it) §Oggetti del Gruppo)."""

    mouse: str
    """The mouse that found it (a mouse id such as ``filch``)."""
    card: str
    """The party item card: ``disguises``, ``fishhook-and-thread``, ``dinner-fork`` or ``grapes`` (see
    ``/content/mice-and-mystics/search-cards``)."""


class PartyItemPlaced(Event, kw_only=True):
    """A party item token put on the board from the stash (free), or the Grapes left whole where they were
    thrown (MM rulebook (it) §Oggetti del Gruppo): ``spaces`` its ends (Fishhook & Thread: two; Dinner Fork,
    Grapes: one)."""

    mouse: str
    """The figure that put it there: the mouse that placed it or threw the Grapes (a mouse id such as
    ``filch``), or the rat figure that threw them (e.g. ``rat-warriors-1``)."""
    item: str
    """The party item: ``fishhook-and-thread``, ``dinner-fork`` or ``grapes``."""
    spaces: tuple[str, ...]
    """The spaces of the token's ends (space ids such as ``GR-6``): Fishhook & Thread's first end is the
    placing mouse's space; thrown Grapes lie on their target's space."""


class PartyItemPickedUp(Event, kw_only=True):
    """A party item token taken back into the party stash (an action)."""

    mouse: str
    """The mouse that took it back, as its action (a mouse id such as ``filch``)."""
    item: str
    """The party item: ``fishhook-and-thread`` or ``dinner-fork``."""


class PartyItemLost(Event, kw_only=True):
    """A party item leaves the party (left behind in a room, discarded): its card goes back into the
    search deck (a ``SearchDeckShuffled`` follows)."""

    item: str
    """The party item lost (``disguises``, ``fishhook-and-thread``, ``dinner-fork``, ``grapes``)."""
    reason: str
    """``left-behind`` (its token stayed in a room the mice left), ``disguises`` (used up by an encounter),
    ``squashed`` (thrown grapes) or ``eaten`` (by roaches)."""


class MouseCatapulted(Event, kw_only=True):
    """Dinner Fork: ``by`` catapulted ``mouse`` from the fork's space to ``space`` (MM rulebook (it)
    §Forchetta)."""

    mouse: str
    """The mouse catapulted (a mouse id such as ``filch``)."""
    by: str
    """The mouse that took the Catapult action."""
    origin: str
    """The Dinner Fork's space, where ``mouse`` stood."""
    space: str
    """The space where ``mouse`` landed."""


class EquipmentDiscarded(Event, kw_only=True):
    """A captured mouse discards its equipped search cards; starting equipment stays equipped
    (MM rulebook (it) §Topi Catturati, MM rulebook (it) §Topi Catturati)."""

    mouse: str
    """The captured mouse (a mouse id such as ``filch``)."""
    cards: tuple[str, ...]
    """The equipped search cards it discarded."""
    loadout: tuple[tuple[str, str], ...] = ()  # what stays equipped
    """Every (card, place) pair still equipped: its starting equipment."""


class RoachesAteGrapes(Event, kw_only=True):
    """Roaches ended their move on the grapes: they and the grapes leave the board, no attack
    (MM rulebook (it) §Oggetti del Gruppo, Uva come Esca per Blatte)."""

    figures: tuple[str, ...]
    """The roach figures that left the board (figure ids such as ``roaches-2``)."""
    space: str
    """The grapes' space."""


class MouseDisplaced(Event, kw_only=True):
    """Cloak of Displacement: after blocking every hit of a minion's attack, the wearer moved from
    ``origin`` to ``space``, a normal space of the same room (MM rulebook (it) §Carte Ricerca, Mantello del
    Mutamento)."""

    mouse: str
    """The mouse wearing the cloak (a mouse id such as ``filch``)."""
    origin: str
    """The space it left."""
    space: str
    """The normal space of the same room it moved to."""
    card: str = "cloak-of-displacement"
    """The card that moved it (``cloak-of-displacement``)."""


class ScrollUsed(Event, kw_only=True):
    """A scroll used from the pack as a free action, then discarded (MM rulebook (it) §Carte Ricerca:
    Pergamena); ``effect`` is in force for the rest of the mouse's turn (``levitation``: red lines are
    crossed)."""

    mouse: str
    """The mouse that read the scroll (a mouse id such as ``filch``)."""
    card: str
    """The scroll card, discarded from its pack (a search card id such as ``scroll-of-levitation``)."""
    effect: str
    """The effect in force for the rest of the mouse's turn (``levitation``)."""


class EventCardResolved(Event, kw_only=True):
    """An event card drawn by search resolves at once and is discarded, never kept (MM rulebook (it) §Ricerca:
    "Se invece pescate un Evento, seguite le istruzioni sulla carta"); its effects, if the catalogue knows
    them, follow as their own events."""

    mouse: str
    """The mouse whose search drew it (a mouse id such as ``filch``)."""
    card: str
    """The event card (a search card id; see ``/content/mice-and-mystics/search-cards``)."""


ITEM_EVENTS = (
    MouseDisplaced,
    ScrollUsed,
    EventCardResolved,
    RoachesAteGrapes,
    EquipmentDiscarded,
    SearchCardShared,
    CheeseShared,
    PackCardDiscarded,
    SearchCardEquipped,
    SearchCardUnequipped,
    MouseLeveledUp,
    AbilityUsed,
    KnifeStrikesLeft,
    PreemptiveShotWindowClosed,
    MiceInspired,
    ExtraActionTaken,
    PartyItemGained,
    PartyItemPlaced,
    PartyItemPickedUp,
    PartyItemLost,
    MouseCatapulted,
)
ItemEvent = (
    MouseDisplaced
    | ScrollUsed
    | EventCardResolved
    | RoachesAteGrapes
    | EquipmentDiscarded
    | SearchCardShared
    | CheeseShared
    | PackCardDiscarded
    | SearchCardEquipped
    | SearchCardUnequipped
    | MouseLeveledUp
    | AbilityUsed
    | KnifeStrikesLeft
    | PreemptiveShotWindowClosed
    | MiceInspired
    | ExtraActionTaken
    | PartyItemGained
    | PartyItemPlaced
    | PartyItemPickedUp
    | PartyItemLost
    | MouseCatapulted
)
