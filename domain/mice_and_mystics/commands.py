"""Mice and Mystics commands: imperative, frozen, tagged (STYLE.md §4, "What dicelog takes" 2).

The acting seat is not part of a command; the service checks that the seat controls the mouse
(``ruleset.piece_of``). Core answers (``Roll``, ``Shuffle``, ``Choose``) and ``Begin`` are part of
this ruleset's union so one decoder reads every command it accepts.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from domain.core.commands import Choose, Command, Draw, Roll, Shuffle
from domain.core.ruleset import Begin

MouseId = Annotated[str, Meta(min_length=1, max_length=32)]
SpaceId = Annotated[str, Meta(min_length=1, max_length=16)]


class Move(Command, kw_only=True):
    """Roll the action die for the mouse's move (001 §Movimento dei Topi)."""

    mouse: MouseId


class MoveTo(Command, kw_only=True):
    """Move the mouse along ``path`` (the spaces entered, in order) with the rolled movement points."""

    mouse: MouseId
    path: Annotated[tuple[SpaceId, ...], Meta(min_length=1, max_length=16)]


class EndTurn(Command, kw_only=True):
    """End the mouse's turn, moved or not (001 §Il Turno di un Topo)."""

    mouse: MouseId


class Battle(Command, kw_only=True):
    """Attack the minion figure ``target`` with the mouse's weapon (001 §Attacco)."""

    mouse: MouseId
    target: Annotated[str, Meta(min_length=1, max_length=48)]


class Search(Command, kw_only=True):
    """Search the room: one die, a star draws a search card (001 §Ricerca)."""

    mouse: MouseId


class Recover(Command, kw_only=True):
    """Recover from stunned or webbed (001 §Recupero)."""

    mouse: MouseId


class Scurry(Command, kw_only=True):
    """After moving, roll the die and move again (001 §Scatto)."""

    mouse: MouseId


class Explore(Command, kw_only=True):
    """Enter a new room through the exit on side ``via`` the mouse stands next to, or by its flip
    space (``via="flip"``) (001 §Esplorare)."""

    mouse: MouseId
    via: Literal["N", "E", "S", "W", "flip"]


class LeaveWater(Command, kw_only=True):
    """Spend the whole move leaving (or wading on in) water toward the adjacent ``space``; a dry space
    needs a star (001 §Muoversi nell'Acqua)."""

    mouse: MouseId
    space: SpaceId


CardId = Annotated[str, Meta(min_length=1, max_length=48)]


class Share(Command, kw_only=True):
    """Free action: a free exchange of search cards and cheese with ``with_mouse`` on the same or an
    adjacent space (001 §Condividere: "scambiare liberamente"). ``card`` and ``give``: pack cards
    ``mouse`` gives; ``take``: pack cards ``mouse`` takes from ``with_mouse``; ``cheese``: cheese
    given; ``take_cheese``: cheese taken."""

    mouse: MouseId
    with_mouse: MouseId
    card: CardId | None = None
    cheese: Annotated[int, Meta(ge=0, le=99)] = 0
    give: Annotated[tuple[CardId, ...], Meta(max_length=16)] = ()
    take: Annotated[tuple[CardId, ...], Meta(max_length=16)] = ()
    take_cheese: Annotated[int, Meta(ge=0, le=99)] = 0


Slot = Literal["paw", "both-paws", "body", "accessory", "tail"]


class EquipCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One card an ``Equip`` puts from the pack into ``slot``."""

    card: CardId
    slot: Slot


class Equip(Command, kw_only=True):
    """Free action: move cards between the pack and the equipment (001 §Equipaggiare). First the
    ``unequip`` cards go back to the pack, then ``card`` (in ``slot``) and each of ``cards`` are
    equipped from the pack, in order; ``tail`` is Filch's Prehensile Tail (a dagger only)."""

    mouse: MouseId
    card: CardId | None = None
    slot: Slot | None = None
    cards: Annotated[tuple[EquipCard, ...], Meta(max_length=8)] = ()
    unequip: Annotated[tuple[CardId, ...], Meta(max_length=8)] = ()


class Unequip(Command, kw_only=True):
    """Free action: move an equipped card back to the pack (001 §Equipaggiare)."""

    mouse: MouseId
    card: CardId


class LevelUp(Command, kw_only=True):
    """Free action: trade 6 cheese for the ability card ``ability`` of the mouse's class (001 §Salire
    di Livello)."""

    mouse: MouseId
    ability: CardId


class UseAbility(Command, kw_only=True):
    """Use one of the mouse's ability cards, paying its cheese (001 §Carte Abilità dei Topi): ``target``
    a mouse (First Aid, Cure), ``targets`` minion figures (Chain Lightning), ``remove`` what Cure takes
    off (``poison`` or an effect)."""

    mouse: MouseId
    ability: CardId
    target: MouseId | None = None
    targets: Annotated[tuple[CardId, ...], Meta(max_length=9)] = ()
    remove: Annotated[tuple[Annotated[str, Meta(max_length=24)], ...], Meta(max_length=3)] = ()


class PlaceFishhook(Command, kw_only=True):
    """Put Fishhook & Thread from the party stash between the mouse's space and ``space`` of the same
    room; placing is free (001 §Amo e Lenza)."""

    mouse: MouseId
    space: SpaceId


class RemoveFishhook(Command, kw_only=True):
    """Action: take Fishhook & Thread back into the stash from either end (001 §Amo e Lenza)."""

    mouse: MouseId


class PlaceFork(Command, kw_only=True):
    """Put the Dinner Fork from the party stash on the mouse's space, not water; free (001 §Forchetta)."""

    mouse: MouseId


class Catapult(Command, kw_only=True):
    """Action: from the Dinner Fork's space, catapult ``other`` mouse there to ``space`` of the room,
    which ``other`` can see (001 §Forchetta)."""

    mouse: MouseId
    other: MouseId
    space: SpaceId


class PickUpFork(Command, kw_only=True):
    """Action: take the Dinner Fork on the mouse's space back into the stash (001 §Forchetta)."""

    mouse: MouseId


class ThrowGrapes(Command, kw_only=True):
    """Battle action from the Dinner Fork's space: throw the Grapes at the minion figure ``target``,
    flipped like a coin (001 §Oggetti del Gruppo, Uva come Arma)."""

    mouse: MouseId
    target: CardId


class PlaceGrapes(Command, kw_only=True):
    """Put the Grapes from the party stash on an empty adjacent space as roach bait; free (001 §Oggetti
    del Gruppo, Uva come Esca per Blatte)."""

    mouse: MouseId
    space: SpaceId


class UseScroll(Command, kw_only=True):
    """Free action: read the scroll ``card`` from the mouse's pack; it is discarded and its effect lasts
    the rest of the turn (001 §Carte Ricerca: Pergamena; facts.md §5)."""

    mouse: MouseId
    card: CardId


ItemCommand = UseScroll | PlaceGrapes | Share | Equip | Unequip | LevelUp | UseAbility | PlaceFishhook | RemoveFishhook | PlaceFork | Catapult | PickUpFork | ThrowGrapes


MouseCommand = Move | MoveTo | EndTurn | Battle | Search | Recover | Scurry | Explore | LeaveWater | ItemCommand
AnyCommand = Move | MoveTo | EndTurn | Battle | Search | Recover | Scurry | Explore | LeaveWater | ItemCommand | Begin | Roll | Shuffle | Draw | Choose
decode_command = msgspec.json.Decoder(AnyCommand).decode
