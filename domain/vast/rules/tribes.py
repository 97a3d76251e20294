"""The Goblin Tribes as every role meets them (Vast rulebook §I Goblin; §Interagire con i Goblin;
docs/vast/facts.md §3): where a Tribe is, its Strength, Rage, scattering, the Goblins' draws and the Ambush
they spring; below the roles' modules, which all read them (``goblins`` plays the Goblins' own turn)."""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DecisionRequested, DrawRequested, Event
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import Pos, pos_key
from dicelog.domain.vast.content import goblin_file
from dicelog.domain.vast.rules.common import (
    pieces_at,
    refuse,
    strength,
)
from dicelog.domain.vast.state import GoblinsRole, Tribe, VastState


def the_goblins(state: VastState) -> GoblinsRole:
    if state.goblins is None:
        raise refuse("no-goblins", "I Goblin", "the Goblins are not in play")
    return state.goblins


def tribe(state: VastState, name: str) -> Tribe:
    found = next((t for t in the_goblins(state).tribes if t.name == name), None)
    if found is None:
        raise refuse("goblins.unknown-tribe", "I Goblin", f"no Tribe {name!r} (fangs, bones, eye)")
    return found


def on_map(t: Tribe) -> bool:
    """A revealed Tribe: on a tile of the map (Vast rulebook §Rivelare)."""
    return t.x is not None and t.y is not None and not t.lurking


def where(t: Tribe) -> Pos:
    if t.x is None or t.y is None:
        raise InvariantViolated("vast-tribe", f"the {t.name} Tribe is not on the map")
    return t.x, t.y


def monster_strength(card: str) -> int:
    return next((m.strength for m in goblin_file().monsters if m.id == card), 0)


def tribe_strength(state: VastState, t: Tribe) -> int:
    """Vast rulebook §Statistiche della Tribù, §Dischi Forza, §Furia e Malessere: Population, +1 for the
    Fangs' disc, +1 a Monster's Strength disc, +2 Fire Bomber, -1 in Malaise (not with the Pet Frog)."""
    gob = the_goblins(state)
    value = t.population + (1 if t.name == "fangs" else 0) + sum(monster_strength(m) for m in t.monsters)
    if gob.fire_bomber == t.name:
        value += 2
    if gob.rage == 0 and "pet-frog" not in t.monsters:
        value -= 1
    return max(0, value)


def tribes_at(state: VastState, pos: Pos) -> list[Tribe]:
    if state.goblins is None:
        return []
    return [t for t in state.goblins.tribes if on_map(t) and (t.x, t.y) == pos]


def knight_strength_off_turn(state: VastState) -> int:
    k = state.knight
    return 0 if k is None else strength(k, state.turn == "knight")


def rage(delta: int, why: str) -> ev.RageChanged:
    return ev.RageChanged(delta=delta, why=why)


def scatter(state: VastState, t: Tribe, *, to_zero: bool = False) -> ev.TribeScattered:
    """Vast rulebook §Disperdere la Tribù: back to the board, 2 Population less (1 with the Bright Beetles;
    all of it after Fire Bomber's attack), its Monster discarded (Bones with 2: the older;
    docs/vast/rulings.md)."""
    loss = t.population if to_zero else (1 if "bright-beetles" in t.monsters else 2)
    discarded = t.monsters[:1] if (t.name == "bones" and len(t.monsters) == 2) else t.monsters
    return ev.TribeScattered(tribe=t.name, loss=loss, discarded=discarded)


def deck_draw(
    state: VastState, deck: str, count: int, reason: str, piece: str = "goblins"
) -> DrawRequested | None:
    """A draw from the Monster or Secrets deck; its discards are shuffled back when it cannot give ``count``
    cards (Vast rulebook §3, §4: "mischia le carte scartate per creare un nuovo mazzo"). ``infestation``: the
    Monster deck drawn by Goblin Infestation line C, in public."""
    cards, discard = (
        (state.monster_deck, state.monster_discard)
        if deck in ("monsters", "infestation")
        else (state.secrets_deck, state.secrets_discard)
    )
    if count < 1:
        return None
    if len(cards) < count and discard:
        cards = tuple(sorted((*cards, *discard)))
        reason = f"{reason}-reshuffled"
    if not cards:
        return None
    return DrawRequested(reason=reason, deck=deck, cards=cards, count=min(count, len(cards)), piece=piece)


def hidden_tribes(state: VastState) -> list[Tribe]:
    gob = state.goblins
    return [] if gob is None else [t for t in gob.tribes if not on_map(t) and t.population > 0]


def ambusher_strength(state: VastState) -> int:
    """The Strength the Knight must beat to be safe: the strongest hidden Tribe's."""
    return max((tribe_strength(state, t) for t in hidden_tribes(state)), default=0)


def ambush_choice(state: VastState) -> list[Event]:
    """A hidden Tribe stronger than the Knight may attack her (decision ``ambush-tribe``, default the
    strongest); without one, the Ambush passes."""
    ks = knight_strength_off_turn(state)
    eligible = [t for t in hidden_tribes(state) if tribe_strength(state, t) > ks]
    if not eligible:
        return [ev.VastAmbushResolved(strength=ks, ambusher=ambusher_strength(state), hurt=False)]
    best = max(eligible, key=lambda t: tribe_strength(state, t))
    options = (*(t.name for t in eligible), "none")
    return [DecisionRequested(decision="ambush-tribe", options=options, piece="goblins", default=best.name)]


def attack_dragon(state: VastState, t: Tribe) -> list[Event]:
    """Ash Dragon (docs/vast/facts.md §7 Variant cards): the Dragon loses 1 Health, Rage -1, the Tribe
    scatters."""
    d = state.dragon
    events: list[Event] = [ev.TribeAttackedDragon(tribe=t.name), rage(-1, "attack"), scatter(state, t)]
    if d is not None and d.health - 1 <= 0:
        events.append(ev.DragonDied())
    return events


def gnome_spots(state: VastState, t: Tribe) -> list[Pos]:
    """Unoccupied Dark tiles: no piece, no other revealed Tribe."""
    return [
        (c.x, c.y)
        for c in state.cells
        if not c.lit
        and not pieces_at(state, (c.x, c.y))
        and not [o for o in tribes_at(state, (c.x, c.y)) if o.name != t.name]
    ]


def gnome_jump(state: VastState, t: Tribe) -> list[Event]:
    """docs/vast/facts.md §3 Gnome: after plundering a Treasure token or a Gem, its Tribe may jump to an
    unoccupied Dark tile (decision ``gnome-jump:tribe``, default ``stay``)."""
    if "gnome" not in t.monsters:
        return []
    spots = [p for p in sorted(gnome_spots(state, t)) if p != (t.x, t.y)]
    if not spots:
        return []
    options = ("stay", *(pos_key(p) for p in spots))
    return [
        DecisionRequested(decision=f"gnome-jump:{t.name}", options=options, piece="goblins", default="stay")
    ]


def can_enter(state: VastState, pos: Pos) -> bool:
    """Whether the Knight is stronger than every revealed Tribe on ``pos`` (Trap: +1 Strength to them)."""
    found = tribes_at(state, pos)
    k = state.knight
    if not found or k is None:
        return True
    trap = 1 if state.goblins is not None and "trap" in state.goblins.face_up else 0
    return all(strength(k, True) > tribe_strength(state, t) + trap for t in found)
