"""Rules printed on weapon and armour search cards (MM rulebook (it) §Carte Ricerca, the example cards "Arco
di Precisione" and "Mantello del Mutamento"; MM rulebook (pt) §Cartas de Busca; docs/mice-and-mystics/facts.md
§5).

- Bow of Precision (``special: precision``): "Quando Attacchi con questo Arco, tutti i risultati [·]
  contano come 2 successi invece di 1" — the die symbol is lost in every transcription. Read here as
  the bow-with-star face: on a ranged attack with the bow each bow-star counts 2 hits (provisional:
  docs/mice-and-mystics/rulings.md, Bow of Precision).
- Cloak of Displacement (``special: displacement``): "Dopo aver bloccato tutti i colpi dell'Attacco
  di un Servitore, il Topo che indossa questo Mantello può muoversi immediatamente in una qualsiasi
  altra casella normale, nella stessa Stanza." After the wearer's defense roll blocks every hit of a
  minion's attack, a ``DecisionRequested("cloak-of-displacement")`` offers every other normal space
  of its room with room for it, or ``stay`` (the default). A normal space: kind ``normal`` or
  ``start``, not water, not a special area, no feature (docs/mice-and-mystics/rulings.md, Cloak of
  Displacement).
"""

from __future__ import annotations

from dicelog.domain.core.events import DecisionRequested, Event
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.cards import attack_weapon, equipment
from dicelog.domain.mice_and_mystics.rules.dice import BOW_STAR, count
from dicelog.domain.mice_and_mystics.rules.graph import can_enter, is_mouse
from dicelog.domain.mice_and_mystics.rules.movement import space_order
from dicelog.domain.mice_and_mystics.state import State, space_of

SECTION = "MM rulebook (it) §Carte Ricerca"
PRECISION, DISPLACEMENT = "precision", "displacement"
CLOAK, STAY = "cloak-of-displacement", "stay"
NORMAL_KINDS = ("normal", "start")


def _specials(state: State, mouse: str) -> tuple[str | None, ...]:
    return tuple(item.special for item in equipment(mouse, state))


def precision_hits(state: State, faces: tuple[int, ...]) -> int:
    """Extra hits of the attack in flight: one per bow-star face when a mouse shoots (ranged) with the
    Bow of Precision as its weapon; else 0."""
    attack = state.attack
    if attack is None or not attack.ranged or not is_mouse(state, attack.attacker):
        return 0
    item = attack_weapon(state, attack.attacker)
    return count(faces, BOW_STAR) if item is not None and item.special == PRECISION else 0


def normal_spaces(state: State, mouse: str) -> tuple[str, ...]:
    """The other normal spaces of the mouse's room it fits on, in space order."""
    here = space_of(state, mouse)
    if here is None:
        return ()
    lib = library_of(state)
    tile = lib.tiles[lib.space_tile[here]]
    spaces = [
        s.id
        for s in tile.spaces
        if s.id != here
        and s.kind in NORMAL_KINDS
        and not s.water
        and s.capacity == "standard"
        and s.feature is None
        and can_enter(state, s.id, "small", ignoring=mouse)
    ]
    return tuple(sorted(spaces, key=space_order))


def cloak_offer(state: State, attacker: str, target: str, hits: int, blocks: int) -> list[Event]:
    """``[DecisionRequested(cloak-of-displacement, options=(spaces..., "stay"), piece=target,
    default="stay")]`` when the target mouse wears the cloak and blocked all ``hits`` (≥ 1) of a
    minion's attack; else ``[]``. ``state`` is the state after the defense was resolved."""
    if hits < 1 or blocks < hits or not is_mouse(state, target) or is_mouse(state, attacker):
        return []
    if DISPLACEMENT not in _specials(state, target):
        return []
    spaces = normal_spaces(state, target)
    if not spaces:
        return []
    return [DecisionRequested(decision=CLOAK, options=(*spaces, STAY), piece=target, default=STAY)]


def wearer(state: State) -> str | None:
    """The mouse on the board wearing the Cloak of Displacement (a single card: docs/mice-and-mystics/facts.md
    §5)."""
    return next(
        (m for m in state.party if space_of(state, m) is not None and DISPLACEMENT in _specials(state, m)),
        None,
    )
