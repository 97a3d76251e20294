"""Readable bots for Vast's Knight, Goblins, Dragon, Cave and Thief (docs/vast/architecture.md, Bots): each
scores every legal command with a short list of rules, ties broken by a seeded jitter (haunt-roll-fail's
EvalBot idea, made reproducible).

A bot reads only its own seat's view: the state as ``GET /games/{id}/state`` serves it to that seat (Dark
tiles are ``"?"`` to the Knight), and its ``legal-commands``. The ruleset's ``bot``
(``dicelog.domain.core.ruleset``): bot seats, ``dicelog demo --game vast`` and the tests that play
whole games.
Pure: ties are broken by the ``rng`` passed in (seeded by the caller), never by a random source of its own.

Knight: she plans her turn (``knight_plan``): of every way to place her free Hero cubes, the one that lets her
reach and act on the best goal this turn (hit the Dragon, with the Bomb underground before the Collapse; smash
a Crystal; collect a Treasure token; reveal a Dark tile; her Crystals smashed without a Dragon, walk to the
Entrance, an Encounter for each Dark tile on the way and one for the last step; scatter a revealed Tribe by
entering its tile stronger; kill the Thief on his tile, her Perception above his Stealth, worth more the more
he carries: he drops it and she gains Grit), else the one that brings her nearest it; each attack the
revealed Tribes may make on her in the Goblins' next turn costs the plan (they
attack only stronger than her Strength, after their War card's discs, weakened by the Lit tiles they cross),
so she keeps Strength, distance, or shoots the strongest with the Bow; the Shield counts against forced moves.
With the Goblins, the Dragon and the Thief in play and no Cave (``hunt_goals``: she wins only by killing the
Dragon, and the Tribes take her Health, so her Hero cubes, while the Thief stashes), she also plans an attack
on the Dragon at Strength equal to its Armor (the Dragon die's center hit, 3 in 6), worth less than one above
it. With the Goblins, the Dragon and the Thief in play, with or without the Cave (``knight_decide``), she
declines every Treasure card for 5 Grit (Vast rulebook §Tesori e Gemme): Grit is her next Hero cubes, and a
card takes a cube of its own.
Against the Goblins with no Cave and no Dragon (``racing``: the stack is her clock) an attack costs less while
her Health is above 5, a tile of her way more, the Shield nothing.
Alone in the Dark (``solo_knight``: the stack is her clock, and every Dark tile she reveals fills its open
sides from it), each tile a goal's way would draw so costs her plan ``SOLO_FILL`` (``ways``), and of
the steps that bring her nearer her goal she takes the Lit ones first, then the Dark ones that draw fewest.
Where she holds Flare, she lights it first in her turn, before her cubes, over the Dark tiles nearest her,
each empty space next to them (a side it fills from the stack, the Collapse's clock) against it
(``flare_score``). Then: complete a Sidequest; smash a Crystal; attack the Dragon; shoot with the Bow; collect
Treasure; walk toward the plan's goal; end the turn.

The Goblins' and the Dragon's rules are tables from a command's kind to a score (``scored``).

Goblins: attack what they hunt (the Knight; without her the Dragon; without both a Crystal, two Tribes of
Strength 3 on one Crystal in one turn, the first only when a second one's attack there is legal, Vast rulebook
§I Goblin); plunder; reveal near it; the Tribes' specials; step toward it; play Secrets; carry the Knight away
with the Wisp. Hunting Crystals they flare only with no Crystal on the map, plunder last, and keep the War
card that brings the most Tribes to Strength 3. Hunting them with no Cave in play either (``_pack``): a Tribe
moves only nearer the hunted Crystal, whatever its action, onto its tile when it could attack there but no
second Tribe could (to wait there for one); they block the discs that would overpopulate a Tribe while a
Rage is left, and an overpopulation scatters Leader, else the weakest revealed Tribe; a tile they reveal
faces the fewest open sides with no tile beyond (each is filled from the stack, whose end starts the
Collapse), and Cave-In, played before the Collapse, takes Lit tiles that are not Crystal tiles (they go back
under the stack; a Dark tile may be a Crystal tile, which counts toward the 5). Alone in the Dark (the end of
turn's count is the largest of the Crystal tiles revealed and the largest Population, docs/vast/facts.md §7
Variant cards), the War card and the block keep Populations no larger than the Strength 3 they need, the
end of turn's Dark tile goes where it touches the most tiles, and in the Collapse with no Crystal token on
the map a Tribe moves where its next Flare reveals the most Dark tiles no other Tribe's covers
(``_flare_spot``). Hunting them with the Cave and the Thief in play (``_robbers``), a Tribe that sees the
Thief kills him when he carries 2 loot or more, or enough to win on stashing it (he drops it, Vast rulebook
§Attaccare il Ladro), and a Treasure token is plundered before anything but a Crystal.

Dragon: collect Treasure (Greed); Scratch, Hiss and Claw on Tribes (Hunger); reveal with Scorch, Burn and
Flame (Pride); place a Gem, with the Thief in play none near the Entrance when the Knight or the Cave plays
too, with neither the Goblins nor the Knight none near him, with the Goblins only while it may earn the
Pride-Gem cube (``_dragon_gem``); with the Goblins and the Thief, Hiss the Tribe strong enough to attack
it (Ash Dragon card) or, with the Cave too, the Knight near her (``_dragon_hiss``); hunted by the Goblins
beside the Thief (``wary``: the Ash Dragon card, the Goblins and the Thief in play), it reckons each revealed
Tribe's chance to attack it on each tile in the Goblins' next turn (``dragon_danger``: over the War cards'
discs, less those its way over Lit tiles costs, Strength above its Armor), a move or Wing is worth the
attacks it escapes (more the less Health it has), and Hiss, Scratch and Claw on the Tribes that threaten its
tile come before collecting Treasure, which ends its Powers; slither a Hunger cube it
cannot spend (no Tribes) onto an empty Pride track; move toward Treasure, Tribes, the Thief when he carries
loot or has stashed 3 (Scratch kills him there, and he drops what he carries), then, awake, a Lit Crystal tile
to surface on, then the Entrance (by its way over Lit tiles, the Wing across a wall that bars it, before its
move too); keep still when nothing calls it (Pride); end the turn. Alone in the Dark (no other role in play;
its Collapse comes once the stack is empty, and revealed Crystal tiles collapse first): asleep it keeps still
on the Entrance, slithering a cube (Hunger, then Events, the Gem track, Greed) onto the empty Pride-still
track before placing a Gem, so that a Pride cube moves every turn; it moves only onto a Treasure token, swats
one next to it onto its tile; it reveals no Dark tile below 7 Wakefulness (each revealed tile fills its open
sides from the stack), from there Burn nearest the Entrance first; awake, it heads for the Lit Crystal tile
with the shortest Lit way home.

Cave: it wins only in the Collapse (5 Crystal tiles removed, Vast rulebook §Il Collasso). Against the Goblins,
the Thief or the Dragon, who win sooner, it races for it; with the Knight in play and no Dragon (she needs
time for her 5 Crystals and the way home) only once the Thief has 5 Treasures stashed and carried or the stack
is empty, and alone against the Knight, or against the Goblins hunting Crystals (with the Thief, before he is
near his win), not before the stack is empty: Hatred places another tile each turn while its Omens last, and
in the Collapse removes more; it removes the tiles next to Crystal tiles (each leaves a Crystal tile touching
fewer, nearer its turn) and places its Crystal tiles (its own turn, and the open edges it fills) touching few
tiles; alone against the Thief, where Place Treasure is optional (docs/vast/facts.md §7), it places no
Treasure token (each is one only he would take); alone against the Dragon, it spends Soporific Spores on the
Dragon while it is asleep and 3 cubes or fewer from waking (awake, it surfaces and walks home before the
Collapse); with the Goblins and the Dragon alone (the Goblins win by killing the Dragon), it lays its
Rockslides on an edge of the Dragon's tile that lengthens the nearest Tribe's way to it (one within 4 tiles;
Vast rulebook §Presagi, Frana); with the Dragon and the Thief and no Goblins (with the Knight, once he has
stashed 3), on the Entrance's edges, one left open (he climbs a wall to stash loot, §Il Ladro); with the
Goblins, the Dragon and the Thief and no Knight (``hunted``: the Goblins kill the Dragon, the Thief stashes 6,
both long before the stack is empty), it lays its Rockslides on the sides of the Dragon's tile, more for each
revealed Tribe one keeps off (``seal``; with none in its supply it moves one lying elsewhere), Giant Bats
carry a Tribe that could walk onto that tile stronger than its Armor to where it cannot (``menaces``) and a
Treasure token near the Thief farther from him and the Entrance, Crystal Curse turns a Lit tile so that sides
with no tile beyond open, each filled from the stack at once (``rotation_fills``), Soporific Spores go on the
Dragon as alone against it, and its other tiles go far from the Dragon (a Dark tile near it is where a Tribe
is revealed to attack it). Always: it
removes Crystal tiles first; it places Crystal tiles far from the Knight, other tiles near her path; Treasure
tokens far from her (more tokens on the map, more Omens), and with the Thief in play far from the Entrance,
where he stashes them. With the Goblins in play (they win if the Knight dies before the Collapse) it shields
her: Giant Bats carry the Tribes near her away, Soporific Spores on the Goblins when every Tribe has 3 discs
or more, never on her; otherwise Soporific Spores when she can lose a cube, or on a Thief with Upgrades, and
Giant Bats carry her away from what she walks to (with the Thief in play and no Dragon, neither on her until
she has smashed 3 Crystals: the Thief is the one near winning); end the turn.

Thief: loot a Treasure token on his tile, a Gem with 2 cubes; Pick Lock with 2 cubes; Pickpocket when his
Stealth allows; walk (Dark tiles too) toward the nearest Treasure token, Vault, Gem or target he can rob,
carrying loot back to the Entrance to stash it (loot taken on the Entrance: a step off and back, as only
entering it stashes); climb a wall when it is the way; look at the Dark tile he ends his movement on; Hide
Loot with spare cubes; end the turn. His decisions (``decide``): Stat tokens on
Movement when far from his goal, on Thievery once it is in reach; reveal a Dark tile he looked at when it is a
Treasure Room or a Vault; Upgrades in a fixed order. With the Knight and the Goblins alone (``thief_hunted``:
both kill him on his tile when their Perception beats his Stealth, each token carried -1), he carries one
token home at a time and puts Stealth before Thievery once Movement reaches his goal.

Without a Cave player (everyone loses once 5 Crystal tiles have collapsed), every role removes the Collapse's
tiles with ``collapse_choice``: of the tiles the order allows, a Lit one before a Dark one it cannot see, none
next to a Crystal tile where it can.

Decisions (a game with ``decision_policy: ask``): ``decide`` answers the Thief's with his rules, the
Goblins' War card with theirs when they hunt Crystals, the Cave's open edges (``fill``) with its placing
rule, and every other with its documented default.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.cave import (
    ENTRANCE,
    OPPOSITE,
    SIDES,
    Geometry,
    Pos,
    edge,
    edge_walled,
    parse_pos,
    step,
    tile_walls,
)
from dicelog.domain.vast.content import goblin_file, tiles
from dicelog.domain.vast.rules import goblins as rules
from dicelog.domain.vast.rules.common import (
    GRIT_CUBES,
    STAT_SLOTS,
    cell_at,
    crystal_tiles_counted,
    cubes_on,
    dragon_armor,
    free_cubes,
    geometry,
    movement,
    perception,
    strength,
    the_knight,
)
from dicelog.domain.vast.rules.flow import agreed_crystals
from dicelog.domain.vast.rules.thief import (
    climb_cost,
    pick_lock_cost,
    pickpocket_options,
    target_at,
    target_perception,
)
from dicelog.domain.vast.state import (
    HIDDEN,
    TRIBES,
    DragonRole,
    KnightRole,
    ThiefRole,
    VastState,
    thief_stat,
    thief_stealth,
    wakefulness,
)

if TYPE_CHECKING:
    import random

FAR = 1_000
THIEF_NEAR = 5
"""With the Knight in play and no Dragon, the Cave races for the Collapse only once the Thief's Treasures,
stashed and carried, are this many or more (``CaveContext.race``)."""
KNIGHT_NEAR = 3
"""With the Knight and the Thief in play and no Dragon, the Cave hinders her (Giant Bats, Soporific Spores)
only once she has smashed this many Crystals (``CaveContext.spare_knight``)."""


def decode_state(raw: dict[str, Any]) -> VastState:
    """The state document of ``GET /games/{id}/state`` as a ``VastState``."""
    return msgspec.convert(raw, VastState, strict=False)


def knight_distances(state: VastState, start: Pos) -> dict[Pos, int]:
    """Tiles from ``start`` to every tile the Knight can walk to (walls block; Dark tiles may be entered)."""
    return _walk(geometry(state), {start: 0})


def _walk(
    g: Geometry,
    seen: dict[Pos, int],
    *,
    within: set[Pos] | None = None,
    shut: frozenset[tuple[Pos, str]] = frozenset(),
) -> dict[Pos, int]:
    """``seen`` (tiles and their distance, the starts at 0) grown by a breadth-first walk: every tile reached
    through open sides, walls blocking, Dark tiles entered; only the tiles ``within`` when given (default:
    every tile of ``g``), and ``shut`` sides (``(tile, side)``) blocking as walls do."""
    tiles = g.cells if within is None else within
    queue = deque(seen)
    while queue:
        here = queue.popleft()
        for side in SIDES:
            there = step(here, side)
            if (
                there in tiles
                and there not in seen
                and (here, side) not in shut
                and not g.wall_between(here, side)
            ):
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


PLAN_TARGETS = (
    "heroic-boots",
    "pixie-lantern",
    "elven-sword",
    "mighty-axe",
    "movement",
    "perception",
    "strength",
    "bomb",
    "shield",
    "bow",
)
"""Where the Knight's planner may put this turn's free Hero cubes (Vast rulebook §Cubetti Eroe; §Tesori;
§Equipaggiamento, Arco: the Bow last, so that the Strength it shoots with is placed first)."""


class Goal(NamedTuple):
    """A tile the Knight may head for this turn: its moves and Dark tiles entered on the way (``ways``), the
    Encounter and Strength acting there takes, and what doing it is worth."""

    pos: Pos
    moves: int
    dark: int
    strength: int
    bomb: bool
    worth: int
    scatters: str | None = None
    """The Tribe she attacks there (it scatters: Vast rulebook §Interagire con i Goblin)."""
    sight: int = 0
    """The Perception acting there takes (the Thief: above his Stealth, Vast rulebook §Interagire con il
    Ladro); 0: none."""
    fills: int = 0
    """Alone in the Dark, the Knight alone (``solo_knight``): the tiles the Dark tiles of her way would draw
    from the stack on their reveal (``ways``); 0 in every other row."""


def ways(state: VastState, start: Pos) -> dict[Pos, tuple[int, int, int]]:
    """From ``start``, every tile the Knight can walk to by open sides: (moves, Dark tiles entered, the tiles
    their reveals draw from the stack), fewest moves first, then fewest Dark tiles (each Dark tile she enters
    is an Encounter, Vast rulebook §2. Muovi e Agisci), then fewest tiles drawn. The last counts only for the
    solo Knight (``solo_knight``: a revealed tile fills its open sides from the stack, the Collapse's clock,
    Vast rulebook §Rivelare e risolvere le tessere Buie); 0 elsewhere. Tiles of Tribes she is not stronger
    than, and the surfaced Dragon's, end a way."""
    g = geometry(state)
    dark = {(c.x, c.y) for c in state.cells if not c.lit}
    fill = {p: _empty_around(g.cells, p) for p in dark} if solo_knight(state) else {}
    blocked = {
        (t.x, t.y)
        for t in (state.goblins.tribes if state.goblins else ())
        if t.x is not None and t.y is not None
    }
    best: dict[Pos, tuple[int, int, int]] = {start: (0, 0, 0)}
    frontier = [start]
    while frontier:
        nxt: list[Pos] = []
        for here in frontier:
            m, dk, f = best[here]
            if here != start and here in blocked:
                continue
            for side in SIDES:
                there = step(here, side)
                if there not in g.cells or g.wall_between(here, side):
                    continue
                cost = (m + 1, dk + (1 if there in dark else 0), f + fill.get(there, 0))
                if there not in best or cost < best[there]:
                    if there not in best:
                        nxt.append(there)
                    best[there] = cost
        frontier = nxt
    return best


