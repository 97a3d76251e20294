"""Events of free actions, ability cards and party items (past tense, frozen, tagged; never changed
once stored: STYLE.md, 8). Added to ``events.MouseEvent``/``EVENT_TYPES``; folded by ``evolve_items``.

Free actions: 001 §Azioni Gratuite (Condividere, Equipaggiare, Salire di Livello). Ability cards:
001 §Carte Abilità dei Topi. Party items: 001 §Oggetti del Gruppo (pp. 18-19).
"""

from __future__ import annotations

from domain.core.events import Event


class SearchCardShared(Event, kw_only=True):
    """Share: ``mouse`` gave a search card from its pack to ``with_mouse`` (001 §Condividere); ``by``
    is the mouse taking the Share free action (None: ``mouse``; a Share may also take cards)."""

    mouse: str
    with_mouse: str
    card: str
    by: str | None = None


class CheeseShared(Event, kw_only=True):
    """Share: ``mouse`` gave ``count`` cheese to ``with_mouse`` (001 §Condividere); ``by`` as for
    ``SearchCardShared``."""

    mouse: str
    with_mouse: str
    count: int
    by: str | None = None


class PackCardDiscarded(Event, kw_only=True):
    """A pack over its limit of 3 non-trick cards: the player discarded ``card`` of their choice from
    ``mouse``'s pack, for no cheese (001 §Equipaggiare: "dovrete scartare 1 carta a scelta")."""

    mouse: str
    card: str
    reason: str = "pack-limit"


class SearchCardEquipped(Event, kw_only=True):
    """Equip: a card moved from the pack to ``slot``; ``unequipped`` cards it displaced went back to
    the pack (001 §Equipaggiare). Starting equipment counts as equipped until first moved."""

    mouse: str
    card: str
    slot: str
    unequipped: tuple[str, ...] = ()
    loadout: tuple[tuple[str, str], ...] = ()  # every equipped (card, slot) after it


class SearchCardUnequipped(Event, kw_only=True):
    """Equip: an equipped card moved back to the pack (001 §Equipaggiare)."""

    mouse: str
    card: str
    loadout: tuple[tuple[str, str], ...] = ()  # every equipped (card, slot) after it


class MouseLeveledUp(Event, kw_only=True):
    """Level up: ``cheese`` spent for the ability card ``ability`` (001 §Salire di Livello)."""

    mouse: str
    ability: str
    cheese: int = 6


class AbilityUsed(Event, kw_only=True):
    """An ability card used, ``cost`` cheese paid (001 §Carte Abilità dei Topi: one card a turn)."""

    mouse: str
    ability: str
    cost: int = 0


class KnifeStrikesLeft(Event, kw_only=True):
    """Knife Strike: ``count`` more attacks, one per equipped dagger not yet used, are still to make
    this Battle action; 0 ends the Knife Strike (facts.md §4; ``rules/knife_strike.py``)."""

    mouse: str
    count: int = 0


class PreemptiveShotWindowClosed(Event, kw_only=True):
    """The moment right after the placement of ``figures`` is over: Preemptive Shot was used
    (``mouse``), passed, or nobody could use it (facts.md §4; ``rules/preemptive_shot.py``)."""

    figures: tuple[str, ...] = ()
    mouse: str | None = None


class MiceInspired(Event, kw_only=True):
    """Inspire, played by ``mouse`` before its turn: until round ``round`` ends each mouse may pay 1
    cheese for one extra action (facts.md §4; ``rules/inspire.py``)."""

    mouse: str
    round: int


class ExtraActionTaken(Event, kw_only=True):
    """``mouse`` paid ``cheese`` for its one extra action of the round under Inspire (facts.md §4)."""

    mouse: str
    cheese: int = 1
    ability: str = "inspire"


class PartyItemGained(Event, kw_only=True):
    """A party item card found: the card goes by the story board, its token into the party stash
    (001 §Oggetti del Gruppo)."""

    mouse: str
    card: str


class PartyItemPlaced(Event, kw_only=True):
    """A party item token put on the board from the stash (free): ``spaces`` its ends (Fishhook &
    Thread: two; Dinner Fork: one)."""

    mouse: str
    item: str
    spaces: tuple[str, ...]


class PartyItemPickedUp(Event, kw_only=True):
    """A party item token taken back into the party stash (an action)."""

    mouse: str
    item: str


class PartyItemLost(Event, kw_only=True):
    """A party item leaves the party (left behind in a room, discarded): its card goes back into the
    search deck (a ``SearchDeckShuffled`` follows)."""

    item: str
    reason: str


class MouseCatapulted(Event, kw_only=True):
    """Dinner Fork: ``by`` catapulted ``mouse`` from the fork's space to ``space`` (001 §Forchetta)."""

    mouse: str
    by: str
    origin: str
    space: str


class EquipmentDiscarded(Event, kw_only=True):
    """A captured mouse discards its equipped search cards; starting equipment stays equipped
    (000 §Topi Catturati, 001 §Topi Catturati)."""

    mouse: str
    cards: tuple[str, ...]
    loadout: tuple[tuple[str, str], ...] = ()  # what stays equipped


class RoachesAteGrapes(Event, kw_only=True):
    """Roaches ended their move on the grapes: they and the grapes leave the board, no attack
    (001 §Oggetti del Gruppo, Uva come Esca per Blatte)."""

    figures: tuple[str, ...]
    space: str


class MouseDisplaced(Event, kw_only=True):
    """Cloak of Displacement: after blocking every hit of a minion's attack, the wearer moved from
    ``origin`` to ``space``, a normal space of the same room (001 §Carte Ricerca, Mantello del Mutamento)."""

    mouse: str
    origin: str
    space: str
    card: str = "cloak-of-displacement"


class ScrollUsed(Event, kw_only=True):
    """A scroll used from the pack as a free action, then discarded (001 §Carte Ricerca: Pergamena);
    ``effect`` is in force for the rest of the mouse's turn (``levitation``: red lines are crossed)."""

    mouse: str
    card: str
    effect: str


class EventCardResolved(Event, kw_only=True):
    """An event card drawn by search resolves at once and is discarded, never kept (001 §Ricerca: "Se
    invece pescate un Evento, seguite le istruzioni sulla carta"); its effects, if the catalogue knows
    them, follow as their own events."""

    mouse: str
    card: str


ITEM_EVENTS = (
    MouseDisplaced, ScrollUsed, EventCardResolved,
    RoachesAteGrapes,
    EquipmentDiscarded,
    SearchCardShared, CheeseShared, PackCardDiscarded, SearchCardEquipped, SearchCardUnequipped, MouseLeveledUp, AbilityUsed,
    KnifeStrikesLeft, PreemptiveShotWindowClosed, MiceInspired, ExtraActionTaken,
    PartyItemGained, PartyItemPlaced, PartyItemPickedUp, PartyItemLost, MouseCatapulted,
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
