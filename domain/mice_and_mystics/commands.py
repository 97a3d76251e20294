"""Mice and Mystics commands: imperative, frozen, tagged (docs/conventions.md, rule 2).

The acting seat is not part of a command; the service checks that the seat controls the mouse
(``ruleset.piece_of``). Core answers (``Roll``, ``Shuffle``, ``Choose``) and ``Begin`` are part of
this ruleset's union so one decoder reads every command it accepts.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from dicelog.domain.core.commands import Choose, Command, Draw, Roll, Shuffle
from dicelog.domain.core.ruleset import Begin

MouseId = Annotated[str, Meta(min_length=1, max_length=32)]
SpaceId = Annotated[str, Meta(min_length=1, max_length=16)]


class Move(Command, kw_only=True):
    """Roll the action die for the mouse's move (MM rulebook (it) §Movimento dei Topi): in its turn, before it
    has moved or rolled; a knocked-down mouse stands up instead, with no roll (MM rulebook (it)
    §Atterrato)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""


class MoveTo(Command, kw_only=True):
    """Move the mouse along ``path`` (the spaces entered, in order) with the rolled movement points: after
    ``Move`` (or a Scurry roll), before the move is over (MM rulebook (it) §Movimento dei Topi)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""
    path: Annotated[tuple[SpaceId, ...], Meta(min_length=1, max_length=16)]
    """The spaces entered, in order, 1 to 16 (space ids such as ``GR-6``, as in ``GET /games/{id}/board``):
    each adjacent to the one before, the first to the mouse's space (Fishhook & Thread's ends count as
    adjacent). Its cost (1 a step, 3 against a yellow line's arrow) may not pass the movement points, and it
    ends on the first space holding a minion or water; it may stop short."""


class EndTurn(Command, kw_only=True):
    """End the mouse's turn, moved or not (MM rulebook (it) §Il Turno di un Topo)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""


class Battle(Command, kw_only=True):
    """The mouse's action: attack the minion figure ``target`` with its first equipped weapon
    (MM rulebook (it) §Attacco): melee, a minion on or next to its space; ranged, one of its room it can see
    (one of the nearest while minions are on or next to its space)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""
    target: Annotated[str, Meta(min_length=1, max_length=48)]
    """The minion figure attacked, as on the board: a figure id such as ``rat-warriors-1`` (a boss: its id,
    e.g. ``brodie``)."""


class Search(Command, kw_only=True):
    """The mouse's action: search the room, one die, a star draws a search card (MM rulebook (it) §Ricerca);
    not in a room where its search already succeeded."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""


class Recover(Command, kw_only=True):
    """The mouse's action, when it is stunned or webbed: recover (MM rulebook (it) §Recupero). Stunned goes at
    once; webbed on a star of one die."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""


class Scurry(Command, kw_only=True):
    """The mouse's action, once it has moved: roll the die and move again (MM rulebook (it) §Scatto)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""


class Explore(Command, kw_only=True):
    """The mouse's action, when no minion is in its room: enter a new room through the exit on side
    ``via`` the mouse stands next to, or by its flip space (``via="flip"``); the room's mice all come
    along (MM rulebook (it) §Esplorare)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""
    via: Literal["N", "E", "S", "W", "flip"]
    """``N``, ``E``, ``S`` or ``W``: the side of the mouse's room tile whose exit it stands next to (``N``
    faces the row above on the table grid); ``flip``: the mouse stands on the room's flip space and the board
    is turned over."""


class LeaveWater(Command, kw_only=True):
    """Spend the whole move leaving (or wading on in) water toward the adjacent ``space``; a dry space
    needs a star (MM rulebook (it) §Muoversi nell'Acqua)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it stands in water and has not moved or rolled to move this
    turn."""
    space: SpaceId
    """The space to reach, adjacent to the mouse's space (or at the other end of Fishhook & Thread) and with
    room for it. A water space is simply entered; a dry one needs a star on one die plus one per mouse
    there."""


CardId = Annotated[str, Meta(min_length=1, max_length=48)]


class Share(Command, kw_only=True):
    """Free action: a free exchange of search cards and cheese with ``with_mouse`` on the same or an
    adjacent space (MM rulebook (it) §Condividere: "scambiare liberamente"). ``card`` and ``give``: pack cards
    ``mouse`` gives; ``take``: pack cards ``mouse`` takes from ``with_mouse``; ``cheese``: cheese
    given; ``take_cheese``: cheese taken."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it takes the Share free action (free actions: each once a turn,
    never in water nor in the middle of another action)."""
    with_mouse: MouseId
    """The other mouse of the exchange: a party mouse on the board, on the same space or an adjacent one
    (Fishhook & Thread's ends count as adjacent)."""
    card: CardId | None = None
    """One more card ``mouse`` gives from its pack, as if listed in ``give`` (a search card id; see
    ``/content/mice-and-mystics/search-cards``); ``None``: none."""
    cheese: Annotated[int, Meta(ge=0, le=99)] = 0
    """Cheese ``mouse`` gives to ``with_mouse``, 0 to 99 (at most what it has)."""
    give: Annotated[tuple[CardId, ...], Meta(max_length=16)] = ()
    """Cards of ``mouse``'s pack it gives to ``with_mouse`` (search card ids; up to 16). A Share must give or
    take something, and names each card once."""
    take: Annotated[tuple[CardId, ...], Meta(max_length=16)] = ()
    """Cards of ``with_mouse``'s pack that ``mouse`` takes (search card ids; up to 16)."""
    take_cheese: Annotated[int, Meta(ge=0, le=99)] = 0
    """Cheese ``mouse`` takes from ``with_mouse``, 0 to 99 (at most what ``with_mouse`` has)."""


Slot = Literal["paw", "both-paws", "body", "accessory", "tail"]


class EquipCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One card an ``Equip`` puts from the pack into ``slot``."""

    card: CardId
    """A card in the mouse's pack: a weapon, armour or accessory whose requirement the mouse meets (a search
    card id; see ``/content/mice-and-mystics/search-cards``)."""
    slot: Slot
    """Where it goes: the card's own place (``paw``, ``both-paws``, ``body`` or ``accessory``), or ``tail``
    for a dagger on Filch (Prehensile Tail). Equipped cards it displaces go back to the pack."""


class Equip(Command, kw_only=True):
    """Free action: move cards between the pack and the equipment (MM rulebook (it) §Equipaggiare). First the
    ``unequip`` cards go back to the pack, then ``card`` (in ``slot``) and each of ``cards`` are
    equipped from the pack, in order; ``tail`` is Filch's Prehensile Tail (a dagger only)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it takes the Equip free action (free actions: each once a turn,
    never in water nor in the middle of another action)."""
    card: CardId | None = None
    """One card of the pack to equip, in ``slot`` (a search card id); ``None``: only ``cards`` and
    ``unequip``."""
    slot: Slot | None = None
    """The place for ``card``, as in ``EquipCard.slot``; required with ``card``."""
    cards: Annotated[tuple[EquipCard, ...], Meta(max_length=8)] = ()
    """Further cards to equip from the pack, in order, after ``card`` (up to 8)."""
    unequip: Annotated[tuple[CardId, ...], Meta(max_length=8)] = ()
    """Equipped cards (starting equipment included) moved back to the pack first, in order (up to 8); such a
    card may be equipped again elsewhere by the same Equip."""


class Unequip(Command, kw_only=True):
    """Free action: move an equipped card back to the pack (MM rulebook (it) §Equipaggiare)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it takes the Equip free action (free actions: each once a turn,
    never in water nor in the middle of another action)."""
    card: CardId
    """The equipped card moved back to the pack (starting equipment included)."""


class LevelUp(Command, kw_only=True):
    """Free action: trade 6 cheese for the ability card ``ability`` of the mouse's class (MM rulebook (it)
    §Salire di Livello)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it has at least 6 cheese and takes the Level Up free action (free
    actions: each once a turn, never in water nor in the middle of another action)."""
    ability: CardId
    """The new ability card (an ability id; see ``/content/mice-and-mystics/abilities``): one for the mouse's
    class (or any class), held by no mouse, and not one only the story gives."""


class UseAbility(Command, kw_only=True):
    """Use one of the mouse's ability cards in its turn, paying its cheese (MM rulebook (it) §Carte Abilità
    dei Topi): ``target`` a mouse (First Aid, Cure) or the first minion attacked (Knife Strike), ``targets``
    minion figures (Chain Lightning), ``remove`` what Cure takes off (``poison`` or an effect)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``)."""
    ability: CardId
    """The ability card used, one the mouse holds: ``first-aid``, ``cure``, ``chain-lightning``,
    ``aimed-shot``, ``power-shot``, ``accurate-shot``, ``knife-strike`` or ``inspire``; other cards are
    refused (Preemptive Shot is played by answering its decision)."""
    target: MouseId | None = None
    """First Aid and Cure: the mouse helped, on the acting mouse's space (itself included); Knife Strike: the
    minion figure of the first attack, on or next to the mouse's space. ``None`` for the other cards."""
    targets: Annotated[tuple[CardId, ...], Meta(max_length=9)] = ()
    """Chain Lightning: 1 to Lore different minion figures of the mouse's room that it can see, in the order
    they defend; empty for the other cards."""
    remove: Annotated[tuple[Annotated[str, Meta(max_length=24)], ...], Meta(max_length=3)] = ()
    """Cure: 1 to 3 things taken off ``target``, 1 cheese each: ``poison`` (one poison wound; may repeat) or
    an effect it has (``stunned``, ``webbed``, ``knocked-down``, ``charmed``; each once). Empty for the other
    cards."""