def solo_knight(state: VastState) -> bool:
    """Alone in the Dark with the Knight the only role (docs/vast/facts.md §7 Solo): the stack is her clock.
    At the end of her turn it places as many Dark tiles as the largest of her Hero cubes and the Crystal tiles
    revealed, and once it is empty the Collapse's first turn removes her revealed Crystal tiles first: she
    loses. Every Dark tile she reveals also fills its open sides from the stack."""
    return "alone-in-the-dark" in state.variants and state.roles == ("knight",)


def _empty_around(cells: AbstractSet[Pos], pos: Pos) -> int:
    """The empty spaces next to ``pos``: the tiles its reveal would draw from the stack to fill them."""
    return sum(1 for side in SIDES if step(pos, side) not in cells)


def knight_goals(state: VastState) -> list[Goal]:
    """What the Knight may do this turn, by the Vast rulebook §Il Cavaliere, Come Vincere: hit the Dragon
    (with the Bomb underground before the Collapse), smash a Crystal (Strength 3; +2 Grit, her next Hero
    cubes), collect a Treasure token, kill the Thief on his tile (worth more the more he carries; her
    Perception above his Stealth, Vast rulebook §Interagire con il Ladro), and, her Crystals smashed without a
    Dragon in play, walk to the Entrance."""
    k = the_knight(state)
    reach = ways(state, (k.x, k.y))
    out: list[Goal] = []
    d = state.dragon
    needed = agreed_crystals(state) or 5
    if d is not None and d.x is not None and d.y is not None and d.health > 0 and (d.x, d.y) in reach:
        armor = dragon_armor(state)
        bomb = not d.surfaced and not state.collapse
        if not (bomb and (k.bombs <= 0 or k.bomb_used)) and not k.dragon_attacks:
            m, dk, _ = reach[(d.x, d.y)]
            out.append(Goal((d.x, d.y), m, dk, armor + 1, bomb, 20_000 + 1_000 * (5 - d.health)))
    if d is None and k.smashed >= needed:
        m, dk, _ = reach.get(ENTRANCE, (FAR, FAR, 0))
        # her last step onto the Lit Entrance takes an Encounter left after one for each Dark tile on the way
        # (Vast rulebook §2. Muovi e Agisci: she moves only with an Encounter left), in every row
        out.append(Goal(ENTRANCE, m, dk + 1, 0, False, 50_000))
    out += tribe_goals(state, reach)
    th = state.thief
    if th is not None and th.x is not None and th.y is not None and (th.x, th.y) in reach:
        # killed, he drops what he carries and she gains Grit by his Loot Drop (Vast rulebook §Interagire con
        # il Ladro; §Il Ladro, Morire)
        m, dk, _ = reach[(th.x, th.y)]
        worth = 3_000 + 2_000 * (th.carried + len(th.gems))
        out.append(Goal((th.x, th.y), m, dk, 0, False, worth, sight=thief_stealth(th) + 1))
    for c in state.cells:
        pos = (c.x, c.y)
        if pos not in reach:
            continue
        m, dk, _ = reach[pos]
        if c.crystal and (d is not None or k.smashed < needed):
            out.append(Goal(pos, m, dk, 3, False, 10_000))
        if c.treasure:
            out.append(Goal(pos, m, dk, 0, False, 4_000))
        if not c.lit:  # revealing it may bring a Crystal, a Treasure; and Grit
            out.append(Goal(pos, m, dk, 0, False, 1_000))
    if solo_knight(state):  # alone, the tiles her way's reveals draw from the stack (``SOLO_FILL``)
        out = [g._replace(fills=reach[g.pos][2]) if g.pos in reach else g for g in out]
    return out


def tribe_goals(state: VastState, reach: Mapping[Pos, tuple[int, int, int]]) -> list[Goal]:
    """The revealed Tribes she may enter and scatter this turn (Vast rulebook §Interagire con i Goblin: she
    enters a Tribe's tile only stronger, Trap +1 to it; it scatters). Worth nothing of its own: what it
    is worth is the attack it spares her (``Threats``)."""
    gob = state.goblins
    trap = 1 if gob is not None and "trap" in gob.face_up else 0
    out: list[Goal] = []
    for t in gob.tribes if gob is not None else ():
        if rules.on_map(t) and t.population > 0 and (t.x, t.y) in reach:
            m, dk, _ = reach[(t.x, t.y)]  # type: ignore[index]
            need = rules.tribe_strength(state, t) + trap + 1
            out.append(Goal((t.x, t.y), m, dk, need, False, 0, t.name))  # type: ignore[arg-type]
    return out


RACE_HIT = 600
"""What an attack of the Tribes costs her plan while she races the stack (``racing``), her Health above
``RACE_HEALTH``."""
RACE_HEALTH = 5
"""Racing, she trades her Health above this for time (``RACE_HIT``): an attack or two of her 7."""
RACE_TILE = 150
"""What a tile still between her and her goal costs her plan while she races the stack (50 otherwise)."""


def racing(state: VastState) -> bool:
    """The Knight against the Goblins with no Dragon and no Cave (``knight-vs-goblins``, with the Thief too),
    her Crystals not all smashed: each player places a Dark tile at the end of the turn (Vast rulebook
    §Varianti, no Cave player), everyone loses in the Collapse and the Goblins win only by killing her
    (docs/vast/facts.md §7), so she trades Health for time: a Tribe's attack costs her plan ``RACE_HIT``
    while her Health is above ``RACE_HEALTH``, a tile ``RACE_TILE``, and the Shield nothing."""
    needed = agreed_crystals(state) or 5
    return (
        "goblins" in state.roles
        and state.dragon is None
        and state.cave is None
        and the_knight(state).smashed < needed
    )


class Threats:
    """The revealed Tribes that may attack the Knight in the Goblins' next turn (Vast rulebook §I Goblin,
    Attaccare: a Tribe enters her tile only stronger than her; §5. Attiva le Tribù: it loses 1 disc for
    every 2 Lit tiles it leaves on the way, so a far Tribe arrives weaker), read once per plan."""

    def __init__(self, state: VastState) -> None:
        k = the_knight(state)
        gob = state.goblins
        # their turn first turns Rage 0 to 1 (no Malaise then) and populates: up to 3 discs a Tribe, at most
        # 4 (§1. Carta Guerra, §2. Popolare); about 2 are counted
        malaise = 1 if gob is not None and gob.rage == 0 else 0
        self.tribes = [
            (
                t,
                rules.tribe_strength(state, t) + min(2, 4 - t.population) + malaise,
                knight_distances(state, (t.x, t.y)),  # type: ignore[arg-type]
            )
            for t in (gob.tribes if gob is not None else ())
            if rules.on_map(t) and t.population > 0
        ]
        strongest = max(self.tribes, key=lambda p: p[1], default=None)
        self.bow_target = strongest[0].name if strongest is not None else None
        """The Tribe the Bow shoots (``bow_score``: the strongest)."""
        self.hit = 5_000 + 1_000 * max(0, 4 - k.health)
        """What one attack on her costs the plan: a Health of her 7 (Goblins win at 0); ``RACE_HIT`` while she
        races the stack with her Health above ``RACE_HEALTH`` (``racing``)."""
        if racing(state) and k.health > RACE_HEALTH:
            self.hit = RACE_HIT

    def cost(self, end: Pos, guard: int, shot: int, scattered: str | None) -> int:
        """What the attacks she may suffer on ``end`` with Strength ``guard`` cost, after the Bow shot
        ``shot`` discs off ``bow_target`` and she scattered ``scattered``."""
        total = 0
        for t, power, dist in self.tribes:
            if t.name == scattered:
                continue
            if t.name == self.bow_target and shot:
                if shot >= t.population:
                    continue
                power -= shot
            if power - max(0, dist.get(end, FAR) - 1) // 2 > guard:
                total += self.hit
        return total


def _allocations(k: KnightRole, free: int, bow: bool = False) -> list[dict[str, int]]:
    room = {
        t: STAT_SLOTS[t] - cubes_on(k, t) for t in ("movement", "perception", "strength", "bomb", "shield")
    }
    room["bomb"] = min(room["bomb"], 1 if k.bombs > 0 and not k.bomb_used else 0)
    room["bow"] = 1 if bow and not cubes_on(k, "bow") and not k.bow_used else 0
    for card in PLAN_TARGETS[:4]:
        room[card] = 1 if card in (*k.treasures, *k.face_up) and not cubes_on(k, card) else 0
    out: list[dict[str, int]] = []

    def grow(i: int, left: int, chosen: dict[str, int]) -> None:
        if i == len(PLAN_TARGETS):
            out.append(dict(chosen))
            return
        t = PLAN_TARGETS[i]
        for n in range(min(left, room.get(t, 0)) + 1):
            chosen[t] = n
            grow(i + 1, left - n, chosen)
        chosen.pop(t, None)

    grow(0, free, {})
    return out


SOLO_FILL = 80
"""Alone in the Dark with the Knight alone (``solo_knight``): what each tile a goal's way would draw from the
stack (the Dark tiles' empty sides, ``ways``) costs her plan: more than a tile of her way (50)."""


def knight_plan(state: VastState) -> tuple[dict[str, int], Goal | None]:
    """The Knight's turn, planned from her view: the free Hero cubes to place (by target) and the goal they
    serve. The best goal she can reach and act on this turn (Movement for its moves, Perception for its Dark
    tiles and one more Encounter, Strength for the act); with none, the cubes that bring her nearest the best
    goal, her Strength left for her next turn."""
    k = the_knight(state)
    free = free_cubes(k)
    goals = knight_goals(state)
    goals += hunt_goals(state, goals)
    # the Shield stops the moves other players force on her: Giant Bats, Claw, Slap, the Wisp (Vast rulebook
    # §Equipaggiamento, Scudo), worth about two tiles of her way
    shield = 120 if {"cave", "dragon", "goblins"} & set(state.roles) else 0
    per_tile = 50
    if racing(state):  # the stack is her clock; without a Cave or a Dragon only the Wisp moves her
        shield, per_tile = 0, RACE_TILE
    # a Tribe attacks her only stronger than her Strength off her turn (Vast rulebook §I Goblin, Attaccare):
    # the Strength cubes she ends her turn with keep the Tribes it matches off her, each worth a few tiles
    threats = Threats(state)
    here = (k.x, k.y)
    fill_cost = SOLO_FILL if solo_knight(state) else 0
    best: tuple[int, dict[str, int], Goal | None] = (-FAR, {}, None)
    for extra in _allocations(k, free, bool(threats.tribes)):
        placed = dict(k.placed)
        for t, n in extra.items():
            if n:
                placed[t] = placed.get(t, 0) + n
        trial = msgspec.structs.replace(k, placed=placed)
        moves = movement(trial) - k.moves
        encounters = perception(trial) - k.encounters
        power = strength(trial, True)
        used = sum(extra.values()) - (shield if extra.get("shield") else 0)
        guard = strength(trial, False)
        shot = power - 1 if extra.get("bow") else 0
        for goal in goals:
            bomb_ok = not goal.bomb or placed.get("bomb", 0) > 0
            act = 1 if goal.strength or goal.sight else 0
            seen = perception(trial) >= goal.sight
            if (
                moves >= goal.moves
                and encounters >= goal.dark + act
                and power >= goal.strength
                and bomb_ok
                and seen
            ):
                value = goal.worth - 10 * goal.moves - used
                value -= threats.cost(goal.pos, guard, shot, goal.scatters)
            else:
                walked = min(moves, goal.moves) if encounters > 0 or goal.dark == 0 else 0
                value = (
                    goal.worth // 10
                    - per_tile * (goal.moves - walked)
                    - used
                    + (5 if power >= goal.strength else 0)
                )
                value -= threats.cost(here, guard, shot, None)
            value -= fill_cost * goal.fills
            if value > best[0]:
                best = (value, extra, goal)
    return {t: n for t, n in best[1].items() if n}, best[2]


