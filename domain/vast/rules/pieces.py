"""The Dragon, the Thief and the Knight's Encounters as the other roles meet them: hitting the Dragon, its
Flame Wall and forced discards (Vast rulebook §Il Drago; §Incontrare il Drago), who sees the Thief and the
Soporific Spores on him (Vast rulebook §Il Ladro), the Knight's open Encounter (§2. Muovi e Agisci); below the
roles' modules, which all read them."""

from __future__ import annotations

from dicelog.domain.core.events import DecisionRequested, Event, RollRequested
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import Pos
from dicelog.domain.vast.evolve import fold
from dicelog.domain.vast.rules.common import (
    dragon_armor,
    grit_change,
    perception,
    refuse,
)
from dicelog.domain.vast.rules.tribes import tribe
from dicelog.domain.vast.state import DragonRole, KnightRole, ThiefRole, Tribe, VastState, thief_stealth


def the_dragon(state: VastState) -> DragonRole:
    if state.dragon is None:
        raise refuse("no-dragon", "Il Drago", "the Dragon is not in play")
    return state.dragon


def flame_wall(state: VastState, piece: str, pos: Pos) -> list[Event]:
    """The Flame Wall hurts a piece entering its tile the first time on its turn (Vast rulebook §Poteri, Muro
    di Fiamme): the Knight loses 5 Grit; a Tribe 1 Population (at 0 it scatters)."""
    d = state.dragon
    if d is None or d.flame_wall != pos or piece in d.burned:
        return []
    burned: list[Event] = [ev.FlameWallBurned(piece=piece)]
    if piece == "thief":
        return [*burned, ev.ThiefAttacked(by="dragon", why="flame-wall")]
    if piece == "knight":
        return burned + grit_change(fold(state, burned), -5, "flame-wall")
    t = tribe(state, piece)
    burned.append(ev.PopulationLost(tribe=piece, count=min(1, t.population), why="flame-wall"))
    return burned


def strike(state: VastState, s: int, *, bomb: bool, piece: str) -> list[Event]:
    """The Knight's attack at Strength ``s`` (Vast rulebook §Attaccare il Drago): above Armor it hits; equal,
    the Dragon die must hit the center (rolled by ``piece``)."""
    a = dragon_armor(state)
    if s > a:
        return hit_dragon(state, s, a, bomb)
    return [RollRequested(reason=f"dragon-attack:{s}:{int(bomb)}", dice=1, sides=6, piece=piece)]


def hit_dragon(state: VastState, s: int, a: int, bomb: bool) -> list[Event]:
    """A successful attack: 1 Health; with the Mighty Axe's cube (not with the Bomb), on her turn, the Knight
    may discard it for 1 more (decision ``axe``, default ``strike``: Vast rulebook §Tesori, Ascia
    Possente)."""
    d = the_dragon(state)
    events: list[Event] = [ev.DragonAttacked(strength=s, armor=a, hit=True, bomb=bomb)]
    if d.health - 1 <= 0:
        return [*events, ev.DragonDied()]
    k = state.knight
    if state.turn == "knight" and k is not None and k.placed.get("mighty-axe") and not bomb:
        events.append(
            DecisionRequested(decision="axe", options=("strike", "keep"), piece="knight", default="strike")
        )
    return events


def forced_discards(state: VastState, n: int, why: str) -> list[Event]:
    """The Dragon discards ``n`` Power cards of its choice (decision ``power-discard:n:why``, one card at a
    time; default its first card): the Enchanted Bow, Hex."""
    d = the_dragon(state)
    if n <= 0 or not d.hand:
        return []
    options = tuple(sorted(set(d.hand)))
    return [
        DecisionRequested(
            decision=f"power-discard:{n}:{why}", options=options, piece="dragon", default=options[0]
        )
    ]


def the_thief(state: VastState) -> ThiefRole:
    if state.thief is None:
        raise refuse("no-thief", "Il Ladro", "the Thief is not in play")
    return state.thief


def target_perception(state: VastState, target: str) -> int:
    """What his Stealth must beat (Vast rulebook §Determinare la Percezione): the Knight's Perception, a
    Tribe's Population + 1 (-1 with the Goblin Ruby face up, +1 with the Trap face up: docs/vast/facts.md §3),
    the Dragon's Armor."""
    if target == "knight":
        k = state.knight
        return 0 if k is None else perception(k)
    if target == "dragon":
        return dragon_armor(state)
    t = tribe(state, target)
    face_up = state.goblins.face_up if state.goblins is not None else ()
    # docs/vast/facts.md §3: the Goblin Ruby -1; a face-up Trap +1 to the next Tribe attacked
    return t.population + 1 - ("goblin-ruby" in face_up) + ("trap" in face_up)


def seen_by(state: VastState, perception_value: int) -> bool:
    """Whether a Perception beats his Stealth (Vast rulebook §Interagire con il Ladro: it must be greater)."""
    th = state.thief
    return th is not None and perception_value > thief_stealth(th)


def tribe_sees(state: VastState, t: Tribe) -> bool:
    """A Tribe's Perception (Population + 1, -1 with the Goblin Ruby) beats his Stealth (Vast rulebook
    §Attaccare)."""
    return seen_by(state, target_perception(state, t.name))


def spores_on_thief(state: VastState) -> list[Event]:
    """Soporific Spores on him (Vast rulebook §Presagi): he loses an Upgrade of his choice (decision
    ``spores-upgrade``), keeping its token."""
    th = the_thief(state)
    if not th.upgrades:
        raise refuse("omen.no-target", "Presagi", "the Thief has no Upgrade to lose")
    options = tuple(sorted(th.upgrades))
    return [DecisionRequested(decision="spores-upgrade", options=options, piece="thief", default=options[0])]


def encounter(state: VastState, knight: KnightRole, stage: int, what: str) -> list[Event]:
    """The open Encounter, when it has not gone past ``stage`` (Vast rulebook §2. Muovi e Agisci: reveal, then
    attacks, then collect, in that order), or a new one. Raises ``vast.no-encounter-left``."""
    if knight.stage <= stage:
        return []
    if knight.encounters >= perception(knight):
        raise refuse(
            "no-encounter-left",
            "2. Muovi e Agisci",
            f"{what} needs an Encounter and Perception allows no more",
        )
    return [ev.EncounterBegun(x=knight.x, y=knight.y)]