class PlaceFishhook(Command, kw_only=True):
    """Put Fishhook & Thread from the party stash between the mouse's space and ``space`` of the same
    room; placing is free (MM rulebook (it) §Amo e Lenza)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); Fishhook & Thread is in the party stash; the first end goes on
    the mouse's space."""
    space: SpaceId
    """The other end: another space of the mouse's room; the two ends may not both be water."""


class RemoveFishhook(Command, kw_only=True):
    """Action: take Fishhook & Thread back into the stash from either end (MM rulebook (it) §Amo e Lenza)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it stands on either end of Fishhook & Thread."""


class PlaceFork(Command, kw_only=True):
    """Put the Dinner Fork from the party stash on the mouse's space, not water; free (MM rulebook (it)
    §Forchetta)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); the Dinner Fork is in the party stash and goes on the mouse's
    space, not water."""


class Catapult(Command, kw_only=True):
    """Action: from the Dinner Fork's space, catapult ``other`` mouse there to ``space`` of the room,
    which ``other`` can see (MM rulebook (it) §Forchetta)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it stands on the Dinner Fork's space."""
    other: MouseId
    """The mouse catapulted: another party mouse on the Dinner Fork's space."""
    space: SpaceId
    """Where ``other`` lands: another space of the room that can be seen from the fork's space, with room for
    it. It is no move: no mousetrap, no water roll."""