def dragon_hunt(state: VastState) -> bool:
    """The Goblins, the Dragon and the Thief all in play with the Knight: she wins only by killing the Dragon
    (docs/vast/facts.md §7 Win conditions), and the Goblins or the Thief win first unless she hurries."""
    return state.goblins is not None and state.dragon is not None and state.thief is not None


def _gamble(state: VastState) -> bool:
    """``hunt_goals``' rows: ``dragon_hunt`` and no Cave player (with the Cave too, the gambles cost her more
    Health than they take from the Dragon: traced 50 games, bench/README.md §8)."""
    return dragon_hunt(state) and "cave" not in state.roles


HUNT_GAMBLE = 3_000
"""What an attack on the Dragon at Strength equal to its Armor is worth less than one above it
(``hunt_goals``: the Dragon die hits the center 3 times in 6)."""


def hunt_goals(state: VastState, goals: Sequence[Goal]) -> list[Goal]:
    """With the Goblins, the Dragon and the Thief in play and no Cave (``_gamble``), the attacks on the
    Dragon of ``goals`` (``knight_goals``: Strength above its Armor) again at Strength equal to its Armor:
    the Dragon die then hits on a center face, 3 in 6 (Vast rulebook §Attaccare il Drago). The Tribes take
    her Health, and with it her Hero cubes, and the Goblins or the Thief win before she can spend 4 or 5
    cubes a hit."""
    d = state.dragon
    if not _gamble(state) or d is None:
        return []
    armor = dragon_armor(state)
    return [
        g._replace(strength=armor, worth=g.worth - HUNT_GAMBLE)
        for g in goals
        if g.pos == (d.x, d.y) and g.strength == armor + 1 and armor > 0
    ]


def documented_default(options: Sequence[str], default: object) -> str:
    """A decision's documented default (``pending["default"]``) when it is one of ``options``, else the first
    option: every bot's answer where its role's rules say nothing."""
    return default if isinstance(default, str) and default in options else options[0]


def knight_decide(view: VastState, decision: str, options: Sequence[str], default: str | None) -> str:
    """The Knight's decisions: with the Goblins, the Dragon and the Thief in play (``dragon_hunt``), she
    declines every Treasure card for 5 Grit (decision ``keep-treasure``, Vast rulebook §Tesori e Gemme): Grit
    brings her Hero cubes (§Coraggio), and with 2 or 3 of them she cannot both reach the Dragon and hit it
    (a card needs a cube of its own too); every other decision, and every other row, the documented
    default."""
    if decision == "keep-treasure" and "decline" in options and dragon_hunt(view):
        return "decline"
    return documented_default(options, default)


def _target(state: VastState, plan: tuple[dict[str, int], Goal | None] | None = None) -> set[Pos]:
    k = the_knight(state)
    _, goal = knight_plan(state) if plan is None else plan
    if goal is not None:
        return {goal.pos}
    if k.smashed >= (agreed_crystals(state) or 5):
        return {ENTRANCE}
    return {(c.x, c.y) for c in state.cells if not c.lit}


def _distance_to(state: VastState, pos: Pos, targets: set[Pos]) -> int:
    dist = knight_distances(state, pos)
    return min((dist[t] for t in targets if t in dist), default=FAR)


def knight_cube_score(
    state: VastState, target: str, wish: dict[str, int], crystal_here: bool, on_dragon: bool
) -> int:
    """A Hero cube on ``target``'s score for the Knight (Vast rulebook §Cubetti Eroe): the plan's cubes first
    (``wish``, by ``PLAN_TARGETS``' order: the Bow's last, after the Strength it shoots with); without a
    plan, Strength on the Dragon's tile or to smash a Crystal, the Potion Kit when hurt, the Treasure cards,
    Movement, Perception, the Shield."""
    k = the_knight(state)
    if wish:
        return 1_200 + 10 * (len(PLAN_TARGETS) - PLAN_TARGETS.index(target)) if target in wish else 0
    d = state.dragon
    if target == "bomb" and on_dragon and d is not None and not d.surfaced:
        return 850
    if target == "strength" and on_dragon:
        return 880
    done = alone(state) and k.smashed >= (agreed_crystals(state) or 5)  # alone, home is all that is left
    if (
        target == "strength"
        and strength(k, True) < 3
        and not done
        and (crystal_here or any(c.crystal for c in state.cells))
    ):
        return 900 if crystal_here else 700
    by_target = {
        "potion-kit": 950 if k.health <= 4 else 0,
        "elven-sword": 800,
        "heroic-boots": 800,
        "pixie-lantern": 800,
        "movement": 600 - 100 * cubes_on(k, "movement"),
        "perception": 550 - 100 * cubes_on(k, "perception"),
        "shield": 150 if k.grit >= GRIT_CUBES[0] else 0,
    }
    return by_target.get(target, 0)


def bow_score(state: VastState, tribe: str) -> int:
    """Shooting ``tribe`` with the Bow (Vast rulebook §Equipaggiamento, Arco: it loses her Strength - 1
    discs): the strongest Tribe first, one the shot scatters above all; 0 when the shot takes no disc."""
    k = the_knight(state)
    t = rules.tribe(state, tribe)
    loss = min(t.population, strength(k, True) - 1)
    if loss <= 0:
        return 0
    return 2_200 + 20 * rules.tribe_strength(state, t) + (10 if loss >= t.population else 0)


FLARE_REACH = 12
"""A Dark tile this many tiles or more from the Knight adds least to her Flare (``flare_score``)."""
FLARE_FILL = 5
"""What a Flare loses for each empty space next to a Dark tile it may reveal (``flare_score``)."""


def flare_score(state: VastState, center: Pos) -> int:
    """Flare on ``center`` (docs/vast/facts.md §7 Variant cards: once a turn, anywhere, no Encounter; the
    Dragon die rolled round it hits each tile of the 3x3 square in 3 faces of 6). First in her turn, before
    her Hero cubes, so that her plan sees what it reveals (a Crystal, a Treasure token; Lit tiles she then
    crosses without an Encounter; a tile revealed from afar plays no Event or Ambush on her, Vast rulebook
    §Rivelare e risolvere le tessere Buie), over the Dark tiles nearest her, each worth more the nearer. But
    each revealed tile fills its open sides from the stack, the clock of the Collapse the Cave races for:
    every empty space next to a Dark tile costs the Flare, and with nothing left it is not lit (0, below
    ending the turn)."""
    k = the_knight(state)
    dist = knight_distances(state, (k.x, k.y))
    cells = {(c.x, c.y) for c in state.cells}
    worth = 0
    for c in state.cells:
        if not c.lit and abs(c.x - center[0]) <= 1 and abs(c.y - center[1]) <= 1:
            empty = _empty_around(cells, (c.x, c.y))
            worth += max(1, FLARE_REACH - dist.get((c.x, c.y), FLARE_REACH)) - FLARE_FILL * empty
    return 5_000 + worth if worth > 0 else 0


SOLO_STEP = 3
"""Alone, what each tile a step's reveal would draw from the stack costs the step (``_solo_step_fill``)."""


def _solo_step_fill(state: VastState, to: Pos) -> int:
    """Alone in the Dark with the Knight alone (``solo_knight``), of the steps that bring her nearer her
    goal, the Lit ones first, then the Dark ones whose reveal draws fewest tiles from the stack (the
    Collapse's clock): ``SOLO_STEP`` for each; 0 in every other row."""
    if not solo_knight(state):  # every other row: nothing to look up for each step scored
        return 0
    cell = cell_at(state, to)
    if cell is None or cell.lit:
        return 0
    return SOLO_STEP * (1 + _empty_around({(c.x, c.y) for c in state.cells}, to))


def knight_score(
    state: VastState, command: Any, plan: tuple[dict[str, int], Goal | None] | None = None
) -> int:
    """``command``'s score for the Knight; ``plan``: ``knight_plan(state)`` when already made (``choose``
    makes it once for every command)."""
    k = the_knight(state)
    here = (k.x, k.y)
    if plan is None and isinstance(command, (cmd.PlaceHeroCube, cmd.MoveKnight)):
        plan = knight_plan(state)
    d = state.dragon
    match command:
        case cmd.PlaceHeroCube(target=target):
            cell = cell_at(state, here)
            on_dragon = d is not None and (d.x, d.y) == here
            wish = plan[0] if plan is not None else {}
            return knight_cube_score(state, target, wish, cell is not None and cell.crystal, on_dragon)
        case cmd.CompleteSidequest():
            return 10_000
        case cmd.SmashCrystal() if alone(state) and k.smashed >= (agreed_crystals(state) or 5):
            return 0  # alone with her Crystals smashed: home before the stack runs out (the Collapse)
        case cmd.SmashCrystal():
            return 3_000
        case cmd.AttackThief():  # legal only on his tile with her Perception above his Stealth
            return 2_600
        case cmd.AttackDragon(bomb=False):
            return 2_500
        case cmd.AttackDragon(bomb=True):
            return 2_400
        case cmd.UseBow(tribe=tribe):
            return bow_score(state, tribe)
        case cmd.CollectTreasure():
            return 1_000
        case cmd.MoveKnight(x=x, y=y):
            targets = _target(state, plan)
            before = _distance_to(state, here, targets)
            after = _distance_to(state, (x, y), targets)
            if after >= before:
                return 20 if (x, y) not in k.spaces else 5
            return 500 - min(after, 50) - _solo_step_fill(state, (x, y))
        case cmd.UseFlare(x=x, y=y):
            return flare_score(state, (x, y))
        case cmd.VastEndTurn():
            return 1
    return 0


