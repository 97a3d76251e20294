"""The Dragon's turn (Vast rulebook §Il Drago; docs/vast/facts.md §4): its placing, movement underground and
on the surface, the Powers paid with Power cards and Gems, the Sloth tracks and Wakefulness, Treasure, Gems,
surfacing and the end of its turn; and how the others meet it (§Incontrare il Drago, §Attaccare il Drago,
§Gemme e altri giocatori).

Wakefulness gains that only help the Dragon are made by the rules as soon as they are allowed
(docs/vast/rulings.md,the Dragon"): a Hunger cube whenever 2 Goblins eaten can pay it, a Greed cube for a
Treasure token held, a Pride cube for a turn without moving, awakening at 11.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DecisionRequested, DrawRequested, Event, RollRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import (
    ENTRANCE,
    SIDES,
    STEP,
    Pos,
    center_hit,
    die_tiles,
    parse_pos,
    pos_key,
    step,
)
from dicelog.domain.vast.content import tile as tile_data
from dicelog.domain.vast.evolve import evolve, fold, groups, parse_step
from dicelog.domain.vast.rules import tribes
from dicelog.domain.vast.rules.common import (
    Then,
    cell_at,
    cells_by_pos,
    dragon_armor,
    geometry,
    grit_change,
    refuse,
    shielded,
    strength,
    the_knight,
    thief_pos,
)
from dicelog.domain.vast.rules.pieces import encounter, forced_discards, hit_dragon, strike, the_dragon
from dicelog.domain.vast.rules.tiles import bats_reach, remove_stepped_off
from dicelog.domain.vast.state import (
    POWER_CARDS,
    SLOTH_ROOM,
    CaveCell,
    DragonRole,
    VastState,
    spirit,
    wakefulness,
)

COSTS: dict[str, tuple[str, ...]] = {
    "claw": ("claw",),
    "flame": ("flame",),
    "wing": ("wing",),
    "hiss": ("claw", "claw"),
    "slither": ("claw", "flame"),
    "swat": ("claw", "wing"),
    "scorch": ("flame", "flame"),
    "burn": ("flame", "wing"),
    "slap": ("wing", "wing"),
    "shriek": ("?", "?"),
    "scratch": ("claw", "claw", "claw"),
    "flame-wall": ("flame", "flame", "flame"),
    "smash": ("?", "?", "?"),
    "wrath": ("?", "?", "?", "?"),
}
"""Vast rulebook §Poteri; docs/vast/facts.md §4 Powers: the symbols each Power costs (``?``: any symbol)."""
ROLLED = ("claw", "flame", "wrath")
"""Powers that roll the Dragon die (Vast rulebook §Il Dado del Drago)."""
SWAT_RANGE = 5


def dragon_pos(state: VastState) -> Pos | None:
    d = state.dragon
    return None if d is None or d.x is None or d.y is None else (d.x, d.y)


def symbol(card: str) -> str:
    """``claw`` from ``claw-3`` (a Power card) or ``gem:claw`` (a Gem on the map)."""
    return card.removeprefix("gem:").rsplit("-", 1)[0]


def gems_on_map(state: VastState) -> tuple[str, ...]:
    """Gems on the map, with those the Thief carries (Vast rulebook §Il Drago: their symbols serve until
    stashed)."""
    carried = state.thief.gems if state.thief is not None else ()
    return tuple(sorted((*(g for c in state.cells for g in c.gems), *carried)))


def _thief_hit(state: VastState, tiles: tuple[Pos, ...] | list[Pos], why: str) -> list[Event]:
    """Claw, Scratch and the Flame Wall kill the Thief on a tile they hit (Vast rulebook §Poteri)."""
    if thief_pos(state) not in tiles:
        return []
    return [ev.ThiefAttacked(by="dragon", why=why)]


# --- the turn ----------------------------------------------------------------------------------


def start(state: VastState) -> list[Event]:
    """The start of the Dragon's turn: the Flame Wall comes back (Vast rulebook §Poteri, Muro di Fiamme); on
    its first turn the Sleeping Dragon is placed on the Knight's tile, or on the Entrance (Vast rulebook §Il
    Drago, Preparazione)."""
    d = the_dragon(state)
    events: list[Event] = []
    if d.flame_wall is not None:
        events.append(ev.FlameWallReturned())
    if d.x is None:
        k = state.knight
        x, y = (k.x, k.y) if k is not None else ENTRANCE
        events.append(ev.DragonPlaced(x=x, y=y))
    return events


def next_step(state: VastState) -> list[Event]:
    """What the rules do by themselves in the Dragon's turn: a Hunger cube when 2 Goblins eaten pay it, and
    awakening at 11 Wakefulness (Vast rulebook §Risveglio e Risalita in Superficie)."""
    d = state.dragon
    if d is None:
        return []
    if d.eaten >= 2 and d.sloth["hunger"] > 0 and "hunger" not in d.advanced:
        return [ev.SlothCubeMoved(source="hunger", target="wakefulness", why="eaten")]
    if d.held > 0 and d.sloth["greed"] > 0 and "greed" not in d.advanced:
        return [ev.SlothCubeMoved(source="greed", target="wakefulness", why="treasure")]
    if not d.awake and wakefulness(d) >= d.awake_at:
        return [ev.DragonAwoke()]
    return []


def pride(state: VastState, track: str, why: str) -> list[Event]:
    """A Pride cube from ``track`` to Wakefulness, when it has one and no Pride cube moved this turn (Vast
    rulebook: the three Pride tracks are one track for the 1-a-turn limit)."""
    d = state.dragon
    if d is None or state.turn != "dragon" or d.sloth[track] < 1 or "pride" in d.advanced:
        return []
    return [ev.SlothCubeMoved(source=track, target="wakefulness", why=why)]


def _stage(d: DragonRole, most: int, what: str) -> None:
    if d.stage > most:
        raise refuse(
            "dragon.phase-over",
            "Riepilogo del Turno",
            f"{what} comes before collecting Treasure and placing a Gem (the phases are in order)",
        )


def path(state: VastState, d: DragonRole, target: Pos, *, through_wall: bool = False) -> list[Pos]:
    """The tiles entered moving to ``target`` in a straight line, 1 or 2 tiles (Vast rulebook §1. Muovi e Usa
    i Poteri; §Limitazioni di Movimento: underground through walls and onto Dark tiles; surfaced neither).
    With ``through_wall`` (Wing) a surfaced Dragon may instead go 1 tile through a wall. Raises
    ``vast.dragon.move`` (not 1 or 2 tiles in a straight line, or off the map), ``vast.dragon.dark-tile`` and
    ``vast.dragon.wall`` (surfaced), ``vast.dragon.not-placed`` (not on the map yet, rules revision 6)."""
    if (d.x is None or d.y is None) and state.rules_revision >= 6:  # before, it moved from the Entrance
        raise refuse("dragon.not-placed", "Il Drago, Preparazione", "the Dragon is not on the map yet")
    here = (d.x or 0, d.y or 0)
    dx, dy = target[0] - here[0], target[1] - here[1]
    n = abs(dx) + abs(dy)
    if (dx and dy) or n not in (1, 2):
        raise refuse("dragon.move", "1. Muovi e Usa i Poteri", "1 or 2 tiles in a straight line")
    side = next(s for s, (sx, sy) in STEP.items() if (sx, sy) == (dx // n, dy // n))
    g = geometry(state)
    tiles: list[Pos] = []
    at = here
    for _ in range(n):
        nxt = step(at, side)
        cell = cell_at(state, nxt)
        if cell is None:
            raise refuse("dragon.move", "1. Muovi e Usa i Poteri", f"no tile at {pos_key(nxt)}")
        if d.surfaced:
            if not cell.lit:
                raise refuse(
                    "dragon.dark-tile", "Limitazioni di Movimento", "surfaced, it stays off Dark tiles"
                )
            if g.wall_between(at, side) and not (through_wall and n == 1):
                raise refuse("dragon.wall", "Limitazioni di Movimento", "surfaced, it cannot cross walls")
        tiles.append(nxt)
        at = nxt
    return tiles


def _entered(state: VastState, tiles: list[Pos]) -> list[Event]:
    """Surfaced, entering the Knight's tile is an attack by her when her Strength reaches its Armor (Vast
    rulebook §Limitazioni di Movimento; §Risalire in Superficie)."""
    d = the_dragon(state)
    k = state.knight
    if not d.surfaced:
        return []
    # docs/vast/facts.md §7 Ash Dragon: a Tribe stronger than its Armor attacks it
    if "ash-dragon" in state.variants:
        for p in tiles:
            for t in tribes.tribes_at(state, p):
                if tribes.tribe_strength(state, t) > dragon_armor(state):
                    return tribes.attack_dragon(state, t)
    if k is None or k.health <= 0 or (k.x, k.y) not in tiles:
        return []
    s = strength(k, False)
    if s < dragon_armor(state):
        return []
    return strike(state, s, bomb=False, piece="knight")


def move(state: VastState, command: cmd.MoveDragon, then: Then) -> list[Event]:
    """The free move: once a turn, 1-2 tiles in a straight line (Vast rulebook §1. Muovi e Usa i Poteri)."""
    d = the_dragon(state)
    _stage(d, 0, "moving")
    if d.moved:
        raise refuse("dragon.moved", "1. Muovi e Usa i Poteri", "the free move is made once a turn")
    tiles = path(state, d, (command.x, command.y))
    events: list[Event] = [ev.DragonMoved(x=command.x, y=command.y, how="free")]
    events += _entered(fold(state, events), tiles)
    return then(state, events)


# --- paying for Powers ---------------------------------------------------------------------------


def payment(state: VastState, power: str, pay: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The cards and Gems paying ``power`` (Vast rulebook §1. Muovi e Usa i Poteri): ``pay`` as named, or,
    empty, the Gems first then the lowest cards that fit. Raises ``vast.dragon.not-in-hand`` (a card it does
    not hold), ``vast.dragon.gem-used`` (a Gem not on the map or used this turn), ``vast.dragon.cannot-pay``
    (the symbols do not pay the cost)."""
    d = the_dragon(state)
    cost = COSTS[power]
    gems_free = [g for g in gems_on_map(state) if g not in d.gems_used]
    if pay:
        cards = tuple(p for p in pay if not p.startswith("gem:"))
        gems = tuple(symbol(p) for p in pay if p.startswith("gem:"))
        if Counter(cards) - Counter(d.hand):
            raise refuse("dragon.not-in-hand", "Poteri", "pay with Power cards of the hand")
        if Counter(gems) - Counter(gems_free):
            raise refuse("dragon.gem-used", "Poteri", "each Gem on the map lends its symbol once a turn")
        if not _fits(cost, [symbol(c) for c in cards] + list(gems)):
            raise refuse("dragon.cannot-pay", "Poteri", f"{power} costs {' + '.join(cost)}")
        return cards, gems
    found = _cheapest(cost, d.hand, gems_free)
    if found is None:
        raise refuse("dragon.cannot-pay", "Poteri", f"{power} costs {' + '.join(cost)}")
    return found


