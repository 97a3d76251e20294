"""Readable bots for Vast's Knight, Goblins, Dragon and Cave (VAST-DESIGN.md §3.12): each scores every legal
command with a short list of rules, ties broken by a seeded jitter (haunt-roll-fail's EvalBot idea, made
reproducible).

A bot reads only its own seat's view: the state as ``GET /games/{id}/state`` serves it to that seat (Dark
tiles are ``"?"`` to the Knight), and its ``legal-commands``. Used by ``dicelog demo --game vast`` and the
tests that play whole games.

Knight: complete a Sidequest; attack the Dragon (a Bomb cube for it underground, Strength for it); smash a
Crystal; collect Treasure; give Strength the cubes a Crystal needs;
place cubes on Movement, then Perception; walk toward the nearest Crystal token, else Treasure token, else
Dark tile (once 5 Crystals are smashed, toward the Entrance); light a Flare over Dark tiles; end the turn.

Dragon: collect Treasure (Greed); Scratch, Hiss and Claw on Tribes (Hunger); reveal with Scorch, Burn and
Flame (Pride); place a Gem; move toward Treasure, Tribes, then, awake, a Lit Crystal tile to surface on, then
the Entrance; keep still when nothing calls it (Pride); end the turn.

Cave: remove Crystal tiles first in the Collapse; place Crystal tiles far from the Knight and other tiles
near her path; put Treasure tokens far from her (more tokens on the map, more Omens); Soporific Spores
when she can lose a cube; Giant Bats to carry her away from what she walks to; end the turn.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import msgspec

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.cave import ENTRANCE, SIDES, Pos, step
from dicelog.domain.vast.content import tiles
from dicelog.domain.vast.rules.common import (
    GRIT_CUBES,
    cell_at,
    cubes_on,
    geometry,
    perception,
    strength,
    the_knight,
)
from dicelog.domain.vast.state import HIDDEN, VastState

FAR = 1_000


def decode_state(raw: dict[str, Any]) -> VastState:
    """The state document of ``GET /games/{id}/state`` as a ``VastState``."""
    return msgspec.convert(raw, VastState, strict=False)


def knight_distances(state: VastState, start: Pos) -> dict[Pos, int]:
    """Tiles from ``start`` to every tile the Knight can walk to (walls block; Dark tiles may be entered)."""
    g = geometry(state)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for side in SIDES:
            there = step(here, side)
            if there in g.cells and there not in seen and not g.wall_between(here, side):
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def _target(state: VastState) -> set[Pos]:
    k = the_knight(state)
    d = state.dragon
    if d is not None and d.x is not None and d.y is not None:
        return {(d.x, d.y)}  # with the Dragon in play, killing it wins (004 §Il Cavaliere, Come Vincere)
    if k.smashed >= 5:
        return {ENTRANCE}
    crystals = {(c.x, c.y) for c in state.cells if c.crystal}
    if crystals:
        return crystals
    treasure = {(c.x, c.y) for c in state.cells if c.treasure}
    if treasure:
        return treasure
    return {(c.x, c.y) for c in state.cells if not c.lit}


def _distance_to(state: VastState, pos: Pos, targets: set[Pos]) -> int:
    dist = knight_distances(state, pos)
    return min((dist[t] for t in targets if t in dist), default=FAR)


def knight_score(state: VastState, command: Any) -> int:
    k = the_knight(state)
    here = (k.x, k.y)
    cell = cell_at(state, here)
    crystal_here = cell is not None and cell.crystal
    d = state.dragon
    on_dragon = d is not None and (d.x, d.y) == here
    match command:
        case cmd.CompleteSidequest():
            return 10_000
        case cmd.AttackDragon(bomb=False):
            return 2_500
        case cmd.AttackDragon(bomb=True):
            return 2_400
        case cmd.PlaceHeroCube(target="bomb") if on_dragon and d is not None and not d.surfaced:
            return 850
        case cmd.PlaceHeroCube(target="strength") if on_dragon:
            return 880
        case cmd.SmashCrystal():
            return 3_000
        case cmd.CollectTreasure():
            return 1_000
        case cmd.PlaceHeroCube(target="strength") if strength(k, True) < 3 and (
            crystal_here or any(c.crystal for c in state.cells)
        ):
            return 900 if crystal_here else 700
        case cmd.PlaceHeroCube(target="potion-kit"):
            return 950 if k.health <= 4 else 0
        case cmd.PlaceHeroCube(target=target) if target in ("elven-sword", "heroic-boots", "pixie-lantern"):
            return 800
        case cmd.PlaceHeroCube(target="movement"):
            return 600 - 100 * cubes_on(k, "movement")
        case cmd.PlaceHeroCube(target="perception"):
            return 550 - 100 * cubes_on(k, "perception")
        case cmd.PlaceHeroCube(target="shield") if k.grit >= GRIT_CUBES[0]:
            return 150
        case cmd.PlaceHeroCube():
            return 0
        case cmd.MoveKnight(x=x, y=y):
            targets = _target(state)
            before = _distance_to(state, here, targets)
            after = _distance_to(state, (x, y), targets)
            if after >= before:
                return 20 if (x, y) not in k.spaces else 5
            return 500 - min(after, 50)
        case cmd.UseFlare(x=x, y=y):
            near = sum(1 for c in state.cells if not c.lit and abs(c.x - x) <= 1 and abs(c.y - y) <= 1)
            return 100 + 40 * near if k.encounters >= perception(k) - 1 else 10
        case cmd.VastEndTurn():
            return 1
    return 0


def cave_score(state: VastState, command: Any) -> int:
    k = state.knight
    at = (k.x, k.y) if k is not None else ENTRANCE
    dist = knight_distances(state, at)

    def far(pos: Pos) -> int:
        return min(dist.get(pos, abs(pos[0] - at[0]) + abs(pos[1] - at[1])), 30)

    match command:
        case cmd.RemoveTile(x=x, y=y):
            c = cell_at(state, (x, y))
            crystal = c is not None and c.tile != HIDDEN and tiles()[c.tile].kind == "crystal"
            return 2_000 + (1_000 if crystal else 0) + far((x, y))
        case cmd.PlaceTile(tile=tile, x=x, y=y):
            if tile != HIDDEN and tiles()[tile].kind == "crystal":
                return 500 + 10 * far((x, y))
            return 500 + 10 * (30 - far((x, y)))
        case cmd.PlaceTreasure(x=x, y=y):
            return 400 + 5 * far((x, y))
        case cmd.GiantBats(target="knight", x=x, y=y) if k is not None:
            targets = _target(state)
            gain = _distance_to(state, (x, y), targets) - _distance_to(state, at, targets)
            return 150 + 10 * min(gain, 10) if gain > 0 else 0
        case cmd.SoporificSpores():
            grit = k.grit if k is not None else 0
            return 300 if any(grit >= g and grit - 5 < g for g in GRIT_CUBES) else 30
        case cmd.VastEndTurn():
            return 1
    return 0


def goblins_score(state: VastState, command: Any) -> int:  # one rule per line
    from dicelog.domain.vast.rules import goblins as rules

    k = state.knight
    d = state.dragon
    at = (k.x, k.y) if k is not None else ENTRANCE
    if k is None and d is not None and d.x is not None and d.y is not None:
        at = (d.x, d.y)  # with no Knight, the Goblins hunt the Dragon (VF §7 Ash Dragon)
    crystals = [(c.x, c.y) for c in state.cells if c.crystal]
    if k is None and d is None and crystals:  # with neither, they smash Crystals (004 §I Goblin)
        mine = [(t.x, t.y) for t in state.goblins.tribes if t.x is not None] if state.goblins else []
        at = min(crystals, key=lambda p: min((_manhattan(p, q) for q in mine), default=0))
    match command:
        case cmd.TribeFlare():
            return 700 if not crystals else 100
        case cmd.ActivateTribe(action="attack", x=x, y=y) if (x, y) == at:
            return 5_000
        case cmd.ActivateTribe(action="attack"):
            return 1_500
        case cmd.ActivateTribe(action="plunder"):
            return 800
        case cmd.ActivateTribe(tribe=name, action="reveal", x=x, y=y):
            return 600 - 10 * min(abs(x - at[0]) + abs(y - at[1]), 40)
        case cmd.ActivateTribe(tribe=name, action="special"):
            gob = state.goblins
            if name == "fangs":
                return 400 if gob is not None and gob.rage < 3 else 0
            return 300
        case cmd.ActivateTribe(tribe=name, action="none", x=x, y=y) if x is not None and y is not None:
            t = rules.tribe(state, name)
            if t.x is None or t.y is None:
                return 5
            before = abs(t.x - at[0]) + abs(t.y - at[1])
            after = abs(x - at[0]) + abs(y - at[1])
            return 200 + 10 * (before - after) if after < before else 0
        case cmd.PlaySecret(card="hex"):
            return 450 if rules.tribe(state, "eye").population >= 2 else 0
        case cmd.PlaySecret(card="trap"):
            return 350
        case cmd.PlaySecret(card="hiding-spots"):
            return 4_000  # an attack on the Knight from hiding
        case cmd.PlaySecret(card="poison"):
            return 250
        case cmd.PlaySecret(card="goblin-ruby"):
            return 300
        case cmd.PlaySecret(card="cave-in"):
            return 150
        case cmd.WispMove(x=x, y=y):  # the Knight carried away from the Entrance
            return 650 + 10 * min(abs(x) + abs(y), 10)
        case cmd.VastEndTurn():
            return 1
    return 0


def _manhattan(a: Pos, b: Pos) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def dragon_goal(state: VastState) -> set[Pos]:
    """Where the Dragon heads: surfaced, the Entrance; awake, a Lit Crystal tile; asleep, a Treasure token
    (Greed), else a revealed Tribe (Hunger); empty: it keeps still (Pride)."""
    d = state.dragon
    if d is None:
        return set()
    if d.surfaced:
        return {ENTRANCE}
    if d.awake:
        return {(c.x, c.y) for c in state.cells if c.lit and tiles()[c.tile].kind == "crystal"}
    if d.sloth["greed"] and not d.held:
        found = {(c.x, c.y) for c in state.cells if c.treasure}
        if found:
            return found
    if d.sloth["hunger"] and state.goblins is not None:
        found = {(t.x, t.y) for t in state.goblins.tribes if not t.lurking}
        return {(x, y) for x, y in found if x is not None and y is not None}
    return set()


def dragon_score(state: VastState, command: Any) -> int:  # one rule per line
    d = state.dragon
    if d is None or d.x is None or d.y is None:
        return 1
    here = (d.x, d.y)
    goal = dragon_goal(state)

    def closer(to: Pos) -> int:
        if not goal:
            return -1
        before = min(_manhattan(here, g) for g in goal)
        after = min(_manhattan(to, g) for g in goal)
        return before - after

    tribes_near = 0
    if state.goblins is not None:
        tribes_near = sum(
            1
            for t in state.goblins.tribes
            if t.x is not None
            and t.y is not None
            and not t.lurking
            and max(abs(t.x - d.x), abs(t.y - d.y)) <= 1
        )
    dark_around = sum(1 for c in state.cells if not c.lit and max(abs(c.x - d.x), abs(c.y - d.y)) == 1)
    match command:
        case cmd.DragonCollect():
            return 2_000
        case cmd.MoveDragon(x=x, y=y):
            gain = closer((x, y))
            return 700 + 50 * gain if gain > 0 else 0
        case cmd.UsePower(power="wing", x=x, y=y) if x is not None and y is not None:
            gain = closer((x, y))
            return 500 + 50 * gain if gain > 0 and d.moved else 0
        case cmd.UsePower(power="hiss"):
            return 650 if d.sloth["hunger"] else 50
        case cmd.UsePower(power="scratch"):
            return 900
        case cmd.UsePower(power="claw"):
            return 600 if tribes_near else 0
        case cmd.UsePower(power="scorch"):
            return 300 + 60 * dark_around if d.sloth["pride-events"] else 40 * dark_around
        case cmd.UsePower(power="burn"):
            return 250 if d.sloth["pride-events"] and "pride" not in d.advanced else 10
        case cmd.UsePower(power="flame"):
            return 200 if dark_around else 0
        case cmd.UsePower(power="smash"):
            return 350
        case cmd.UsePower(power="shriek"):
            return 30
        case cmd.UsePower(power="slap"):
            return 80
        case cmd.UsePower(power="flame-wall"):
            return 60
        case cmd.PlaceGem():
            return 500 if any(c.gems for c in state.cells) else 300
        case cmd.VastEndTurn():
            return 1
    return 0


def choose(view: VastState, commands: Sequence[Any], rng: random.Random) -> Any:
    """The bot's command among ``commands`` (the seat's legal commands), reading only ``view``."""
    if not commands:
        raise ValueError("no legal command to choose from")
    score = {"knight": knight_score, "goblins": goblins_score, "dragon": dragon_score}.get(
        view.turn or "", cave_score
    )
    return max(commands, key=lambda c: (score(view, c), rng.random()))