class CaveContext:
    """What the Cave's bot reads once per choice: the Knight's tile and the tiles' distances from it; the
    Crystal tiles (it sees the Dark ones); whether it shields the Knight from the Goblins (``protect``); the
    Knight's goal (``_target``) and the distances to it, only when a Giant Bats command asks for them."""

    def __init__(self, state: VastState) -> None:
        k = state.knight
        self.state = state
        self.at = (k.x, k.y) if k is not None else ENTRANCE
        self.dist = knight_distances(state, self.at)
        self.crystal_tiles = {
            (c.x, c.y) for c in state.cells if c.tile != HIDDEN and tiles()[c.tile].kind == "crystal"
        }
        # the Cave wins only once the Collapse has begun (Vast rulebook §Il Collasso): against the Goblins
        # hunting the Dragon or Crystals, the Thief or the Dragon (surfaced, it walks home), who win sooner,
        # it races for it; with the Knight in play and no Dragon (she smashes 5 Crystals and walks home)
        # only once the Thief is near his win (``thief_near``) or the stack is empty (the Collapse is near
        # anyway): racing from the start, it left her 0-1 of 50 in knight-goblins-cave, knight-cave-thief and
        # knight-goblins-cave-thief, her Crystals smashed 0-1 by the Collapse; alone against the Knight it
        # never races (it won every game so)
        # against the Goblins hunting Crystals, who smash one every other round at best, it does not race
        # either before the Thief, if he plays, is near his win: racing, it won all 50 goblins-vs-cave games
        # (their Crystals 1-2), racing once they had smashed 3 or 4, 48 and 46; never, 40; in
        # goblins-cave-thief, with their Tribes killing a Thief who carries loot (``_robbers``), Goblins 3 of
        # 50 racing, 9 not
        hunt = hunts_crystals(state)
        self.race = (state.goblins is not None or state.thief is not None or state.dragon is not None) and (
            (k is None and not hunt) or state.dragon is not None or self.thief_near or not state.stack
        )
        self.spare_knight = (
            k is not None and state.thief is not None and state.dragon is None and k.smashed < KNIGHT_NEAR
        )
        """With the Knight and the Thief in play and no Dragon (``knight-cave-thief``; with the Goblins it
        shields her already): no Giant Bats and no Soporific Spores on her while she has smashed fewer than
        ``KNIGHT_NEAR`` Crystals; hindering her from the start, the Thief won 31 of 50, she 5."""
        self.thief_alone = state.thief is not None and not (state.knight or state.dragon or state.goblins)
        """Only the Thief takes Treasure tokens (no Knight, Dragon or Goblins in play)."""
        d = state.dragon
        self.shield_dragon = (
            (k, state.thief) == (None, None)
            and state.goblins is not None
            and d is not None
            and d.x is not None
        )
        """With the Goblins and the Dragon alone (``goblins-dragon-cave``): the Goblins win by killing the
        Dragon, so Rockslides go between it and the Tribes (``tribes_kept_off``; with the Thief too it left
        the Cave at 0 and the Thief at 6 of 50, from 11)."""
        self.wall_thief = (
            state.goblins is None
            and state.dragon is not None
            and state.thief is not None
            and (k is None or state.thief.stashed >= 3)
        )
        """With the Dragon and the Thief, no Goblins (``dragon-cave-thief``; with the Knight too once he has
        stashed 3, walled from the start she won none of 20): Rockslides on the Entrance's edges, one left
        open (``entrance_kept_open``): he climbs them to stash his loot."""
        self.hunted = k is None and None not in (state.goblins, state.dragon, state.thief)
        """With the Goblins, the Dragon and the Thief in play and no Knight (``goblins-dragon-cave-thief``):
        the Goblins win by killing the Dragon, the Thief by stashing 6, both long before the stack is empty,
        so the Cave keeps the Tribes off the Dragon (Rockslides on its tile's sides, ``seal``; Giant Bats,
        ``menaces``), turns Lit tiles so that their open sides draw from the stack (Crystal Curse,
        ``rotation_fills``) and places its other tiles far from the Dragon (no Dark tile near it for a
        Tribe to be revealed on)."""
        self.dragon_alone = state.dragon is not None and not (state.knight or state.goblins or state.thief)
        """The Dragon is the Cave's only opponent (``dragon-vs-cave``)."""
        # while the Goblins may kill the Knight first (they win then), it keeps their Tribes off her, unless
        # she is near her own win
        self.protect = (
            k is not None
            and k.health > 0
            and state.goblins is not None
            and k.smashed < (agreed_crystals(state) or 5) - 1
        )

    @property
    def thief_near(self) -> bool:
        """Whether the Thief has stashed and carries ``THIEF_NEAR`` Treasures or more (he wins at 6 stashed,
        Vast rulebook §Il Ladro)."""
        t = self.state.thief
        return t is not None and t.stashed + t.carried >= THIEF_NEAR

    @functools.cached_property
    def to_target(self) -> dict[Pos, int]:
        """Steps from every tile to the Knight's nearest goal (walls block, as ``_distance_to``)."""
        return goal_distances(self.state, _target(self.state))

    def gain(self, to: Pos) -> int:
        """How much farther from her goal the Knight is on ``to`` than where she stands."""
        return self.to_target.get(to, FAR) - self.to_target.get(self.at, FAR)

    def far(self, pos: Pos) -> int:
        """Tiles from the Knight to ``pos`` (as the crow flies off the walkable map), at most 30."""
        at = self.at
        return min(self.dist.get(pos, abs(pos[0] - at[0]) + abs(pos[1] - at[1])), 30)

    def crystal_around(self, pos: Pos) -> int:
        """The Crystal tiles next to ``pos``: removing ``pos`` leaves each touching one tile fewer, nearer its
        turn in the Collapse (tiles touching the fewest others go first)."""
        return sum(1 for s in SIDES if step(pos, s) in self.crystal_tiles)

    def touching(self, pos: Pos) -> int:
        """Tiles next to ``pos``."""
        return len(geometry(self.state).neighbours(pos))

    def removal(self, pos: Pos) -> int:
        """What removing ``pos`` in the Collapse is worth: a Crystal tile (5 and the Cave wins), else a tile
        next to Crystal tiles, far from the Knight."""
        around = 300 * self.crystal_around(pos) if self.race else 0
        return (1_000 if pos in self.crystal_tiles else 0) + around + self.far(pos)

    def placing(self, tile: str, pos: Pos) -> int:
        """Where a tile of its hand goes: a Crystal tile far from the Knight and touching few tiles (first to
        go in the Collapse); another near her."""
        if tile != HIDDEN and tiles()[tile].kind == "crystal":
            return 10 * self.far(pos) - (40 * self.touching(pos) if self.race else 0)
        if self.hunted:  # a Dark tile near the Dragon is a Tribe's place to be revealed next to it
            return 10 * min(_manhattan(pos, self.dragon_at), 30)
        return 10 * (30 - self.far(pos))

    @functools.cached_property
    def from_thief(self) -> dict[Pos, int]:
        """Tiles from the Thief (from the Entrance while he is off the map) to every tile (walls block)."""
        t = self.state.thief
        at = (t.x, t.y) if t is not None and t.x is not None and t.y is not None else ENTRANCE
        return knight_distances(self.state, at)

    @functools.cached_property
    def dragon_at(self) -> Pos:
        d = self.state.dragon
        return (d.x, d.y) if d is not None and d.x is not None and d.y is not None else ENTRANCE

    def _steps(self, start: Pos, targets: set[Pos], blocked: tuple[Pos, str] | None) -> int:
        """Steps from ``start`` to the nearest of ``targets`` (``_walk``: walls block, ``blocked`` a wall
        more; Dark tiles entered), at most ``FAR``."""
        shut = frozenset({blocked, (step(*blocked), OPPOSITE[blocked[1]])} if blocked is not None else ())
        reached = _walk(geometry(self.state), {start: 0}, shut=shut)
        return min((reached[t] for t in targets if t in reached), default=FAR)

    def _tribes_from(self, blocked: tuple[Pos, str] | None) -> int:
        """Steps from the Dragon to its nearest revealed Tribe (``_steps``)."""
        gob = self.state.goblins
        at = {(t.x, t.y) for t in (gob.tribes if gob else ()) if on_map(t) and not t.lurking}
        return self._steps(self.dragon_at, at, blocked)  # type: ignore[arg-type]

    def entrance_kept_open(self, pos: Pos, side: str) -> bool:
        """Whether the Entrance keeps an open edge to a tile once a Rockslide lies on ``side`` of ``pos``."""
        g = geometry(self.state)
        edge = {(pos, side), (step(pos, side), OPPOSITE[side])}
        return any(
            step(ENTRANCE, s) in g.cells and not g.wall_between(ENTRANCE, s) and (ENTRANCE, s) not in edge
            for s in SIDES
        )

    @functools.cached_property
    def tribes_near_dragon(self) -> int:
        return self._tribes_from(None)

    def tribes_kept_off(self, pos: Pos, side: str) -> int:
        """Steps a Rockslide on ``side`` of ``pos`` adds to the nearest Tribe's way to the Dragon (0 when
        none is within 4 tiles of it, or the edge is more than a tile from it)."""
        near = self.tribes_near_dragon
        if near > 4 or _manhattan(pos, self.dragon_at) > 1:
            return 0
        return min(self._tribes_from((pos, side)), 20) - near

    def rotation_fills(self, pos: Pos, clockwise: bool) -> int:
        """The open sides (no wall, no tile beyond) a quarter turn of Lit tile ``pos`` (Crystal Curse) gives
        it: each is filled from the stack at once (Vast rulebook §Tessere Caverna), a tile nearer the
        Collapse."""
        cell = cell_at(self.state, pos)
        if cell is None or not cell.lit:
            return 0
        cells = geometry(self.state).cells
        rockslides, bombs = frozenset(self.state.rockslides), frozenset(self.state.bombs)
        walls = tile_walls(cell.tile, (cell.rotation + (1 if clockwise else 3)) % 4)
        shut = frozenset(s for s in SIDES if edge_walled(pos, s, walls, rockslides, bombs))
        return sum(1 for s in SIDES if step(pos, s) not in cells and s not in shut)

    def dragon_sides(self) -> list[tuple[Pos, str]]:
        """The Dragon's tile's sides toward a tile, with no wall: a Tribe walks in through them."""
        g = geometry(self.state)
        at = self.dragon_at
        return [(at, s) for s in SIDES if step(at, s) in g.cells and not g.wall_between(at, s)]

    def attackers(self, shut: tuple[Pos, str] | None) -> int:
        """The revealed Tribes that can walk onto the Dragon's tile (``rules.paths``), with a Rockslide more
        on side ``shut`` (``(tile, side)``) when given."""
        gob = self.state.goblins
        if gob is None:
            return 0
        state = self.state
        if shut is not None:
            state = msgspec.structs.replace(state, rockslides=(*state.rockslides, edge(*shut)))
        at = self.dragon_at
        return sum(1 for t in gob.tribes if on_map(t) and not t.lurking and at in rules.paths(state, t))

    def seal(self, pos: Pos, side: str) -> int:
        """What a Rockslide on ``side`` of ``pos`` is worth against the Tribes' attack on the Dragon: 0 unless
        it closes a side of the Dragon's tile (with none left in the supply, unless one on the map lies
        elsewhere to be moved, ``loose_rockslide``); else 1, and 1 more for each revealed Tribe it keeps
        off."""
        at = self.dragon_at
        there = step(pos, side)
        key = (pos, side) if at == pos else (there, OPPOSITE[side]) if at == there else None
        if key is None or key not in self.dragon_sides():
            return 0
        cave = self.state.cave
        if cave is not None and cave.rockslides < 1 and self.loose_rockslide() is None:
            return 0
        return 1 + self.attackers(None) - self.attackers(key)

    def loose_rockslide(self) -> str | None:
        """A Rockslide on the map on no side of the Dragon's tile (``x,y:side``): the one to move."""
        at = self.dragon_at
        for x, y, side in self.state.rockslides:
            if at not in ((x, y), step((x, y), side)):
                return f"{x},{y}:{side}"
        return None

    def menaces(self, name: str, at: Pos | None = None) -> bool:
        """Whether Tribe ``name`` (carried onto ``at`` when given) can walk onto the Dragon's tile stronger
        than its Armor (Vast rulebook §I Goblin, Attaccare; Ash Dragon), with 2 discs more from the War card
        and less those its way over Lit tiles costs (``rules.paths``, ``rules.entry_strength``)."""
        t = rules.tribe(self.state, name)
        if not on_map(t) or t.lurking:
            return False
        if at is not None:
            t = msgspec.structs.replace(t, x=at[0], y=at[1])
        cost = rules.paths(self.state, t).get(self.dragon_at)
        if cost is None:
            return False
        grown = msgspec.structs.replace(t, population=t.population + 2)
        return rules.entry_strength(self.state, grown, cost) > dragon_armor(self.state)

    def threat(self, name: str) -> int:
        """How near Tribe ``name`` stands to the Knight (tiles), ``FAR`` when it cannot attack her."""
        t = rules.tribe(self.state, name)
        if not on_map(t) or t.lurking or t.population <= 0:
            return FAR
        return self.dist.get((t.x, t.y), FAR)  # type: ignore[arg-type]


def _omens_left(state: VastState, paid: int) -> int:
    cave = state.cave
    return (len(cave.omens) if cave is not None else 0) - paid


def cave_score(state: VastState, command: Any, context: CaveContext | None = None) -> int:
    """``command``'s score for the Cave; ``context``: ``CaveContext(state)`` when already made (``choose``
    makes it once for every command)."""
    c = CaveContext(state) if context is None else context
    k = state.knight
    match command:
        case cmd.RemoveTile(x=x, y=y):
            return 2_000 + c.removal((x, y))
        case cmd.Hatred(tile=None, x=x, y=y) if c.race:  # in the Collapse: one tile more (§Presagi)
            return 1_000 + c.removal((x, y))
        case cmd.Hatred(tile=tile, x=x, y=y, pay=pay) if tile is not None and c.race:
            # another tile placed: the stack empties, the Collapse comes a turn nearer
            keep = 1 if c.protect else 0
            return 420 + c.placing(tile, (x, y)) // 10 if _omens_left(state, len(pay)) >= keep else 0
        case cmd.PlaceTile(tile=tile, x=x, y=y):
            return 500 + c.placing(tile, (x, y))
        case cmd.PlaceTreasure() if c.thief_alone and "place-treasure-optional" in state.variants:
            return 0  # optional (docs/vast/facts.md §7): each token is one only the Thief would take
        case cmd.PlaceTreasure(x=x, y=y) if state.thief is not None:
            # he carries each token home to stash it: far from the Entrance, a longer way
            return 400 + 5 * c.far((x, y)) + 10 * min(_manhattan((x, y), ENTRANCE), 30)
        case cmd.PlaceTreasure(x=x, y=y):
            return 400 + 5 * c.far((x, y))
        case cmd.GiantBats(target="knight") | cmd.SoporificSpores(target="knight") if c.spare_knight:
            return 0  # the Thief is the one to stop: the Omens go to Hatred and to him
        case cmd.GiantBats(target="knight", x=x, y=y) if k is not None and not c.protect:
            gain = c.gain((x, y))
            return 150 + 10 * min(gain, 10) if gain > 0 else 0
        case cmd.GiantBats(target=tribe, x=x, y=y) if c.protect and tribe in TRIBES:
            near = c.threat(tribe)
            away = c.dist.get((x, y), FAR)
            return 600 + 20 * min(away - near, 10) if near <= 4 and away > near else 0
        case cmd.GiantBats(target=tribe, x=x, y=y) if c.hunted and tribe in TRIBES:
            # a Tribe that would attack the Dragon carried where it cannot (the Goblins win by killing it)
            return 600 if c.menaces(tribe) and not c.menaces(tribe, (x, y)) else 0
        case cmd.SoporificSpores(target="dragon") if c.dragon_alone or c.hunted:
            # awake, it surfaces and walks home before the Collapse (Vast rulebook §Risveglio e Risalita)
            if state.dragon is None:
                return 0
            return _spores_on_dragon(state.dragon)
        case cmd.SoporificSpores(target="thief") if state.thief is not None:
            return 200 + 40 * len(state.thief.upgrades) if state.thief.stashed >= 2 else 0
        case cmd.SoporificSpores(target="goblins") if c.protect and state.goblins is not None:
            # the Goblins choose the Tribe (its fewest discs lost): worth it when each has 3 or more
            sizes = [t.population for t in state.goblins.tribes if t.population > 1]
            return 450 if sizes and min(sizes) >= 3 else 0
        case cmd.SoporificSpores(target="knight") if not c.protect:
            grit = k.grit if k is not None else 0
            return 300 if any(grit >= g and grit - 5 < g for g in GRIT_CUBES) else 30
        case cmd.Rockslide(x=x, y=y, side=side) if c.hunted:
            # a wall on a side of the Dragon's tile: the Tribes walk in through the others
            seal = c.seal((x, y), side)
            return 360 + 20 * seal if seal > 0 else 0
        case cmd.Rockslide(x=x, y=y, side=side) if c.shield_dragon and state.cave is not None:
            # a wall between the Tribes and the Dragon (they win by killing it, before the Collapse)
            gain = c.tribes_kept_off((x, y), side) if state.cave.rockslides > 0 else 0
            return 360 + 20 * min(gain, 10) if gain > 0 else 0
        case cmd.Rockslide(x=x, y=y, side=side) if c.wall_thief and state.cave is not None:
            # a wall on the Entrance's edge: the Thief climbs it to stash his loot
            home = ENTRANCE in ((x, y), step((x, y), side))
            keep = home and state.cave.rockslides > 0 and c.entrance_kept_open((x, y), side)
            return 350 if keep else 0
        case cmd.CrystalCurse(effect="rotate", x=x, y=y, clockwise=clockwise, pay=pay) if (
            c.hunted and not state.collapse and state.cave is not None and state.cave.placed >= 1
        ):
            # a quarter turn that opens sides with no tile beyond: each is filled from the stack at once; paid
            # with a Bat (no other use), or worth Hatred's token (Trail, Chasm) when it fills 2 or Hatred
            # costs 2 or more now
            fills = c.rotation_fills((x, y), clockwise)
            worth = all(t.startswith("bat") for t in pay) or fills >= 2 or state.cave.hatred >= 1
            return 430 + 60 * fills if fills > 0 and worth else 0
        case cmd.GiantBats(target="treasure", x=x, y=y, from_x=fx, from_y=fy, pay=pay) if (
            c.hunted and fx is not None and fy is not None and not any(t.startswith("chasm") for t in pay)
        ):
            # a Treasure token near the Thief carried farther from him and from the Entrance, where he stashes
            # it (paid with a Bat or a Boulder: a Chasm is Hatred's)
            near = c.from_thief.get((fx, fy), FAR)
            farther = min(c.from_thief.get((x, y), 30), 30) - near
            gain = farther + _manhattan((x, y), ENTRANCE) - _manhattan((fx, fy), ENTRANCE)
            return 300 + 10 * gain if near <= 6 and gain > 0 else 0
        case cmd.VastEndTurn():
            return 1
    return 0