class PickUpFork(Command, kw_only=True):
    """Action: take the Dinner Fork on the mouse's space back into the stash (MM rulebook (it) §Forchetta)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it stands on the Dinner Fork's space."""


class ThrowGrapes(Command, kw_only=True):
    """Battle action from the Dinner Fork's space: throw the Grapes at the minion figure ``target``,
    flipped like a coin (MM rulebook (it) §Oggetti del Gruppo, Uva come Arma)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it stands on the Dinner Fork's space and the Grapes are in the
    party stash."""
    target: CardId
    """A small minion figure of the mouse's room (a figure id such as ``roaches-1``); no sight is needed."""


class PlaceGrapes(Command, kw_only=True):
    """Put the Grapes from the party stash on an empty adjacent space as roach bait; free (MM rulebook (it)
    §Oggetti del Gruppo, Uva come Esca per Blatte)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); the Grapes are in the party stash."""
    space: SpaceId
    """An empty space adjacent to the mouse's space (or at the other end of Fishhook & Thread)."""


class UseScroll(Command, kw_only=True):
    """Free action: read the scroll ``card`` from the mouse's pack; it is discarded and its effect lasts
    the rest of the turn (MM rulebook (it) §Carte Ricerca: Pergamena; docs/mice-and-mystics/facts.md §5)."""

    mouse: MouseId
    """The mouse whose turn it is, controlled by the seat sending the command (a mouse id such as ``filch``;
    see ``/content/mice-and-mystics/mice``); it is not in water and has not read a scroll this turn."""
    card: CardId
    """A scroll in the mouse's pack (a search card id such as ``scroll-of-levitation``) whose effect the rules
    know and whose requirement the mouse meets; it is discarded."""


ItemCommand = (
    UseScroll
    | PlaceGrapes
    | Share
    | Equip
    | Unequip
    | LevelUp
    | UseAbility
    | PlaceFishhook
    | RemoveFishhook
    | PlaceFork
    | Catapult
    | PickUpFork
    | ThrowGrapes
)


MouseCommand = (
    Move | MoveTo | EndTurn | Battle | Search | Recover | Scurry | Explore | LeaveWater | ItemCommand
)
AnyCommand = (
    Move
    | MoveTo
    | EndTurn
    | Battle
    | Search
    | Recover
    | Scurry
    | Explore
    | LeaveWater
    | ItemCommand
    | Begin
    | Roll
    | Shuffle
    | Draw
    | Choose
)
decode_command = msgspec.json.Decoder(AnyCommand).decode