def _fits(cost: tuple[str, ...], symbols: list[str]) -> bool:
    if len(symbols) != len(cost):
        return False
    left = Counter(symbols)
    for need in cost:
        if need != "?":
            if left[need] < 1:
                return False
            left[need] -= 1
    return True


def _cheapest(
    cost: tuple[str, ...], hand: tuple[str, ...], gems: list[str]
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    cards_left = sorted(hand)
    gems_left = list(gems)
    cards: list[str] = []
    used: list[str] = []
    for need in sorted(cost, key=lambda s: s == "?"):  # named symbols first
        gem = next((g for g in gems_left if need in ("?", g)), None)
        if gem is not None:
            gems_left.remove(gem)
            used.append(gem)
            continue
        card = next((c for c in cards_left if need in ("?", symbol(c))), None)
        if card is None:
            return None
        cards_left.remove(card)
        cards.append(card)
    return tuple(cards), tuple(used)


# --- the Powers ----------------------------------------------------------------------------------


def use_power(state: VastState, command: cmd.UsePower, then: Then) -> list[Event]:
    """Use a Power (Vast rulebook §Poteri). Raises ``vast.dragon.*`` when unpaid or its target is not
    allowed."""
    d = the_dragon(state)
    _stage(d, 0, "using a Power")
    here = (d.x or 0, d.y or 0)
    effect = _effect(state, d, here, command)  # checks the target before anything is paid
    cards, gems = payment(state, command.power, command.pay)
    paid: list[Event] = [ev.PowerUsed(power=command.power, cards=cards, gems=gems)]
    if command.power in ROLLED:
        return [*paid, roll(command.power, here)]
    after = fold(state, paid)
    aimed = {"hiss": bool(command.tribe), "scratch": bool(tribes.tribes_at(state, here))}
    if aimed.get(command.power) and trap_ready(state):
        rest = command.tribe if command.power == "hiss" else pos_key(here)
        return [*paid, trap_decision(command.power, str(rest))]
    return then(state, paid + effect(after))


def trap_ready(state: VastState) -> bool:
    return state.goblins is not None and "trap" in state.goblins.face_up


def trap_decision(power: str, rest: str) -> DecisionRequested:
    """The Goblins may discard their face-up Trap to cancel a Dragon Power aimed at a Tribe
    (docs/vast/facts.md §3 Secrets, Trap; decision ``trap:<power>:...``, default ``cancel``): the whole Power
    is cancelled (docs/vast/rulings.md)."""
    return DecisionRequested(
        decision=f"trap:{power}:{rest}", options=("cancel", "let"), piece="goblins", default="cancel"
    )


def untrapped(state: VastState, power: str, rest: str) -> list[Event]:
    """The effect of ``power`` when the Goblins let it through their Trap."""
    if power == "hiss":
        return hiss(rest)
    if power == "scratch":
        return scratch(state, parse_pos(rest))
    spot, _, face = rest.rpartition(":")
    center = parse_pos(spot)
    cells = cells_by_pos(state)
    return claw(state, int(face), tuple(p for p in die_tiles(center, int(face)) if p in cells))


def hiss(tribe: str) -> list[Event]:
    """Hiss (Vast rulebook §Poteri, Sibilo): the Tribe hides and loses 1 Population; the Dragon eats 1."""
    return [
        ev.PopulationLost(tribe=tribe, count=1, why="hiss"),
        ev.TribeHidden(tribe=tribe),
        tribes.rage(1, "attacked"),
        ev.GoblinsEaten(count=1),
    ]


def scratch(state: VastState, here: Pos) -> list[Event]:
    """Scratch (Vast rulebook §Poteri, Graffio): on the Dragon's tile the Knight loses 5 Grit, every Tribe
    drops to Population 0 (scattered) and the Dragon eats what they lose."""
    out: list[Event] = []
    eaten = 0
    for t in tribes.tribes_at(state, here):
        out += [tribes.scatter(state, t, to_zero=True), tribes.rage(1, "attacked")]
        eaten += t.population
    if eaten:
        out.append(ev.GoblinsEaten(count=eaten))
    k = state.knight
    if k is not None and (k.x, k.y) == here:
        out += grit_change(fold(state, out), -5, "scratch")
    return out + _thief_hit(state, [here], "scratch")


def roll(power: str, here: Pos) -> RollRequested:
    return RollRequested(reason=f"power:{power}:{pos_key(here)}", dice=1, sides=6, piece="dragon")


Effect = Callable[[VastState], list[Event]]
"""A Power's effect, as a function of the state after its payment."""


class _Aim(NamedTuple):
    """What a Power that rolls no die is aimed at: the state before payment, the Dragon, its tile, the
    command, the tile named (``x``, ``y``) and the map's cells by position."""

    state: VastState
    dragon: DragonRole
    here: Pos
    command: cmd.UsePower
    target: Pos | None
    cells: dict[Pos, CaveCell]


def _effect(state: VastState, d: DragonRole, here: Pos, command: cmd.UsePower) -> Effect:
    """The checked effect of a Power that rolls no die (``POWER_EFFECTS``), as a function of the state after
    payment. Raises ``vast.dragon.target`` (``vast.dragon.shield`` for Slap) for a target the Power cannot
    take."""
    target = (command.x, command.y) if command.x is not None and command.y is not None else None
    checked = POWER_EFFECTS.get(command.power)
    if checked is None:
        raise InvariantViolated("vast-power", f"unknown Power {command.power!r}")
    return checked(_Aim(state, d, here, command, target, cells_by_pos(state)))


def _no_effect(aim: _Aim) -> Effect:
    """Claw, Flame and Wrath act on their roll (``rolled``); the Shriek token is placed by ``PowerUsed``."""
    if aim.command.power == "shriek" and aim.dragon.shriek:
        raise refuse("dragon.target", "Poteri", "the Shriek token is placed already")
    return lambda s: []


def _wing(aim: _Aim) -> Effect:
    target = aim.target
    if target is None:
        raise refuse("dragon.target", "Poteri", "Wing: name the tile reached (x, y)")
    tiles = path(aim.state, aim.dragon, target, through_wall=True)

    def wing(s: VastState) -> list[Event]:
        moved: list[Event] = [ev.DragonMoved(x=target[0], y=target[1], how="wing")]
        return moved + _entered(fold(s, moved), tiles)

    return wing


def _hiss(aim: _Aim) -> Effect:
    if aim.command.tribe is None:
        raise refuse("dragon.target", "Poteri", "Hiss: name a Tribe on the map")
    t = tribes.tribe(aim.state, aim.command.tribe)
    if not tribes.on_map(t):
        raise refuse("dragon.target", "Poteri", "Hiss hits a Tribe on the map")
    return lambda s: hiss(t.name)


def _slither(aim: _Aim) -> Effect:
    src, dst = aim.command.source, aim.command.target
    if src is None or dst is None or src == dst:
        raise refuse("dragon.target", "Poteri", "Slither: name two Sloth tracks (source, target)")
    if aim.dragon.sloth[src] < 1 or aim.dragon.sloth[dst] >= SLOTH_ROOM[dst]:
        raise refuse("dragon.target", "Poteri", "Slither moves a cube to a track with a free space")
    return lambda s: [ev.SlothCubeMoved(source=src, target=dst, why="slither")]


def _swat(aim: _Aim) -> Effect:
    command, target, cells = aim.command, aim.target, aim.cells
    if command.from_x is None or command.from_y is None or target is None or command.token is None:
        raise refuse("dragon.target", "Poteri", "Swat: name from_x, from_y, token and x, y")
    source = (int(command.from_x or 0), int(command.from_y or 0))
    if source not in [step(aim.here, s) for s in SIDES] or source not in cells:
        raise refuse("dragon.target", "Poteri", "Swat pushes a token on a tile next to the Dragon")
    cell = cells[source]
    has = cell.treasure > 0 if command.token == "treasure" else command.token in cell.gems
    if not has:
        raise refuse("dragon.target", "Poteri", f"no {command.token} token on {pos_key(source)}")
    dx, dy = target[0] - source[0], target[1] - source[1]
    if (dx and dy) or not 1 <= abs(dx) + abs(dy) <= SWAT_RANGE or target not in cells:
        raise refuse("dragon.target", "Poteri", "Swat sends it up to 5 spaces in a line, onto a tile")
    token = command.token
    return lambda s: [ev.GemMoved(token=token, from_x=source[0], from_y=source[1], x=target[0], y=target[1])]


def _scorch(aim: _Aim) -> Effect:
    dark = tuple(p for p in die_tiles(aim.here, 6) if p in aim.cells and not aim.cells[p].lit)
    if not dark:
        raise refuse("dragon.target", "Poteri", "Scorch: no Dark tile is around the Dragon")
    return lambda s: [ev.PowerStruck(power="scorch", tiles=dark)]


def _burn(aim: _Aim) -> Effect:
    target = aim.target
    if target is None or target not in aim.cells or aim.cells[target].lit:
        raise refuse("dragon.target", "Poteri", "Burn reveals a Dark tile of the map (x, y)")
    return lambda s: [ev.PowerStruck(power="burn", tiles=(target,))]


def _slap(aim: _Aim) -> Effect:
    k, target = aim.state.knight, aim.target
    if k is None or (k.x, k.y) not in [step(aim.here, s) for s in SIDES]:
        raise refuse("dragon.target", "Poteri", "Slap pushes the Knight from a space next to it")
    if shielded(aim.state):
        raise refuse("dragon.shield", "Equipaggiamento", "the Knight's Shield keeps her from being moved")
    if target is None or target not in bats_reach(aim.state, (k.x, k.y), knight=True):
        raise refuse(
            "dragon.target", "Poteri", "Slap pushes her up to 3 spaces, over Lit tiles, never through a wall"
        )
    return lambda s: [ev.KnightMoved(x=target[0], y=target[1], forced=True)]


def _scratch(aim: _Aim) -> Effect:
    k, here = aim.state.knight, aim.here
    on_knight = k is not None and (k.x, k.y) == here
    if not on_knight and not tribes.tribes_at(aim.state, here) and thief_pos(aim.state) != here:
        raise refuse("dragon.target", "Poteri", "Scratch: no Knight, Tribe or Thief on the Dragon's tile")
    return lambda s: scratch(s, here)


def _flame_wall(aim: _Aim) -> Effect:
    target, cells = aim.target, aim.cells
    if aim.dragon.flame_wall is not None:
        raise refuse("dragon.target", "Poteri", "the Flame Wall token is on the map already")
    near = [step(aim.here, s) for s in SIDES]
    if target is None or target not in near or target not in cells or not cells[target].lit:
        raise refuse("dragon.target", "Poteri", "the Flame Wall goes on a Lit tile next to the Dragon")
    return lambda s: [ev.FlameWallPlaced(x=target[0], y=target[1])]


def _smash(aim: _Aim) -> Effect:
    here = aim.here
    if here not in aim.cells or not aim.cells[here].crystal:
        raise refuse("dragon.target", "Poteri", "Smash: no Crystal on the Dragon's tile")
    return lambda s: [ev.CrystalDestroyed(x=here[0], y=here[1])]


POWER_EFFECTS: dict[str, Callable[[_Aim], Effect]] = {
    "claw": _no_effect,
    "flame": _no_effect,
    "wrath": _no_effect,
    "wing": _wing,
    "hiss": _hiss,
    "slither": _slither,
    "swat": _swat,
    "scorch": _scorch,
    "burn": _burn,
    "slap": _slap,
    "shriek": _no_effect,
    "scratch": _scratch,
    "flame-wall": _flame_wall,
    "smash": _smash,
}
"""Each Power's check of its target (Vast rulebook §Poteri), giving its effect (``_effect``)."""


def rolled(state: VastState, power: str, face: int, here: Pos) -> list[Event]:
    """The effect of a rolled Power (Vast rulebook §Il Dado del Drago), after any Shriek re-roll."""
    cells = cells_by_pos(state)
    hit = tuple(p for p in die_tiles(here, face) if p in cells)
    if power == "flame":
        dark = tuple(p for p in hit if not cells[p].lit)
        return [ev.PowerStruck(power="flame", face=face, tiles=dark)]
    if power == "claw":
        if trap_ready(state) and any(tribes.tribes_at(state, p) for p in hit):
            return [trap_decision("claw", f"{pos_key(here)}:{face}")]
        return claw(state, face, hit)
    return wrath(state, face, hit, here)


def claw(state: VastState, face: int, hit: tuple[Pos, ...]) -> list[Event]:
    """Claw (Vast rulebook §Poteri, Artiglio): on the tiles hit every Tribe scatters and the Dragon eats what
    they lose; the Knight may be pushed 1 space (decision ``claw-push``, the Dragon's; default: she stays).
    From rules revision 6 never onto the Dragon's space, and not at all when her Shield has its cube
    (``shielded``)."""
    events: list[Event] = [ev.PowerStruck(power="claw", face=face, tiles=hit)]
    eaten = 0
    for p in hit:
        for t in tribes.tribes_at(state, p):
            scatter = tribes.scatter(state, t)
            events += [scatter, tribes.rage(1, "attacked")]
            eaten += min(t.population, scatter.loss)
    if eaten:
        events.append(ev.GoblinsEaten(count=eaten))
    events += _thief_hit(state, hit, "claw")
    k = state.knight
    if k is not None and (k.x, k.y) in hit and k.health > 0 and not shielded(state):
        g = geometry(state)
        barred = dragon_pos(state) if state.rules_revision >= 6 else None  # Esempio #3, Movimento forzato
        spots = [
            p
            for s in SIDES
            if (p := step((k.x, k.y), s)) in cells_by_pos(state)
            and cells_by_pos(state)[p].lit
            and not g.wall_between((k.x, k.y), s)
            and p != barred
        ]
        if spots:
            options = ("stay", *(pos_key(p) for p in spots))
            events.append(
                DecisionRequested(decision="claw-push", options=options, piece="dragon", default="stay")
            )
    return events


def wrath(state: VastState, face: int, hit: tuple[Pos, ...], here: Pos) -> list[Event]:
    """Wrath (Vast rulebook §Poteri, Collera; §La Caverna, Gli altri giocatori): the tiles hit collapse, one
    after the other. Never the Entrance nor (before rules revision 6) the Dragon's own tile; a tile under the
    Knight falls only if she has a tile next to it to be pushed onto (as in the Collapse). From rules revision
    3, a map split before the Collapse is made whole by the Dragon sliding the groups (``reunite``, Vast
    rulebook §Esempio #2); during the Collapse, and in games of revisions 1 and 2, a tile whose fall would
    split the map stays (docs/vast/rulings.md). From rules revision 6 (§Poteri, Collera: «Fai crollare le
    tessere colpite … sposta le pedine degli altri giocatori su uno spazio adiacente»; the die's centre is the
    roller's own tile, §Il Dado del Drago) the Dragon's own tile falls too, the Thief and the Dragon stepping
    off as the Knight does (``collapse_step``); a tile whose piece has nowhere to go stays, and so does the
    Knight's under her Shield (``shielded``)."""
    cells = set(cells_by_pos(state))
    falling: list[Pos] = []
    spared = (ENTRANCE,) if state.rules_revision >= 6 else (ENTRANCE, here)
    for p in hit:
        if p in spared:
            continue
        left = cells - {*falling, p}
        if (state.rules_revision < 3 or state.collapse) and len(groups(left)) > 1:
            continue
        falling.append(p)
    k = state.knight
    movers = [(k.x, k.y)] if k is not None else []
    if state.rules_revision >= 6:
        thief = thief_pos(state)
        movers += [here] + ([thief] if thief is not None else [])
        if shielded(state) and k is not None and (k.x, k.y) in falling:
            falling.remove((k.x, k.y))  # her Shield: she ignores being moved, so her tile stays
    for mp in movers:
        if mp in falling and not [q for q in (step(mp, s) for s in SIDES) if q in cells and q not in falling]:
            falling.remove(mp)
    return [ev.PowerStruck(power="wrath", face=face, tiles=tuple(falling))]


def slide_options(state: VastState) -> tuple[str, ...]:
    """The slides that bring a group cut off from the Entrance's back against the map (Vast rulebook §Il
    Collasso, Prima del Collasso; §Esempio #2): ``x,y:side:n`` moves the group whose first tile is ``x,y``
    ``n`` spaces toward ``side``, the fewest that make it touch another tile without overlapping any."""
    cells = set(cells_by_pos(state))
    split = groups(cells)
    out: list[tuple[int, str]] = []
    span = 2 + max(abs(x) + abs(y) for x, y in cells)
    for group in split[1:]:
        rest = cells - group
        first = min(group)
        for side in SIDES:
            dx, dy = STEP[side]
            for n in range(1, 2 * span):
                moved = {(x + n * dx, y + n * dy) for x, y in group}
                if moved & rest:
                    break
                if any(step(p, s) in rest for p in moved for s in SIDES):
                    out.append((n, f"{pos_key(first)}:{side}:{n}"))
                    break
    return tuple(option for _, option in sorted(out, key=lambda o: o[0]))


def reunite_step(state: VastState) -> list[Event]:
    """The decision ``slide`` of the role that split the map (the Dragon's Wrath, the Goblins' Cave-In) while
    it is split (default: the shortest slide); a slide that makes it whole completes the step."""
    options = slide_options(state)
    if not options:
        raise InvariantViolated("vast-wrath", "a split map with no slide to join it")
    piece = state.turn or "dragon"  # who caused the fall: the Dragon (Wrath), the Goblins (Cave-In)
    return [DecisionRequested(decision="slide", options=options, piece=piece, default=options[0])]


def slid(state: VastState, option: str) -> list[Event]:
    """``MapGroupSlid`` for the ``slide`` option chosen; its ``step`` is ``reunite`` when the map is whole."""
    spot, side, n_text = option.split(":")
    first, n = parse_pos(spot), int(n_text)
    cells = set(cells_by_pos(state))
    group = next(g for g in groups(cells) if first in g)
    dx, dy = STEP[side][0] * n, STEP[side][1] * n
    after = (cells - group) | {(x + dx, y + dy) for x, y in group}
    whole = len(groups(after)) == 1
    return [ev.MapGroupSlid(tiles=tuple(sorted(group)), dx=dx, dy=dy, step="reunite" if whole else "")]


def collapse_step(state: VastState, pos: Pos, step_name: str) -> list[Event]:
    """One tile Wrath collapses: Tribes on it scatter; the Knight on it is pushed first (decision
    ``wrath-push:x,y``, the Dragon's; default the first tile N->E->S->W); from rules revision 6 then the
    Thief (``wrath-thief:x,y``) and the Dragon off its own tile (``wrath-off:x,y``), each the Dragon's."""
    cell = cell_at(state, pos)
    if cell is None:
        raise InvariantViolated("vast-wrath", f"no tile at {pos_key(pos)}")
    k = state.knight
    falling = {parse_step(s)[1] for s in state.todo if s.startswith("collapse:")}
    spots = [q for q in (step(pos, s) for s in SIDES) if cell_at(state, q) is not None and q not in falling]
    options = tuple(pos_key(q) for q in spots)
    movers = [("wrath-push", k is not None and (k.x, k.y) == pos)]
    if state.rules_revision >= 6:  # the Thief pushed, the Dragon stepping off its own tile (``wrath``)
        movers += [("wrath-thief", thief_pos(state) == pos), ("wrath-off", dragon_pos(state) == pos)]
    for kind, on in movers:
        if on and options:
            return [
                DecisionRequested(
                    decision=f"{kind}:{pos_key(pos)}", options=options, piece="dragon", default=options[0]
                )
            ]
    return _collapse(state, pos, step_name)


def _collapse(state: VastState, pos: Pos, step_name: str) -> list[Event]:
    cell = cell_at(state, pos)
    if cell is None:
        raise InvariantViolated("vast-wrath", f"no tile at {pos_key(pos)}")
    events: list[Event] = [tribes.scatter(state, t) for t in tribes.tribes_at(state, pos)]
    events += [tribes.rage(1, "attacked") for _ in tribes.tribes_at(state, pos)]
    crystal_tile = tile_data(cell.tile).kind == "crystal"
    events.append(
        ev.TileCollapsed(
            x=pos[0],
            y=pos[1],
            tile=cell.tile,
            crystal_tile=crystal_tile,
            step=step_name,
            dark=not cell.lit,
            by="goblins" if state.turn == "goblins" else "dragon",
        )
    )
    return events


# --- Treasure, Gems, the end of the turn -------------------------------------------------------------


def collect(state: VastState, command: cmd.DragonCollect, then: Then) -> list[Event]:
    """Vast rulebook §2. Raccogli un Tesoro: after its movement, the Treasure tokens on its tile."""
    d = the_dragon(state)
    _stage(d, 0, "collecting Treasure")
    here = (d.x or 0, d.y or 0)
    cell = cell_at(state, here)
    if cell is None or cell.treasure < 1:
        raise refuse("dragon.no-treasure", "2. Raccogli un Tesoro", "no Treasure token on its tile")
    return then(state, [ev.DragonTreasureTaken(x=here[0], y=here[1], count=cell.treasure)])


def place_gem(state: VastState, command: cmd.PlaceGem, then: Then) -> list[Event]:
    """Vast rulebook §3. Posa una Gemma di Drago: a Gem of its reserve on its tile; with another Gem on the
    map already, a Pride cube (§Risveglio e Risalita in Superficie)."""
    d = the_dragon(state)
    _stage(d, 1, "placing a Gem")
    if command.gem not in d.gems:
        raise refuse(
            "dragon.no-gem", "3. Posa una Gemma di Drago", f"the {command.gem} Gem is not in reserve"
        )
    here = (d.x or 0, d.y or 0)
    if cell_at(state, here) is None:
        raise InvariantViolated("vast-dragon", "the Dragon is off the map")
    others = gems_on_map(state)
    events: list[Event] = [ev.GemPlaced(gem=command.gem, x=here[0], y=here[1])]
    if others:
        events += pride(fold(state, events), "pride-gem", "gem")
    return then(state, events)


def end(state: VastState) -> list[Event]:
    """The end of its turn (Vast rulebook §Riepilogo del Turno): a Pride cube for not moving; surfacing on a
    Crystal tile once awake (a Crystal token there is smashed; from rules revision 6 its choice, decision
    ``surface``, default ``surface``: Vast rulebook §Risalire in Superficie: «puoi risalire in superficie dal
    sottosuolo terminando il tuo turno su una tessera Cristallo»); then the hand is replaced
    (``new_hand``)."""
    d = the_dragon(state)
    events: list[Event] = []
    if d.still:
        events += pride(state, "pride-still", "still")
    for _ in range(4):
        more = next_step(fold(state, events))
        if not more:
            break
        events += more
    after = fold(state, events)
    dd = the_dragon(after)
    here = (dd.x or 0, dd.y or 0)
    cell = cell_at(after, here)
    if (
        dd.awake
        and not dd.surfaced
        and cell is not None
        and cell.lit
        and tile_data(cell.tile).kind == "crystal"
    ):
        if state.rules_revision >= 6:  # Vast rulebook, Il Drago, Risalire in Superficie: «puoi risalire»
            options = ("surface", "stay")
            return [
                *events,
                DecisionRequested(decision="surface", options=options, piece="dragon", default="surface"),
            ]
        events.append(ev.DragonSurfaced(x=here[0], y=here[1], crystal=cell.crystal))
    return events + new_hand(fold(state, events))


def surface_decided(state: VastState, option: str) -> list[Event]:
    """The answer to ``surface`` (rules revision 6): ``surface`` rises on its Crystal tile (a Crystal token
    there is smashed), ``stay`` keeps it underground; then the hand is replaced."""
    d = the_dragon(state)
    here = (d.x or 0, d.y or 0)
    cell = cell_at(state, here)
    if option != "surface" or cell is None:
        return new_hand(state)
    surfaced = ev.DragonSurfaced(x=here[0], y=here[1], crystal=cell.crystal)
    return [surfaced, *new_hand(evolve(state, surfaced))]


def new_hand(state: VastState) -> list[Event]:
    """The hand replaced at the end of its turn (Vast rulebook §4. Rimpiazza la Mano di Carte): the rest
    discarded, all 18 Power cards shuffled, Spirit cards drawn."""
    d = the_dragon(state)
    events: list[Event] = [ev.PowerCardsDiscarded(cards=d.hand)] if d.hand else []
    return [
        *events,
        DrawRequested(reason="power-hand", deck="power", cards=POWER_CARDS, count=spirit(d), piece="dragon"),
    ]


# --- the others against the Dragon ------------------------------------------------------------------


def attack_rolled(state: VastState, reason: str, face: int) -> list[Event]:
    _, s_text, bomb_text = reason.split(":")
    s, bomb = int(s_text), bomb_text == "1"
    a = dragon_armor(state)
    if center_hit(face):
        return hit_dragon(state, s, a, bomb)
    return [ev.DragonAttacked(strength=s, armor=a, hit=False, bomb=bomb)]


def knight_attack(state: VastState, command: cmd.AttackDragon, then: Then) -> list[Event]:
    """``AttackDragon`` (Vast rulebook §Attaccare il Drago; §Equipaggiamento, Bomba): each attack on the
    surfaced Dragon opens its own Encounter from rules revision 6. Raises ``vast.dragon.*``,
    ``vast.no-encounter-left``."""
    k = the_knight(state)
    d = the_dragon(state)
    if dragon_pos(state) != (k.x, k.y):
        raise refuse("dragon.not-here", "Attaccare il Drago", "the Dragon is not on her tile")
    if command.bomb and command.with_javelin:
        raise refuse("dragon.javelin", "Tesori", "the Javelin is not used with the Bomb in the same turn")
    if not d.surfaced:
        if k.dragon_attacks:
            raise refuse("dragon.once", "Attaccare il Drago", "underground, it is attacked once a turn")
        if not state.collapse and not (command.bomb or command.with_javelin):
            raise refuse(
                "dragon.underground",
                "Attaccare il Drago",
                "underground before the Collapse, only with the Bomb (or the Javelin)",
            )
    if command.bomb and (not k.placed.get("bomb") or k.bomb_used):
        raise refuse("bomb.no-cube", "Equipaggiamento", "the Bomb needs its Hero cube this turn")
    if command.with_javelin and "javelin" not in (*k.treasures, *k.face_up):
        raise refuse("dragon.javelin", "Tesori", "she has no Javelin")
    # Vast rulebook §Tesori: the Mighty Axe is not used with the Bomb; the Javelin adds 1 Strength to this
    # attack
    axe = 1 if command.bomb and k.placed.get("mighty-axe") else 0
    s = strength(k, True) - axe + int(command.with_javelin)
    if s < dragon_armor(state):
        raise refuse(
            "dragon.too-strong", "Attaccare il Drago", f"Strength {s} below its Armor {dragon_armor(state)}"
        )
    # Vast rulebook, Il Drago, Attaccare il Drago: surfaced, «spendendo 1 Incontro per ogni attacco» (rules
    # revision 6; before, the attacks after the first shared the open Encounter)
    each = d.surfaced and state.rules_revision >= 6
    events = encounter(state, k, -1 if each else 1, "attacking the Dragon")
    if command.with_javelin:
        events.append(ev.TreasureUsed(card="javelin"))
    events += strike(fold(state, events), s, bomb=command.bomb, piece="knight")
    return then(state, events)


def shoot(state: VastState, command: cmd.ShootDragon, then: Then) -> list[Event]:
    """``ShootDragon``: the Enchanted Bow (Vast rulebook §Tesori, Arco Incantato). Raises
    ``vast.dragon.*``."""
    k = the_knight(state)
    d = the_dragon(state)
    if not k.placed.get("enchanted-bow") or k.enchanted_bow_used:
        raise refuse("dragon.bow", "Tesori", "the Enchanted Bow needs its Hero cube this turn, once a turn")
    where = dragon_pos(state)
    if where is None:
        raise refuse("dragon.bow", "Tesori", "the Dragon is not on the map")
    dx, dy = where[0] - k.x, where[1] - k.y
    if (dx and dy) or abs(dx) + abs(dy) > 5:
        raise refuse("dragon.bow", "Tesori", "the Enchanted Bow shoots up to 5 tiles in a straight line")
    n = min(len(d.hand), max(0, strength(k, True) - 1))
    events: list[Event] = [ev.DragonShot(discards=n)]
    events += forced_discards(fold(state, events), n, "bow")
    return then(state, events)


# --- answers ---------------------------------------------------------------------------------------


def rolled_answer(state: VastState, reason: str, face: int) -> list[Event]:
    """After a Dragon die rolled for a Power (``power:<name>:x,y``; the Shriek token may re-roll it: decision
    ``shriek``, default keep), for an attack on the Dragon at equal Strength (``dragon-attack:...``), or for a
    Gem taken (``gem:<by>:<gem>:x,y``: Vast rulebook §Gemme e altri giocatori)."""
    kind, _, rest = reason.partition(":")
    if kind == "power":
        power, _, where = rest.partition(":")
        d = the_dragon(state)
        if d.shriek:
            return [
                DecisionRequested(
                    decision=f"shriek:{power}:{where}:{face}",
                    options=("keep", "reroll"),
                    piece="dragon",
                    default="keep",
                )
            ]
        return rolled(state, power, face, parse_pos(where))
    if kind == "dragon-attack":
        return attack_rolled(state, reason, face)
    by, _, rest = rest.partition(":")
    gem, _, where = rest.partition(":")
    where, _, source = where.partition(":")
    x, y = parse_pos(where)
    trapped = center_hit(face)
    if by == "knight":
        taken: list[Event] = [
            ev.GemTaken(gem=gem, x=x, y=y, by="knight", trapped=trapped, step=f"gem:{gem}:{where}")
        ]
        return taken + grit_change(fold(state, taken), -2 if trapped else 5, "gem")
    t = tribes.tribe(state, by)
    taken = [ev.GemTaken(gem=gem, x=x, y=y, by=by, trapped=trapped, from_dragon=source == "dragon")]
    if trapped:
        return [*taken, tribes.scatter(state, t)]
    return [*taken, tribes.rage(1, "plunder"), *tribes.gnome_jump(fold(state, taken), t)]


def decided(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    """The Dragon's decisions: ``claw-push``, ``wrath-push:x,y``, ``shriek:<power>:x,y:<face>``, and
    ``dragon-off:x,y`` (its piece leaving a tile the Collapse removes)."""
    if kind == "claw-push":
        if option == "stay":
            return []
        x, y = parse_pos(option)
        return [ev.KnightMoved(x=x, y=y, forced=True)]
    if kind in ("wrath-push", "wrath-thief", "wrath-off"):
        pos = parse_pos(where)
        x, y = parse_pos(option)
        moved: list[Event] = [ev.KnightMoved(x=x, y=y, forced=True)]
        if kind == "wrath-thief":
            moved = [ev.ThiefMoved(x=x, y=y, forced=True)]
        elif kind == "wrath-off":
            moved = [ev.DragonMoved(x=x, y=y, how="forced")]
        return moved + collapse_step(fold(state, moved), pos, f"collapse:{pos_key(pos)}")
    if kind == "shriek":
        power, spot, face = where.split(":")
        pos = parse_pos(spot)
        if option == "reroll":
            return [ev.ShriekSpent(), roll(power, pos)]
        return rolled(state, power, int(face), pos)
    if kind == "axe":
        if option == "keep":
            return []
        d = the_dragon(state)
        axe: list[Event] = [ev.HeroCubeDiscarded(placed_on="mighty-axe"), ev.AxeStruck()]
        return axe + ([ev.DragonDied()] if d.health - 1 <= 0 else [])
    if kind == "power-discard":
        n_text, _, why = where.partition(":")
        out: list[Event] = [ev.PowerCardsDiscarded(cards=(option,), why=why)]
        return out + forced_discards(fold(state, out), int(n_text) - 1, why)
    if kind == "trap":
        power, _, rest = where.partition(":")
        if option == "cancel":
            return [ev.TrapSprung(power=power)]
        return untrapped(state, power, rest)
    if kind == "slide":
        return slid(state, option)
    if kind == "surface":
        return surface_decided(state, option)
    if kind == "dragon-off":
        x, y = parse_pos(option)
        off: list[Event] = [ev.DragonMoved(x=x, y=y, how="forced")]
        return off + remove_stepped_off(fold(state, off), where)
    raise InvariantViolated("vast-decision", f"unknown Dragon decision {kind!r}")


def candidates(state: VastState) -> list[cmd.VastCommand]:
    """Every Dragon command worth trying now (``legal_commands`` keeps those ``decide`` accepts)."""
    d = state.dragon
    if d is None or d.x is None or d.y is None:
        return [cmd.VastEndTurn(role="dragon")]
    here = (d.x, d.y)
    out: list[cmd.VastCommand] = []
    if d.stage == 0:
        for s in SIDES:
            one = step(here, s)
            two = step(one, s)
            out += [cmd.MoveDragon(x=one[0], y=one[1]), cmd.MoveDragon(x=two[0], y=two[1])]
            out += [
                cmd.UsePower(power="wing", x=one[0], y=one[1]),
                cmd.UsePower(power="wing", x=two[0], y=two[1]),
            ]
            out.append(cmd.UsePower(power="flame-wall", x=one[0], y=one[1]))
        for power in ("claw", "flame", "wrath", "scorch", "shriek", "scratch", "smash"):
            out.append(cmd.UsePower(power=power))
        if state.goblins is not None:
            out += [
                cmd.UsePower(power="hiss", tribe=t.name) for t in state.goblins.tribes if tribes.on_map(t)
            ]
        out += [cmd.UsePower(power="burn", x=c.x, y=c.y) for c in state.cells if not c.lit]
        for src in d.sloth:
            for dst in d.sloth:
                if src != dst and d.sloth[src] and d.sloth[dst] < SLOTH_ROOM[dst]:
                    out.append(cmd.UsePower(power="slither", source=src, target=dst))  # type: ignore[arg-type]  # sloth keys: SlothTrack names kept as str
        k = state.knight
        if k is not None and (k.x, k.y) in [step(here, s) for s in SIDES]:
            out += [cmd.UsePower(power="slap", x=p[0], y=p[1]) for p in bats_reach(state, (k.x, k.y), True)]
        out += _swats(state, here)
        out.append(cmd.DragonCollect())
    if d.stage <= 1:
        out += [cmd.PlaceGem(gem=g) for g in d.gems]  # type: ignore[arg-type]  # gem names kept as str
    out.append(cmd.VastEndTurn(role="dragon"))
    return out


def _swats(state: VastState, here: Pos) -> list[cmd.VastCommand]:
    cells = cells_by_pos(state)
    out: list[cmd.VastCommand] = []
    for s in SIDES:
        src = step(here, s)
        cell = cells.get(src)
        if cell is None:
            continue
        tokens = (["treasure"] if cell.treasure else []) + list(cell.gems)
        for token in tokens:
            for side in SIDES:
                at = src
                for _ in range(SWAT_RANGE):
                    at = step(at, side)
                    if at in cells:
                        out.append(
                            cmd.UsePower(
                                power="swat",
                                from_x=src[0],
                                from_y=src[1],
                                token=token,  # type: ignore[arg-type]  # treasure or a gem name (str)
                                x=at[0],
                                y=at[1],
                            )
                        )
    return out