def _spores_on_dragon(d: DragonRole) -> int:
    """Soporific Spores on the Dragon (a cube of its Wakefulness back to Sloth, Vast rulebook §Presagi, Spore
    Soporifere) while it is asleep and 3 cubes or fewer from waking: awake, it surfaces and walks home before
    the Collapse (§Risveglio e Risalita in Superficie)."""
    return 800 if not d.awake and d.awake_at - wakefulness(d) <= 3 else 0


def cave_decide(view: VastState, decision: str, options: Sequence[str], default: str | None) -> str:
    """The Cave's answer to ``decision``: the tile of its hand that fills an open edge (``fill:x,y``, Vast
    rulebook §Rivelare e risolvere) by ``CaveContext.placing``; every other decision, its documented
    default."""
    kind, _, where = decision.partition(":")
    if kind == "rockslide-from" and view.cave is not None:
        moved = CaveContext(view)
        loose = moved.loose_rockslide() if moved.hunted else None
        if loose is not None and loose in options:
            return loose  # one on no side of the Dragon's tile
    c = CaveContext(view) if kind == "fill" and view.cave is not None and where else None
    if c is not None and c.race:
        pos = parse_pos(where)
        return max(options, key=lambda tile: (c.placing(tile, pos), -options.index(tile)))
    return documented_default(options, default)


Rule = int | Callable[[Any, Any], int]
"""A bot's score for one kind of command: a constant, or a function of the role's context and the command."""


def command_key(command: Any) -> str:
    """The kind of ``command`` a scoring table is keyed by: its class name, with its Power, Tribe action or
    Secrets card when it has one (``UsePower:hiss``, ``ActivateTribe:attack``, ``PlaySecret:trap``)."""
    name = type(command).__name__
    for attribute in ("power", "action", "card"):
        value = getattr(command, attribute, None)
        if isinstance(value, str):
            return f"{name}:{value}"
    return name


def scored(table: Mapping[str, Rule], context: Any, command: Any) -> int:
    """``command``'s score by ``table`` (``command_key`` to a ``Rule``; 0 for a kind it does not list)."""
    rule = table.get(command_key(command), 0)
    return rule if isinstance(rule, int) else rule(context, command)


class GoblinsContext(NamedTuple):
    """What the Goblins' bot reads once per command: the tile it hunts (``at``: the Knight, without her the
    Dragon, without both the Crystal nearest a Tribe) and whether Crystal tokens lie on the map."""

    state: VastState
    at: Pos
    crystals: bool
    attacks: frozenset[tuple[str, tuple[int | None, int | None]]] | None = None
    """The Tribes' attacks among the legal commands (Tribe, tile): ``None`` when not read."""


def goblins_context(state: VastState, commands: Sequence[Any] | None = None) -> GoblinsContext:
    k = state.knight
    d = state.dragon
    at = (k.x, k.y) if k is not None else ENTRANCE
    if k is None and d is not None and d.x is not None and d.y is not None:
        at = (d.x, d.y)  # with no Knight, the Goblins hunt the Dragon (docs/vast/facts.md §7 Ash Dragon)
    crystals = [(c.x, c.y) for c in state.cells if c.crystal]
    if k is None and d is None and crystals:  # with neither, they smash Crystals (Vast rulebook §I Goblin)
        tribes = state.goblins.tribes if state.goblins else ()
        mine = [(t.x, t.y) for t in tribes if t.x is not None and t.y is not None]
        at = min(crystals, key=lambda p: sum(sorted(_manhattan(p, q) for q in mine)[:2]))
        first = state.goblins.crystal_attack if state.goblins else None
        if first is not None and (first[1], first[2]) in crystals:
            at = (
                first[1],
                first[2],
            )  # a second Tribe's attack smashes it (Vast rulebook §I Goblin, Attaccare)
    attacks = (
        frozenset(
            (c.tribe, (c.x, c.y))
            for c in commands
            if isinstance(c, cmd.ActivateTribe)
            and c.action == "attack"
            and c.x is not None
            and c.y is not None
        )
        if commands is not None
        else None
    )
    return GoblinsContext(state, at, bool(crystals), attacks)


def on_map(t: Any) -> bool:
    return t.x is not None and t.y is not None


def _tribe_attack(c: GoblinsContext, command: cmd.ActivateTribe) -> int:
    """Attack what they hunt; with neither Knight nor Dragon in play, a Crystal: the second Tribe's attack on
    it smashes it, a first one only when an unactivated Tribe of Strength 3 may follow (Vast rulebook §I
    Goblin, Attaccare)."""
    gob = c.state.goblins
    here = (command.x, command.y)
    cell = cell_at(c.state, (command.x or 0, command.y or 0))
    crystals_only = hunts_crystals(c.state)
    th = c.state.thief
    if _robbers(c.state) and th is not None and (th.x, th.y) == here:
        return _thief_attack(th)
    if gob is not None and crystals_only and cell is not None and cell.crystal:
        first = gob.crystal_attack
        if first is not None and (first[1], first[2]) == here and first[0] != command.tribe:
            return 6_000
        # a partner that can reach it: its attack there is legal (the Lit tiles it leaves cost discs)
        partners = [
            t
            for t in gob.tribes
            if t.name != command.tribe
            and not t.activated
            and on_map(t)
            and not t.lurking
            and rules.tribe_strength(c.state, t) >= 3
            and (c.attacks is None or (t.name, here) in c.attacks)
        ]
        return 3_000 if partners and first is None else 100
    if crystals_only:
        return 200
    return 5_000 if here == c.at else 1_500


def _tribe_reveal(c: GoblinsContext, command: cmd.ActivateTribe) -> int:
    if command.x is None or command.y is None:
        return 0
    return 600 - 10 * min(_manhattan((command.x, command.y), c.at), 40)


def hunts_crystals(state: VastState) -> bool:
    """Whether the Goblins play and hunt Crystals: neither the Knight nor the Dragon in play (Vast rulebook
    §I Goblin: then they smash Crystals)."""
    return state.goblins is not None and state.knight is None and state.dragon is None


def _robbers(state: VastState) -> bool:
    """The Goblins hunt Crystals (``hunts_crystals``) with the Cave and the Thief in play
    (``goblins-cave-thief``): they kill the Thief who carries loot (``_thief_attack``) and plunder Treasure
    tokens before anything but a Crystal (``GOBLINS_RULES``)."""
    return hunts_crystals(state) and state.cave is not None and state.thief is not None


def _thief_attack(th: ThiefRole) -> int:
    """With ``_robbers``, a Tribe's attack on the Thief's tile (legal only when its Perception, Population
    + 1, beats his Stealth, Vast rulebook §Attaccare il Ladro): worth more than a Crystal when he carries 2
    loot or more, or enough to win on stashing it (6 Treasures): he dies and drops it, the Tribe does not
    scatter and the Goblins take Secrets or Rage (his Loot Drop)."""
    loot = th.carried + len(th.gems)
    return 7_000 if loot >= 2 or th.stashed + loot >= 6 else 200


def _pack(state: VastState) -> bool:
    """The Goblins hunt Crystals as a pack (``_crystal_move``, ``_block``, ``_overpopulation``, ``_cave_in``,
    ``_orient``): they hunt Crystals (``hunts_crystals``) and the Cave is not in play (it wins by the
    Collapse: with these rules in `goblins-cave-thief` its wins went to the Thief, bench/README.md §8)."""
    return hunts_crystals(state) and "cave" not in state.roles


def _tribe_special(c: GoblinsContext, command: cmd.ActivateTribe) -> int:
    """The Tribe's special action (Vast rulebook §Azioni Speciali); hunting Crystals, where it moves first
    counts as much: it waits on the hunted Crystal's tile when it can attack there (``_crystal_move``)."""
    gob = c.state.goblins
    if _pack(c.state):
        return _crystal_move(c, command, 250)
    if command.tribe == "fangs":
        return 400 if gob is not None and gob.rage < 3 else 0
    return 300


def _crystal_move(c: GoblinsContext, command: cmd.ActivateTribe, base: int) -> int:
    """Hunting Crystals, a Tribe's move before it acts (``base``: what the action is worth): onto the hunted
    Crystal's tile when it could attack there this turn (Strength 3 left after the Lit tiles it leaves, Vast
    rulebook §5. Attiva le Tribù) but no second Tribe could, to wait there for one (a Tribe on it loses no
    disc to attack next turn); else nearer it, never farther."""
    if command.x is None or command.y is None:
        return base
    t = rules.tribe(c.state, command.tribe)
    if t.x is None or t.y is None:
        return base
    to = (command.x, command.y)
    if not c.crystals and c.state.collapse and "alone-in-the-dark" in c.state.variants:
        return base + _flare_spot(c.state, t.name, (t.x, t.y), to)
    if to == c.at and c.attacks is not None and (t.name, c.at) in c.attacks:
        return 2_500 + base
    before = _manhattan((t.x, t.y), c.at)
    after = _manhattan(to, c.at)
    if after > before:
        return 0
    return base + 30 * (before - after)


def _flare_spot(state: VastState, name: str, here: Pos, to: Pos) -> int:
    """Alone in the Dark in the Collapse with no Crystal token on the map, what tile ``to`` is worth to Tribe
    ``name`` moving from ``here``: its next Flare (docs/vast/facts.md §7 Variant cards, the Dragon die rolled
    round it; in the Collapse no open side is filled) hits each of the 9 tiles round it in 1 roll of 2, and
    only Dark ones are revealed (a Crystal tile among them is smashed that turn or it collapses, the 5th);
    a tile another Tribe's Flare covers too is worth less, and every step costs (a disc for every 2 Lit
    tiles it leaves)."""
    dark = {(c.x, c.y) for c in state.cells if not c.lit}
    gob = state.goblins
    others = [(t.x, t.y) for t in gob.tribes if t.name != name and on_map(t)] if gob is not None else []
    seen = {(to[0] + dx, to[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} & dark
    shared = {
        p
        for p in seen
        if any(abs(p[0] - q[0]) <= 1 and abs(p[1] - q[1]) <= 1 for q in others)  # type: ignore[operator]
    }
    return 40 * len(seen) - 30 * len(shared) - 10 * _manhattan(here, to)


def _tribe_step(c: GoblinsContext, command: cmd.ActivateTribe) -> int:
    if command.x is None or command.y is None:
        return 0
    t = rules.tribe(c.state, command.tribe)
    if t.x is None or t.y is None:
        return 5
    if _pack(c.state):
        return _crystal_move(c, command, 200) if (command.x, command.y) != (t.x, t.y) else 200
    before = _manhattan((t.x, t.y), c.at)
    after = _manhattan((command.x, command.y), c.at)
    return 200 + 10 * (before - after) if after < before else 0


def _tribe_flare(c: GoblinsContext, _: Any) -> int:
    """Flare (docs/vast/facts.md §7 Variant cards) to find a Crystal when none lies on the map. Hunting
    Crystals alone (no Knight, no Dragon) they flare no more once one does: every tile revealed fills its
    open sides from the stack, and the Collapse (Crystal tiles first) begins once the stack is empty."""
    if not c.crystals:
        return 700
    return 0 if c.state.knight is None and c.state.dragon is None else 100


GOBLINS_RULES: dict[str, Rule] = {
    "TribeFlare": _tribe_flare,
    "ActivateTribe:attack": _tribe_attack,
    # Rage for a Treasure token: hunting Crystals alone, a step toward one is worth more
    # with the Cave and the Thief too (``_robbers``), a Treasure token plundered is one he does not stash
    "ActivateTribe:plunder": lambda c, _: (
        1_000 if _robbers(c.state) else 150 if c.state.knight is None and c.state.dragon is None else 800
    ),
    "ActivateTribe:reveal": _tribe_reveal,
    "ActivateTribe:special": _tribe_special,
    "ActivateTribe:none": _tribe_step,
    "PlaySecret:hex": lambda c, _: 450 if rules.tribe(c.state, "eye").population >= 2 else 0,
    "PlaySecret:trap": 350,
    "PlaySecret:hiding-spots": 4_000,  # an attack on the Knight from hiding
    "PlaySecret:poison": 250,
    "PlaySecret:goblin-ruby": 300,
    # hunting Crystals with no Cave, before the Collapse its Lit tiles go back under the stack (``_cave_in``)
    "PlaySecret:cave-in": lambda c, _: (
        550 if _pack(c.state) and not c.state.collapse and _plain_lit(c.state) else 150
    ),
    # the Knight carried away from the Entrance
    "WispMove": lambda _, command: 650 + 10 * min(abs(command.x) + abs(command.y), 10),
    "VastEndTurn": 1,
}
"""The Goblins' bot, one rule per kind of command: attack what they hunt, plunder, reveal near it, the
Tribes' specials, step toward it, play Secrets, carry the Knight away with the Wisp."""


def goblins_score(state: VastState, command: Any, context: GoblinsContext | None = None) -> int:
    """``command``'s score for the Goblins (``GOBLINS_RULES``); ``context``: ``goblins_context(state,
    commands)`` when already made (``choose`` makes it once, with the legal commands)."""
    return scored(GOBLINS_RULES, goblins_context(state) if context is None else context, command)


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
        crystal = {(c.x, c.y) for c in state.cells if c.lit and tiles()[c.tile].kind == "crystal"}
        if alone(state) and crystal:  # solo: the Crystal tile with the shortest Lit way home
            home = lit_walk(state, {ENTRANCE})
            nearest = min(home.get(p, FAR) for p in crystal)
            if nearest < FAR:
                return {p for p in crystal if home.get(p, FAR) == nearest}
        return crystal
    if d.sloth["greed"] and not d.held:
        found = {(c.x, c.y) for c in state.cells if c.treasure}
        if found:
            return found
    if d.sloth["hunger"] and state.goblins is not None:
        tribes_at = {(t.x, t.y) for t in state.goblins.tribes if not t.lurking}
        found = {(x, y) for x, y in tribes_at if x is not None and y is not None}
        if found:
            return found
    prey = thief_prey(state)
    if prey is not None:
        return {prey}
    return set()


def alone(state: VastState) -> bool:
    """Alone in the Dark: one role in play, no other player's piece (docs/vast/facts.md §7 Solo)."""
    return len(state.roles) == 1


def thief_prey(state: VastState) -> Pos | None:
    """The Thief's tile when the Dragon hunts him: he carries loot to stash, or has stashed half his 6 (Vast
    rulebook §Poteri, Graffio: Scratch kills him on its tile; §Il Ladro, Morire: he drops what he carries
    there and comes back by the Entrance)."""
    th = state.thief
    if th is None or th.x is None or th.y is None:
        return None
    if th.carried + len(th.gems) > 0 or th.stashed >= 3:
        return (th.x, th.y)
    return None


class DragonContext(NamedTuple):
    """What the Dragon's bot reads once per command: its board and tile, where it heads (``dragon_goal``),
    the revealed Tribes around it and the Dark tiles around it."""

    state: VastState
    dragon: DragonRole
    here: Pos
    goal: set[Pos]
    tribes_near: int
    dark_around: int
    walk: Mapping[Pos, int] | None = None
    """Surfaced, the steps from each Lit tile to the goal over Lit tiles, walls blocking (``lit_walk``)."""
    solo: bool = False
    """Alone in the Dark (no other role in play): ``solo_dragon``'s rules apply."""
    danger: Mapping[Pos, Mapping[str, float]] = {}
    """Wary (``wary``), each tile's chance of each revealed Tribe's attack in the Goblins' next turn
    (``dragon_danger``); empty otherwise."""

    def still_pride(self) -> bool:
        """Keeping still this turn would move a Pride cube: none moved yet this turn, one on Pride-still, and
        it has not moved (Vast rulebook §Risveglio e Risalita in Superficie: «non muoverti per 1 turno»)."""
        d = self.dragon
        return "pride" not in d.advanced and d.sloth["pride-still"] > 0 and d.still

    def closer(self, to: Pos) -> int:
        """Tiles ``to`` gains toward the goal (as the crow flies; surfaced, by ``walk`` when it reaches both
        tiles); -1 with no goal."""
        if not self.goal:
            return -1
        if self.walk is not None and self.here in self.walk:
            return self.walk[self.here] - self.walk.get(to, FAR)
        return min(_manhattan(self.here, g) for g in self.goal) - min(_manhattan(to, g) for g in self.goal)


def lit_walk(state: VastState, goals: set[Pos]) -> dict[Pos, int]:
    """Steps from every Lit tile to the nearest of ``goals`` over Lit tiles, walls blocking: the surfaced
    Dragon's way (Vast rulebook §Limitazioni di Movimento: surfaced, neither Dark tiles nor walls)."""
    lit = {(c.x, c.y) for c in state.cells if c.lit}
    return _walk(geometry(state), {p: 0 for p in goals if p in lit}, within=lit)


def dragon_context(state: VastState, d: DragonRole, here: Pos) -> DragonContext:
    gob = state.goblins
    near = sum(
        1
        for t in (gob.tribes if gob else ())
        if on_map(t) and not t.lurking and _chebyshev((t.x, t.y), here) <= 1
    )
    dark = sum(1 for c in state.cells if not c.lit and _chebyshev((c.x, c.y), here) == 1)
    goal = dragon_goal(state)
    walk = lit_walk(state, goal) if d.surfaced and goal else None
    danger = dragon_danger(state) if wary(state) else {}
    return DragonContext(state, d, here, goal, near, dark, walk, alone(state), danger)


def _chebyshev(a: tuple[int | None, int | None], b: Pos) -> int:
    return max(abs((a[0] or 0) - b[0]), abs((a[1] or 0) - b[1]))


def _solo_stays(c: DragonContext, to: Pos) -> bool:
    """Solo and asleep, it keeps still for its Pride cube rather than move, unless the move lands on the
    Treasure token it goes for (``solo_dragon``)."""
    if not c.solo or c.dragon.awake or not c.still_pride():
        return False
    cell = cell_at(c.state, to)
    return not (cell is not None and cell.treasure and to in c.goal)


def wary(state: VastState) -> bool:
    """The Dragon hunted by the Goblins beside the Thief: the Ash Dragon card (the Goblins win by killing it,
    their Tribes attack it with Strength above its Armor: docs/vast/facts.md §7 Variant cards) with the
    Goblins and the Thief in play (goblins-dragon-thief, goblins-dragon-cave-thief)."""
    return "ash-dragon" in state.variants and state.goblins is not None and state.thief is not None


@functools.cache
def _war_adds(name: str) -> tuple[int, ...]:
    """Tribe ``name``'s discs on every War card (Vast rulebook §1. Carta Guerra, §2. Popola le Tribù): the
    content's, read once."""
    return tuple(getattr(w, name) for w in goblin_file().war)


def tribe_threat(state: VastState, t: Any, lit_left: int, armor: int) -> float:
    """The chance that revealed Tribe ``t``, reaching a tile after leaving ``lit_left`` Lit tiles, attacks the
    Dragon there in the Goblins' next turn: over the War cards (each as likely), its Population with the
    card's discs (at most 4) less the discs its move costs (1 for every 2 Lit tiles left, Vast rulebook §5.
    Attiva le Tribù) must give Strength above the Dragon's Armor (Ash Dragon, docs/vast/facts.md §7)."""
    adds = _war_adds(t.name)
    fresh = msgspec.structs.replace(t, lit_left=0)
    hits = 0
    for add in adds:
        grown = min(4, t.population + add)
        lost = min(grown, rules.movement_loss(state, fresh, lit_left))
        if rules.tribe_strength(state, msgspec.structs.replace(fresh, population=grown - lost)) > armor:
            hits += 1
    return hits / len(adds)


def dragon_danger(state: VastState) -> dict[Pos, dict[str, float]]:
    """For every tile, the chance each revealed Tribe attacks the Dragon there in the Goblins' next turn
    (``tribe_threat`` over its ways: ``rules.paths``, walls block, Dark tiles cost no disc); hidden and
    lurking Tribes only come out or step next to the map, they do not attack (Vast rulebook §Rivelare,
    §Disperdere la Tribù). Read once per turn's choice (``DragonContext.danger``)."""
    out: dict[Pos, dict[str, float]] = {}
    gob = state.goblins
    armor = dragon_armor(state)
    if gob is not None and gob.rage == 0:  # Malaise may be over by their turn (§Furia e Malessere)
        state = msgspec.structs.replace(state, goblins=msgspec.structs.replace(gob, rage=1))
        gob = state.goblins
    for t in gob.tribes if gob is not None else ():
        if not on_map(t) or t.lurking or t.population < 1:
            continue
        reach = dict(rules.paths(state, t))
        if gob is not None and gob.tunnels:
            for cell in state.cells:
                if not cell.lit:
                    reach.setdefault((cell.x, cell.y), 0)
        cost: dict[int, float] = {}
        for p, lit in reach.items():
            if lit not in cost:
                cost[lit] = tribe_threat(state, t, lit, armor)
            if cost[lit]:
                out.setdefault(p, {})[t.name] = cost[lit]
    return out


WARY = 400
"""Wary (``wary``), what each expected attack of a Tribe on the tile a move ends on costs the move, and
what each one it leaves behind is worth (``_flight``)."""


def _flight(c: DragonContext, to: Pos) -> int:
    """Wary, the expected attacks on the Dragon it escapes by moving ``to`` (negative: more there)."""
    danger = c.danger
    weight = WARY * 5 / max(1, c.dragon.health)
    return round(weight * (sum(danger.get(c.here, {}).values()) - sum(danger.get(to, {}).values())))


def _dragon_move(c: DragonContext, command: cmd.MoveDragon) -> int:
    gain = c.closer((command.x, command.y))
    if _solo_stays(c, (command.x, command.y)):
        return 0
    if wary(c.state):
        return (700 + 50 * gain if gain > 0 else 0) + _flight(c, (command.x, command.y))
    return 700 + 50 * gain if gain > 0 else 0


def _dragon_wing(c: DragonContext, command: cmd.UsePower) -> int:
    if command.x is None or command.y is None:
        return 0
    gain = c.closer((command.x, command.y))
    if _solo_stays(c, (command.x, command.y)):
        return 0
    # the Wing after its move; surfaced also before it, across the wall that bars its way home
    base = 500 + 50 * gain if gain > 0 and (c.dragon.moved or c.dragon.surfaced) else 0
    if wary(c.state) and (c.dragon.moved or c.dragon.surfaced):
        return base + _flight(c, (command.x, command.y))
    return base


SOLO_REVEAL_FROM = 7
"""Alone, the Wakefulness from which the sleeping Dragon reveals Dark tiles (``_solo_reveal``)."""


def _solo_reveal(c: DragonContext, command: cmd.UsePower) -> int | None:
    """Scorch, Burn and Flame for the Dragon alone (Alone in the Dark, docs/vast/facts.md §7): none while it
    sleeps below ``SOLO_REVEAL_FROM`` Wakefulness (each tile revealed fills its open sides from the stack,
    whose end begins the Collapse, and a revealed Crystal tile is the Collapse's first; keeping still on the
    Entrance moves a Pride cube every turn instead); from there, Burn nearest the Entrance first, where a Lit
    Crystal tile to surface on is a short Lit way home. ``None``: not alone, the rules of every row apply."""
    if not c.solo:
        return None
    d = c.dragon
    if not d.awake and wakefulness(d) < SOLO_REVEAL_FROM:
        return 0
    if command.power == "burn" and command.x is not None and command.y is not None:
        return 260 - 10 * min(_manhattan((command.x, command.y), ENTRANCE), 20)
    return None


def _dragon_scorch(c: DragonContext, command: Any) -> int:
    solo = _solo_reveal(c, command)
    if solo is not None:
        return solo
    return 300 + 60 * c.dark_around if c.dragon.sloth["pride-events"] else 40 * c.dark_around


def _dragon_burn(c: DragonContext, command: Any) -> int:
    solo = _solo_reveal(c, command)
    if solo is not None:
        return solo
    return 250 if c.dragon.sloth["pride-events"] and "pride" not in c.dragon.advanced else 10


def _dragon_flame(c: DragonContext, command: cmd.UsePower) -> int:
    solo = _solo_reveal(c, command)
    if solo is not None:
        return solo
    return 200 if c.dark_around else 0


def _dragon_slither(c: DragonContext, command: cmd.UsePower) -> int:
    """Slither a Sloth cube off a track it cannot empty (Hunger without Tribes to eat) onto an empty Pride
    track, which its Gems and its keeping still empty (Vast rulebook §Poteri, Strisciare; §Risveglio e
    Risalita in Superficie)."""
    stuck = command.source == "hunger" and c.state.goblins is None
    if c.solo and not c.dragon.awake:
        return _solo_slither(c, command)
    return 450 if stuck and command.target in ("pride-gem", "pride-still") else 0


SOLO_SLITHER_SOURCES = ("hunger", "pride-events", "pride-gem", "greed")
"""Alone, the tracks the Dragon slithers a cube off onto Pride-still, first first: Hunger it cannot empty (no
Tribes), the Event tiles it may not find, the Gem it may not place, Greed last (Treasure tokens are few)."""


def _solo_slither(c: DragonContext, command: cmd.UsePower) -> int:
    """Solo and asleep: a cube onto the empty Pride-still track, which keeping still empties again, one Pride
    cube every turn (Vast rulebook §Poteri, Strisciare; §Risveglio e Risalita in Superficie); before placing a
    Gem (the Gem ends its Powers)."""
    if command.target != "pride-still" or command.source not in SOLO_SLITHER_SOURCES:
        return 0
    if command.source == "pride-gem" and c.dragon.gems:
        return 0
    return 560 - 10 * SOLO_SLITHER_SOURCES.index(command.source)


def _dragon_hiss(c: DragonContext, command: cmd.UsePower) -> int:
    """Hiss (Vast rulebook §Poteri, Sibilo: the Tribe hides and loses 1 Population; the Dragon eats 1) while
    Hunger has a cube. With the Goblins and the Thief in play, on the Tribe that could win the game for the
    Goblins, the strongest and nearest first, Hunger or not (a hidden Tribe spends its next action revealing
    itself, not attacking): with the Ash Dragon card (goblins-dragon-thief: they win by killing the Dragon),
    one whose Strength is over its Armor (docs/vast/facts.md §7 Variant cards, Ash Dragon); with the Knight
    and the Cave (they win by killing her, Vast rulebook §I Goblin), one within 3 tiles of her with Strength
    over hers. Measured (bench/README.md §8, sixth session): the Knight's guard brought the Dragon from 4 to
    8 of 50 in the 5-role row; without the Cave (knight-goblins-dragon-thief) it cost the Dragon one (5 ->
    4). Wary (``wary``), any Tribe that may attack its tile in the Goblins' next turn (``dragon_danger``), the
    likeliest first, before collecting Treasure (bench/README.md §8, seventh session)."""
    base = 650 if c.dragon.sloth["hunger"] else 50
    s = c.state
    if s.thief is None or s.goblins is None:
        return base
    if wary(s):
        threat = c.danger.get(c.here, {}).get(command.tribe or "", 0.0)
        if threat > 0:
            return WARY_POWER + round(WARY * threat)
    k = s.knight
    if "ash-dragon" in s.variants:
        prey, guard = c.here, dragon_armor(s)
    elif s.cave is not None and k is not None and k.x is not None and k.y is not None:
        prey, guard = (k.x, k.y), strength(k, False)
    else:
        return base
    t = next((t for t in s.goblins.tribes if t.name == command.tribe), None)
    if t is None or not on_map(t) or t.lurking:
        return base
    power = rules.tribe_strength(s, t)
    far = min(_chebyshev((t.x, t.y), prey), 5)
    if power > guard and (prey == c.here or far <= 3):
        return 700 + 20 * power - 10 * far
    return base - 10 * far


WARY_POWER = 1_900
"""Wary (``wary``), the score Hiss, Scratch and Claw on the Tribes that threaten the Dragon's tile start
from, with their threat's share on top: before collecting Treasure (2000: it ends the Powers, Vast rulebook
§Riepilogo del Turno), Scratch always, Hiss from a quarter of an attack, Claw (3 in 6) from half one."""


def _near_threat(c: DragonContext) -> float:
    """Wary, the expected attacks of the revealed Tribes on the Dragon's tile and next to it there."""
    gob = c.state.goblins
    here = c.danger.get(c.here, {})
    near = {t.name for t in (gob.tribes if gob else ()) if on_map(t) and _chebyshev((t.x, t.y), c.here) <= 1}
    return sum(v for name, v in here.items() if name in near)


def _dragon_scratch(c: DragonContext, _: Any) -> int:
    """Scratch (Vast rulebook §Poteri, Graffio: every Tribe on its tile to Population 0). Wary, before
    collecting Treasure (a Tribe on its tile is the nearest to attack it), the more the more they threaten."""
    if wary(c.state):
        gob = c.state.goblins
        on = {t.name for t in (gob.tribes if gob else ()) if on_map(t) and (t.x, t.y) == c.here}
        threat = sum(v for name, v in c.danger.get(c.here, {}).items() if name in on)
        return WARY_POWER + 200 + round(WARY * threat)
    return 900


def _dragon_claw(c: DragonContext, _: Any) -> int:
    """Claw (Vast rulebook §Poteri, Artiglio: the Tribes on the tiles the Dragon die hits scatter; each tile
    on or next to it is hit 3 in 6) with a Tribe next to it. Wary, before collecting Treasure when a Tribe
    there or next to it threatens it."""
    if wary(c.state):
        threat = _near_threat(c)
        if threat > 0:
            return WARY_POWER + round(WARY * threat / 2)
    return 600 if c.tribes_near else 0


def _dragon_swat(c: DragonContext, command: cmd.UsePower) -> int:
    """Solo and asleep, a Treasure token next to it swatted onto its own tile (Vast rulebook §Poteri, Colpo),
    to collect it for Greed while it keeps still for Pride."""
    d = c.dragon
    if not c.solo or d.awake or command.token != "treasure" or d.sloth["greed"] <= 0 or d.held:
        return 0
    return 850 if (command.x, command.y) == c.here else 0


def _dragon_gem(c: DragonContext, _: Any) -> int:
    """Place a Gem (Vast rulebook §3. Posa una Gemma di Drago: with another on the map, a Pride cube). With
    the Thief in play, none within 2 tiles of the Entrance when the Knight or the Cave plays too (there he
    stashes it the same turn), and with neither the Goblins nor the Knight none within 3 tiles of him (the
    Entrance when he is off the map): the nearest loot he finds (Vast rulebook §Il Ladro, Saccheggiare).
    Measured (bench/README.md §8, fifth session): with the Goblins that rule left the Thief no win in
    goblins-dragon-thief, with the Knight 1 of 20 in knight-dragon-thief. With the Thief and the Goblins in
    play, a Gem only while the Pride-Gem track holds its cube and no Pride cube moved this turn: its later
    Gems earn nothing and he loots them (bench/README.md §8, sixth session)."""
    s = c.state
    d = c.dragon
    if s.thief is not None and s.goblins is not None and (d.sloth["pride-gem"] < 1 or "pride" in d.advanced):
        return 0
    if s.thief is not None and (s.goblins or s.knight) is None and _manhattan(c.here, thief_here(s)) <= 3:
        return 0
    if s.thief is not None and (s.knight or s.cave) is not None and _manhattan(c.here, ENTRANCE) <= 2:
        return 0
    return 500 if any(cell.gems for cell in s.cells) else 300


DRAGON_RULES: dict[str, Rule] = {
    "DragonCollect": 2_000,
    "MoveDragon": _dragon_move,
    "UsePower:wing": _dragon_wing,
    "UsePower:hiss": _dragon_hiss,
    "UsePower:scratch": _dragon_scratch,
    "UsePower:claw": _dragon_claw,
    "UsePower:scorch": _dragon_scorch,
    "UsePower:burn": _dragon_burn,
    "UsePower:flame": _dragon_flame,
    "UsePower:slither": _dragon_slither,
    "UsePower:swat": _dragon_swat,
    "UsePower:smash": 350,
    "UsePower:shriek": 30,
    "UsePower:slap": 80,
    "UsePower:flame-wall": 60,
    "PlaceGem": _dragon_gem,
    "VastEndTurn": 1,
}
"""The Dragon's bot, one rule per kind of command: collect Treasure (Greed); Scratch, Hiss and Claw on Tribes
(Hunger; wary, on the Tribes that threaten it, first); reveal with Scorch, Burn and Flame (Pride); place a
Gem, not near the Thief (``_dragon_gem``); slither a Hunger cube it cannot spend (no Tribes) onto an empty
Pride track; move toward its goal (wary, away from the Tribes' attacks: ``_flight``)."""


def dragon_score(state: VastState, command: Any, context: DragonContext | None = None) -> int:
    """``command``'s score for the Dragon (``DRAGON_RULES``), with ``context`` read once for every command
    (``dragon_context``, built when not given); 1 for any command while it is off the map."""
    d = state.dragon
    if d is None or d.x is None or d.y is None:
        return 1
    c = context if context is not None else dragon_context(state, d, (d.x, d.y))
    return scored(DRAGON_RULES, c, command)


# --- the Thief ----------------------------------------------------------------------------------------

CHANCE = {1: 0.5, 2: 5 / 6, 3: 1.0}
"""A Pickpocket's or Pick Lock's chance by cubes (Vast rulebook: 4+, 2+, always on the Action die, a d6)."""
UPGRADE_WISHES = (
    "flip-2",
    "movement+1",
    "lock-picking-kit",
    "thievery+1",
    "unnatural-evasion",
    "flip-3",
    "stealth+1",
    "climbing-gear",
    "sticky-fingers",
    "all-4",
    "hand-crossbow",
)
"""The Thief bot's Upgrades, most wanted first."""
REVEALED = ("treasure-room", "vault")
"""The Dark tiles the Thief bot reveals once he looked at them (they bring Treasure or a Vault)."""


def thief_hunted(state: VastState) -> bool:
    """The Knight and the Goblins in play, neither the Dragon nor the Cave (``knight-goblins-thief``): both
    kill him on his tile with Perception above his Stealth (Vast rulebook §Interagire con il Ladro; a Tribe's
    Perception is its Population + 1, and it moves any distance), each token he carries is -1 Stealth
    (§Trasportare e Mettere al Sicuro), and the game is short (the Goblins kill the Knight, or the Collapse
    ends it for everyone, in 6-15 rounds). Traced there (bench/README.md §8, sixth session): 162 deaths in 50
    games, 141 tokens dropped by them, 123 stashed. So he brings each token home at once (``thief_goals``) and
    puts Stealth before Thievery once Movement reaches his goal (``stats_value``)."""
    roles = state.roles
    return "knight" in roles and "goblins" in roles and "dragon" not in roles and "cave" not in roles


def thief_here(state: VastState) -> Pos:
    th = state.thief
    if th is None or th.x is None or th.y is None:
        return ENTRANCE  # off the map: he comes back on the Entrance (Vast rulebook §Morire)
    return (th.x, th.y)


def carrying(state: VastState) -> int:
    th = state.thief
    return 0 if th is None else th.carried + len(th.gems)


def robbable(state: VastState) -> set[Pos]:
    """Where a target his Stealth beats stands, with something he can take (Vast rulebook §Borseggiare)."""
    th = state.thief
    if th is None:
        return set()
    out: set[Pos] = set()
    for target in ("knight", "dragon", *TRIBES):
        if target not in state.roles and not (target in TRIBES and "goblins" in state.roles):
            continue
        there = target_at(state, target)
        owner = target if target in ("knight", "dragon") else "goblins"
        if there is None or owner in th.targeted or not pickpocket_options(state, owner):
            continue
        if thief_stealth(th) > target_perception(state, target):
            out.add(there)
    return out


def thief_goals(state: VastState, cubes: int | None = None) -> set[Pos]:
    """Where the Thief heads: home to stash with 2 tokens (1 when ``thief_hunted``), or with loot and no cube
    left; else the Treasure
    tokens, Gems and Vaults on the map, the targets he can rob, then Dark tiles he saw hold Treasure or a
    Vault, then any Dark tile (to look at it), else the Entrance."""
    th = state.thief
    if th is None:
        return {ENTRANCE}
    cubes = th.cubes if cubes is None else cubes
    held = carrying(state)
    full = 1 if thief_hunted(state) else 2  # hunted by the Knight and the Goblins: one token at a time
    if held and (cubes == 0 or held >= full or th.stashed + held >= (agreed_crystals(state) or 6)):
        return {ENTRANCE}
    loot = {(c.x, c.y) for c in state.cells if c.treasure or c.gems or c.vault} | robbable(state)
    home = {ENTRANCE} if held else set()
    if loot:
        return loot | home
    known = {
        (c.x, c.y) for c in state.cells if not c.lit and c.tile != HIDDEN and tiles()[c.tile].kind in REVEALED
    }
    if known:
        return known | home
    dark = {(c.x, c.y) for c in state.cells if not c.lit and c.tile == HIDDEN}
    return (dark | home) or {ENTRANCE}


def goal_distances(state: VastState, goals: set[Pos]) -> dict[Pos, int]:
    """Steps from every tile to the nearest goal without climbing (walls block; Dark tiles may be entered)."""
    g = geometry(state)
    return _walk(g, {p: 0 for p in goals if p in g.cells})


def steps_to(state: VastState, goals: set[Pos], pos: Pos) -> int:
    """Steps from ``pos`` to the nearest goal: by the open ways, else as the crow flies plus a climb."""
    walk = goal_distances(state, goals).get(pos)
    if walk is not None:
        return walk
    return min((_manhattan(pos, g) for g in goals), default=FAR) + 2


def seen_at(state: VastState, pos: Pos) -> bool:
    """Whether the Knight or a Tribe on ``pos`` sees him there (Perception above his Stealth: they may attack
    him, Vast rulebook §Interagire con il Ladro)."""
    th = state.thief
    if th is None:
        return False
    stealth = thief_stealth(th)
    k = state.knight
    if k is not None and k.health > 0 and (k.x, k.y) == pos and perception(k) > stealth:
        return True
    gob = state.goblins
    for t in gob.tribes if gob is not None else ():
        if (t.x, t.y) == pos and not t.lurking and target_perception(state, t.name) > stealth:
            return True
    return False


def stats_value(state: VastState, option: str) -> int:
    """A Stat token assignment ``movement-stealth-thievery``: Movement to reach his goal, then Thievery (his
    Action cubes) for what he finds there, then Stealth (``thief_hunted``: Stealth, then Thievery)."""
    m, s, t = (int(v) for v in option.split("-"))
    th = state.thief
    boost = {
        stat: 1 if th is not None and f"{stat}+1" in th.upgrades else 0 for stat in ("movement", "stealth")
    }
    m, s = m + boost["movement"], s + boost["stealth"]
    goals = thief_goals(state, cubes=t)
    far = steps_to(state, goals, thief_here(state))
    if carrying(state) and goals == {ENTRANCE}:
        return (1_000 if m >= far else 100 * m) + 10 * s + t
    if m >= far and thief_hunted(state):  # Stealth before Thievery: Tribes and the Knight kill him
        return 1_000 + 100 * s + 10 * t + m
    if m >= far:
        return 1_000 + 100 * t + 10 * s + m
    return 100 * m + 10 * t + s


def thief_score(state: VastState, command: Any) -> int:  # one rule per line
    th = state.thief
    if th is None or th.x is None or th.y is None:
        return 1
    here = (th.x, th.y)
    goals = thief_goals(state)
    far = steps_to(state, goals, here)
    moves_left = 0 if th.moving_done else thief_stat(th, "movement") - th.moves
    held = carrying(state)

    def gain(to: Pos) -> int:
        return far - steps_to(state, goals, to)

    match command:
        case cmd.Loot(gem=None):
            return 3_000
        case cmd.Loot(cubes=2):
            return 2_800
        case cmd.Loot():
            return 0  # a Gem for 1 cube: the Dragon die's center hit (1 in 2) kills him
        case cmd.PickLock(cubes=c):
            return 2_000 + int(1_000 * CHANCE[c]) - 200 * pick_lock_cost(th, c)
        case cmd.Pickpocket(cubes=c):
            return 1_800 + int(1_000 * CHANCE[c]) - 200 * c
        case cmd.MoveThief(x=x, y=y, climb=False) if here == ENTRANCE and held and moves_left >= 2:
            # loot taken on the Entrance is stashed only on entering it (Vast rulebook §Trasportare e Mettere
            # al Sicuro): a step off and back
            return 450 - (300 if seen_at(state, (x, y)) else 0)
        case cmd.MoveThief(x=x, y=y, climb=False):
            better = gain((x, y))
            return 500 + 50 * better - (300 if seen_at(state, (x, y)) else 0) if better > 0 else 0
        case cmd.MoveThief(x=x, y=y, climb=True):
            better = gain((x, y))
            spare = th.cubes - climb_cost(th) >= (0 if held else 1)
            return 400 + 50 * better if better > 0 and spare else 0
        case cmd.PeekTile():
            return (
                300
                if moves_left <= 0 or far == 0 or not any(gain(p) > 0 for p in _around(state, here))
                else 0
            )
        case cmd.HideLoot(cubes=c) if c <= th.loot_drop and (held or far > moves_left):
            return 150 + 10 * c
        case cmd.ThiefFlare():
            dark = sum(1 for c in state.cells if not c.lit and _manhattan((c.x, c.y), here) <= 1)
            return 120 + 20 * dark if dark and not held and far > moves_left else 0
        case cmd.VastEndTurn():
            return 1
    return 0


def _around(state: VastState, here: Pos) -> list[Pos]:
    g = geometry(state)
    return [p for s in SIDES if (p := step(here, s)) in g.cells]


def thief_decide(view: VastState, decision: str, options: Sequence[str], default: str | None) -> str:
    """The Thief's answer to his decision ``decision`` (its kind and where, ``peek:1,0``)."""
    kind, _, where = decision.partition(":")
    th = view.thief
    if kind == "thief-stats":
        return max(options, key=lambda o: stats_value(view, o))
    if kind == "peek":
        cell = cell_at(view, parse_pos(where))
        known = cell is not None and cell.tile != HIDDEN and tiles()[cell.tile].kind in REVEALED
        return "reveal" if known and "reveal" in options else "keep"
    if kind == "upgrade":
        return min(options, key=lambda o: UPGRADE_WISHES.index(o) if o in UPGRADE_WISHES else FAR)
    if kind == "spores-upgrade":
        return max(options, key=lambda o: UPGRADE_WISHES.index(o) if o in UPGRADE_WISHES else FAR)
    if kind == "evade-step" and th is not None:
        goals = thief_goals(view)
        stay = steps_to(view, goals, thief_here(view))
        steps = {o: steps_to(view, goals, parse_pos(o)) for o in options if o != "stay"}
        best = min(steps, key=lambda o: steps[o], default="stay")
        return best if best != "stay" and steps[best] < stay else "stay"
    return documented_default(options, default)


def war_value(state: VastState, card: str) -> int:
    """What War card ``card`` is worth to Goblins hunting Crystals (Vast rulebook §1. Carta Guerra, §2.
    Popolare): each Tribe that reaches Strength 3 (two of them smash a Crystal, §Attaccare) and its
    Strength; a Tribe pushed over 4 makes one scatter (overpopulation). Alone in the Dark (docs/vast/facts.md
    §7 Variant cards), a Rage blocks the discs of the Tribes it pushes over 4 while one is left (``_block``),
    and each tile its largest Population adds to the end of the turn's count costs ``WAR_TILE``."""
    war = next(w for w in goblin_file().war if w.id == card)
    gob = state.goblins
    if gob is None:
        return war.monsters + war.secrets
    solo = "alone-in-the-dark" in state.variants
    over = [t.name for t in gob.tribes if t.population + getattr(war, t.name) > 4]
    blocked = solo and len(over) < gob.rage
    value = (
        war.monsters + war.secrets - 3 * len(over) if blocked else war.monsters + war.secrets - 20 * len(over)
    )
    largest = 0
    for t in gob.tribes:
        grown = t.population if t.name in over and blocked else min(4, t.population + getattr(war, t.name))
        largest = max(largest, grown)
        power = rules.tribe_strength(state, msgspec.structs.replace(t, population=grown))
        value += 3 * min(power, 4) + (10 if power >= 3 else 0)
    if solo:
        value -= WAR_TILE * max(0, largest - max(2, crystal_tiles_counted(state)))
    return value


WAR_TILE = 6
"""Alone in the Dark, what a War card loses for each tile its largest Population adds to the end of the turn's
count above the Crystal tiles (``war_value``)."""


def goblins_decide(view: VastState, decision: str, options: Sequence[str], default: str | None) -> str:
    """The Goblins' answer to ``decision``: hunting Crystals (no Knight, no Dragon), the War card that brings
    the most Tribes to Strength 3 (``war_value``); with no Cave either (``_pack``), the Populate's block, the
    overpopulation, Cave-In's tiles and a revealed tile's rotation; Alone in the Dark, the end of turn's Dark
    tile (``_shape``); every other decision, its documented default."""
    if decision == "war-choice" and hunts_crystals(view):
        return max(options, key=lambda o: war_value(view, o))
    if decision == "block" and _pack(view):
        return _block(view, options)
    if decision == "overpopulation" and _pack(view):
        return _overpopulation(view, options)
    if decision.startswith("cave-in:") and _pack(view):
        return _cave_in(view, options)
    if decision == "shape" and hunts_crystals(view) and "alone-in-the-dark" in view.variants:
        return _shape(view, options)
    if decision.startswith("orient:") and _pack(view):
        return _orient(view, parse_pos(decision.partition(":")[2]), options)
    return documented_default(options, default)


def _block(view: VastState, options: Sequence[str]) -> str:
    """Hunting Crystals, the Tribes whose discs to block for 1 Rage each (Vast rulebook §2. Popola le Tribù):
    those the War card would push over 4 (an overpopulation scatters a Tribe, -2 Population), while a Rage
    is left (at 0, Malaise: -1 Strength to every Tribe)."""
    gob = view.goblins
    war = next((w for w in goblin_file().war if gob is not None and w.id == gob.war), None)
    if gob is None or war is None:
        return "none"
    over = [
        t.name for t in gob.tribes if t.population + getattr(war, t.name) > 4 and "pet-frog" not in t.monsters
    ]
    if "alone-in-the-dark" in view.variants:
        # Alone in the Dark, the largest Population is the end of turn's count when above the Crystal tiles
        # (docs/vast/facts.md §7 Variant cards): a Tribe already of Strength 3 takes no discs above that
        cap = max(3, crystal_tiles_counted(view))
        over += [
            t.name
            for t in gob.tribes
            if t.name not in over
            and t.population + getattr(war, t.name) > cap
            and rules.tribe_strength(view, t) >= 3
        ]
    wanted = "+".join(t.name for t in gob.tribes if t.name in over)
    return wanted if over and wanted in options and gob.rage > len(over) else "none"


def _shape(view: VastState, options: Sequence[str]) -> str:
    """Alone in the Dark, hunting Crystals, where the end of turn's Dark tile goes (docs/vast/facts.md §7 No
    Cave player): the space touching the most tiles (once the tile is revealed, each of its open sides with no
    tile beyond is filled from the stack), then the nearest a Tribe."""
    g = geometry(view)
    gob = view.goblins
    mine = [(t.x, t.y) for t in gob.tribes if t.x is not None and t.y is not None] if gob else []

    def key(option: str) -> tuple[int, int]:
        pos = parse_pos(option)
        near = min((_manhattan(pos, q) for q in mine), default=0)
        return -g.touching(pos), near

    return min(options, key=key)


def _orient(view: VastState, pos: Pos, options: Sequence[str]) -> str:
    """Hunting Crystals with no Cave (``_pack``), the rotation of a tile they revealed (Vast rulebook
    §Rivelare e risolvere le tessere Buie: the revealer orients it): the fewest open sides with no tile
    beyond (each is filled from the stack, and the Collapse begins once it is empty), then the fewest walls
    toward the tiles beside it."""
    cell = cell_at(view, pos)
    if cell is None or not cell.lit or cell.tile == HIDDEN:
        return options[0]
    g = geometry(view)

    def cost(option: str) -> tuple[int, int]:
        turned = Geometry(g.cells, {**g.lit, pos: (cell.tile, int(option))}, g.rockslides, g.bombs)
        shut = sum(1 for side in SIDES if step(pos, side) in g.cells and turned.wall_between(pos, side))
        return len(turned.open_edges(pos)), shut

    return min(options, key=cost)


def _plain_lit(view: VastState) -> list[str]:
    """The Lit tiles that are neither Crystal tiles nor the Entrance, ``"x,y"``: Cave-In's (``_cave_in``)."""
    return [
        f"{c.x},{c.y}"
        for c in view.cells
        if c.lit and c.tile != HIDDEN and tiles()[c.tile].kind != "crystal" and (c.x, c.y) != ENTRANCE
    ]


def _cave_in(view: VastState, options: Sequence[str]) -> str:
    """Hunting Crystals with no Cave (``_pack``), the tiles Cave-In collapses (docs/vast/facts.md §3
    Secrets cards; Vast rulebook §La Caverna, Gli altri giocatori): before the Collapse a fallen tile that
    is not a Crystal tile goes back under the stack (more turns before it is empty), a Crystal tile counts
    toward the 5 that collapse the Cave. So only Lit tiles that are not Crystal tiles (a Dark tile may hide
    one), and ``done`` when none is left."""
    plain = [o for o in _plain_lit(view) if o in options]
    return plain[0] if plain else "done" if "done" in options else options[0]


def _overpopulation(view: VastState, options: Sequence[str]) -> str:
    """Hunting Crystals, the Tribe an overpopulation scatters (Vast rulebook §2. Popola le Tribù): Leader when
    held, else the revealed Tribe of least Strength, the farthest from a Crystal token of those."""
    if "leader" in options:
        return "leader"
    crystals = [(c.x, c.y) for c in view.cells if c.crystal]

    def cost(name: str) -> tuple[int, int]:
        t = rules.tribe(view, name)
        if t.x is None or t.y is None:
            return rules.tribe_strength(view, t), 0
        near = min((_manhattan((t.x, t.y), p) for p in crystals), default=0)
        return rules.tribe_strength(view, t), -near

    return min(options, key=cost)


def collapse_danger(view: VastState, pos: Pos) -> int:
    """How much nearer removing ``pos`` brings the fifth collapsed Crystal tile, with which everyone loses
    when no Cave player plays (Vast rulebook §Il Collasso, §Varianti; docs/vast/facts.md §7): a Crystal tile
    the seat sees most (1,000); a Dark tile it cannot see some (it is turned over, and may be a Crystal tile);
    then each Crystal tile next to it (40), which then touches one tile fewer and comes sooner in the order
    (tiles touching the fewest others go first), and each unseen Dark tile next to it (10)."""
    cells = {(c.x, c.y): c for c in view.cells}

    def crystal(p: Pos) -> bool:
        cell = cells.get(p)
        return cell is not None and cell.tile != HIDDEN and tiles()[cell.tile].kind == "crystal"

    here = cells.get(pos)
    own = 1_000 if crystal(pos) else (60 if here is not None and here.tile == HIDDEN else 0)
    around = [step(pos, s) for s in SIDES]
    unseen = sum(1 for p in around if p in cells and cells[p].tile == HIDDEN)
    return own + 40 * sum(1 for p in around if crystal(p)) + 10 * unseen


def collapse_choice(view: VastState, options: Sequence[str]) -> str:
    """Without a Cave player, the tile to remove in the Collapse (decision ``collapse-remove``): every role
    loses when 5 Crystal tiles have collapsed, so each removes, of the tiles the order allows, the one of
    least ``collapse_danger``; the first listed among equals."""
    return min(options, key=lambda o: (collapse_danger(view, parse_pos(o)), options.index(o)))


def decide(view: VastState, pending: dict[str, Any], options: Sequence[str], rng: random.Random) -> str:
    """The bot's option for the pending decision ``pending`` (as the seat's ``legal-commands`` serves it),
    reading only ``view``: without a Cave player, the tile every role removes in the Collapse
    (``collapse_choice``); the Thief's own rules for his decisions, the Goblins' for their War card when they
    hunt Crystals (``goblins_decide``), the Knight's for a Treasure card while she hunts the Dragon
    (``knight_decide``), the documented default for every other (``rng`` is not drawn)."""
    if not options:
        raise ValueError("no option to choose from")
    if pending.get("decision") == "collapse-remove" and view.cave is None:
        return collapse_choice(view, options)
    default = pending.get("default")
    role_decide = ROLE_DECIDE.get(str(pending.get("piece")))
    if role_decide is not None:
        return role_decide(view, str(pending.get("decision", "")), options, default)
    return documented_default(options, default)


ROLE_DECIDE: dict[str, Callable[[VastState, str, Sequence[str], str | None], str]] = {
    "thief": thief_decide,
    "goblins": goblins_decide,
    "cave": cave_decide,
    "knight": knight_decide,
}
"""The roles whose bots answer some of their decisions by their own rules (``decide``); each answers every
other decision with its documented default (``documented_default``)."""


def choose(view: VastState, commands: Sequence[Any], rng: random.Random) -> Any:
    """The bot's command among ``commands`` (the seat's legal commands), reading only ``view``."""
    if not commands:
        raise ValueError("no legal command to choose from")
    if view.turn == "knight" and view.knight is not None:
        plan = knight_plan(view)  # once for every command
        return max(commands, key=lambda c: (knight_score(view, c, plan), rng.random()))
    if view.turn not in ("goblins", "dragon", "thief"):
        cave = CaveContext(view)  # once for every command
        return max(commands, key=lambda c: (cave_score(view, c, cave), rng.random()))
    if view.turn == "goblins":
        gob = goblins_context(view, commands)  # once for every command, with the legal attacks
        return max(commands, key=lambda c: (goblins_score(view, c, gob), rng.random()))
    if view.turn == "dragon":
        d = view.dragon
        drag = None
        if d is not None and d.x is not None and d.y is not None:
            drag = dragon_context(view, d, (d.x, d.y))  # once for every command
        return max(commands, key=lambda c: (dragon_score(view, c, drag), rng.random()))
    return max(commands, key=lambda c: (thief_score(view, c), rng.random()))
