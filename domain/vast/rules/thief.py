"""The Thief (Vast rulebook §Il Ladro; docs/vast/facts.md §6): Stat tokens and Action cubes, movement and
peeking at Dark tiles, the actions (Loot, Climb, Pickpocket, Pick Lock, Backstab, Hide Loot; Flare in the
setups that give it him), targeting by Stealth against Perception, carrying and stashing at the Entrance,
Upgrades, the attacks of the others on him, death and his Loot Drop, and his victory.

The Action die is a plain d6 (docs/vast/facts.md §6 Action die, ``uncertain``: only "4 or more" and "2 or
more" are used). Every roll is a pending chance node; every choice of his a decision addressed to ``thief``.
"""

from __future__ import annotations

from itertools import permutations

from dicelog.domain.core.events import DecisionRequested, DrawRequested, Event, RollRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import ENTRANCE, SIDES, center_hit, parse_pos, pos_key, side_towards, step
from dicelog.domain.vast.evolve import fold
from dicelog.domain.vast.rules import tribes
from dicelog.domain.vast.rules.common import (
    Then,
    cell_at,
    geometry,
    grit_change,
    perception,
    refuse,
    thief_pos,
    treasure_supply,
)
from dicelog.domain.vast.rules.pieces import (
    encounter,
    flame_wall,
    forced_discards,
    seen_by,
    target_perception,
    the_thief,
)
from dicelog.domain.vast.rules.tiles import reveal
from dicelog.domain.vast.state import (
    FLIP_ORDER,
    POWER_CARDS,
    SLOTH_ROOM,
    TRIBES,
    UPGRADES,
    ThiefRole,
    VastState,
    player_of,
    stat_tokens,
    thief_stat,
    thief_stealth,
    wakefulness,
)

Pos = tuple[int, int]
ACTION_DIE = 6
"""The Action die's faces (docs/vast/facts.md §6: a d6, uncertain)."""
NEEDS = {1: 4, 2: 2}
"""The Action die result a Pickpocket or Pick Lock needs by cubes spent (Vast rulebook: 1 cube 4+, 2 cubes 2+;
3 cubes always succeed)."""
BACKSTAB_GRIT = {1: 1, 2: 3, 3: 5}
"""Grit the Knight loses to a Light, Moderate, Heavy wound (Vast rulebook §Pugnalare alle Spalle)."""
CROSSBOW_RANGE = 3


def _ready(state: VastState) -> tuple[ThiefRole, Pos]:
    th = the_thief(state)
    if not th.assigned:
        raise refuse("thief.stats-first", "1. Assegna i Segnalini Statistica", "assign the Stat tokens first")
    here = thief_pos(state)
    if here is None:
        raise refuse("thief.off-map", "Morire", "the Thief is not on the map")
    return th, here


def _pay(th: ThiefRole, cost: int, what: str) -> None:
    if cost > th.cubes:
        raise refuse(
            "thief.no-cubes", "2. Muovi e Agisci", f"{what} costs {cost} Action cubes; {th.cubes} are left"
        )


# --- the turn ----------------------------------------------------------------------------------


def start(state: VastState) -> list[Event]:
    """The start of his turn: back on the Entrance when off the map (Vast rulebook §Preparazione, §Morire),
    then his Stat tokens (decision ``thief-stats``, ``<movement>-<stealth>-<thievery>``; with ALL 4 there is
    nothing to choose: Vast rulebook §Migliorie)."""
    th = the_thief(state)
    events: list[Event] = [ev.ThiefEntered()] if thief_pos(state) is None else []
    options = stat_options(th)
    if len(options) == 1:
        return events + stats_assigned(state, options[0])
    return [
        *events,
        DecisionRequested(decision="thief-stats", options=options, piece="thief", default=options[0]),
    ]


def stat_options(th: ThiefRole) -> tuple[str, ...]:
    """Every way to put his three Stat tokens on Movement, Stealth, Thievery (Vast rulebook §1. Assegna)."""
    return tuple(sorted({"-".join(str(v) for v in p) for p in permutations(stat_tokens(th))}, reverse=True))


def stats_assigned(state: VastState, option: str) -> list[Event]:
    """``ThiefStatsAssigned``: Action cubes equal to Thievery with its Stat Boost (at most 5)."""
    m, s, t = (int(v) for v in option.split("-"))
    th = the_thief(state)
    boost = 1 if "thievery+1" in th.upgrades else 0
    return [ev.ThiefStatsAssigned(movement=m, stealth=s, thievery=t, cubes=min(5, t + boost))]


def climb_cost(th: ThiefRole) -> int:
    """Cubes to cross a wall (Vast rulebook §Arrampicare: 2, 1 with Climbing Gear)."""
    return 2 - (1 if "climbing-gear" in th.upgrades else 0)


def move(state: VastState, command: cmd.MoveThief, then: Then) -> list[Event]:
    """Vast rulebook §2. Muovi e Agisci: one orthogonal tile onto any tile of the map, occupied or not, with
    Movement left and his movement not ended; across a wall with ``climb`` (§Arrampicare). The Flame Wall
    kills him (Vast rulebook §Poteri, Muro di Fiamme); entering the Entrance stashes what he carries, once its
    effects are resolved (§Trasportare: under the Flame Wall he dies first, or stashes there after evading
    it). Raises ``vast.thief.*``, ``vast.move.*``."""
    th, here = _ready(state)
    there = (command.x, command.y)
    side = side_towards(here, there)
    if side is None:
        raise refuse("move.not-adjacent", "2. Muovi e Agisci", "move one tile, horizontally or vertically")
    if cell_at(state, there) is None:
        raise refuse("move.no-tile", "2. Muovi e Agisci", "there is no tile there")
    if th.moving_done:
        raise refuse("move.ended", "2. Muovi e Agisci", "he ended his movement on the tile he looked at")
    if th.moves >= thief_stat(th, "movement"):
        raise refuse("move.no-movement-left", "2. Muovi e Agisci", "his Movement is spent")
    wall = geometry(state).wall_between(here, side)
    if wall and not command.climb:
        raise refuse("move.wall", "Arrampicare", "a wall: crossing it takes Climb")
    if command.climb and not wall:
        raise refuse("climb.no-wall", "Arrampicare", "there is no wall to climb there")
    cost = climb_cost(th) if command.climb else 0
    _pay(th, cost, "Climb")
    events: list[Event] = [ev.ThiefMoved(x=there[0], y=there[1], climbed=cost)]
    burned = flame_wall(fold(state, events), "thief", there)
    events += burned
    if not any(isinstance(e, ev.ThiefAttacked) for e in burned):  # the tile's effects first (§Trasportare)
        events += stash(fold(state, events))
    return then(state, events)


def stash(state: VastState) -> list[Event]:
    """On the Entrance, what he carries is stashed (Vast rulebook §Trasportare e Mettere al Sicuro): each
    token then goes on an Upgrade space (decision ``upgrade``)."""
    th = state.thief
    if th is None or thief_pos(state) != ENTRANCE or not (th.carried or th.gems):
        return []
    return [ev.TreasureStashed(tokens=th.carried + len(th.gems), gems=th.gems)]


def free_upgrades(th: ThiefRole) -> tuple[str, ...]:
    """The Upgrade spaces he may fill now: each once; Flip Stat Tokens left to right (Vast rulebook
    §Migliorie)."""
    flips = [u for u in FLIP_ORDER if u not in th.upgrades][:1]
    return tuple(u for u in UPGRADES if u not in th.upgrades and (u not in FLIP_ORDER or u in flips))


NO_UPGRADE = {4: 1, 5: 2}
"""The Thief's difficulty cards (docs/vast/facts.md §7): the first stashed tokens that get no Upgrade, at
Prowler (read as level 4: provisional, docs/vast/rulings.md) and Invader (level 5, the hardest)."""


def upgrade_step(state: VastState) -> list[Event]:
    """A stashed token goes on an Upgrade space of his choice (decision ``upgrade``; default the first);
    at the Thief's difficulty level 4 his first stashed token, at level 5 his first 2, get none
    (docs/vast/facts.md §7 Difficulty cards)."""
    th = the_thief(state)
    waiting = next((i for i, s in enumerate(state.todo) if s != "upgrade"), len(state.todo))
    bare = NO_UPGRADE.get(state.difficulty.get("thief", 3), 0)
    if th.stashed - waiting < bare:  # this token's place among all he stashed, counted from 0
        return [ev.StepPassed(step="upgrade", why=f"difficulty: his first {bare} stashed get no Upgrade")]
    options = free_upgrades(th)
    if not options:
        return [ev.StepPassed(step="upgrade", why="every Upgrade space is taken")]
    return [DecisionRequested(decision="upgrade", options=options, piece="thief", default=options[0])]


def peek(state: VastState, command: cmd.PeekTile, then: Then) -> list[Event]:
    """Vast rulebook §2. Muovi e Agisci: ending his movement on a Dark tile, he looks at it (``TilePeeked``:
    his secret) and may reveal it (decision ``peek:x,y``, ``reveal`` or ``keep``; default ``keep``)."""
    th, here = _ready(state)
    cell = cell_at(state, here)
    if cell is None or cell.lit:
        raise refuse("peek.not-dark", "2. Muovi e Agisci", "he looks only at a Dark tile he stands on")
    if th.moving_done:
        raise refuse("peek.done", "2. Muovi e Agisci", "he already ended his movement")
    x, y = here
    return [
        ev.TilePeeked(x=x, y=y, tile=cell.tile),
        DecisionRequested(
            decision=f"peek:{x},{y}", options=("reveal", "keep"), piece="thief", default="keep"
        ),
    ]


def peek_decided(state: VastState, where: Pos, option: str) -> list[Event]:
    """He reveals the tile he looked at (mode ``thief``: its tokens are placed, an Ambush never triggers)."""
    cell = cell_at(state, where)
    if option != "reveal" or cell is None or cell.lit:
        return []
    return reveal(state, where, None, "thief", "thief")


# --- his actions ----------------------------------------------------------------------------------


def loot(state: VastState, command: cmd.Loot, then: Then) -> list[Event]:
    """Vast rulebook §Saccheggiare: a Treasure token on his tile (1 cube), or a Dragon Gem: 1 cube and the
    Dragon die (a center hit kills him: a trap, no Loot Drop), 2 cubes safely."""
    th, here = _ready(state)
    cell = cell_at(state, here)
    if cell is None:
        raise refuse("loot.none-here", "Saccheggiare", "there is nothing to loot here")
    if command.gem is None:
        if cell.treasure < 1:
            raise refuse("loot.none-here", "Saccheggiare", "there is no Treasure token on his tile")
        if command.cubes != 1:
            raise refuse("loot.cubes", "Saccheggiare", "a Treasure token takes 1 cube")
    elif command.gem not in cell.gems:
        raise refuse("loot.none-here", "Saccheggiare", f"there is no {command.gem} Gem on his tile")
    _pay(th, command.cubes, "Loot")
    x, y = here
    events: list[Event] = [
        ev.ThiefActed(action="loot", cubes=command.cubes, target=command.gem or ""),
        ev.ThiefLooted(source="tile", gem=command.gem or "", x=x, y=y),
    ]
    if command.gem is not None and command.cubes == 1:
        events.append(RollRequested(reason=f"thief-gem:{command.gem}", dice=1, sides=6, piece="thief"))
        return events
    return then(state, events)


def target_at(state: VastState, target: str) -> Pos | None:
    """The target's tile, ``None`` when not on the map."""
    if target == "knight":
        k = state.knight
        return None if k is None or k.health <= 0 else (k.x, k.y)
    if target == "dragon":
        d = state.dragon
        return None if d is None or d.x is None or d.y is None else (d.x, d.y)
    if state.goblins is None:
        return None
    t = tribes.tribe(state, target)
    return tribes.where(t) if tribes.on_map(t) and not t.lurking else None


def in_sight(state: VastState, here: Pos, there: Pos) -> bool:
    """Hand Crossbow range (Vast rulebook §Pugnalare alle Spalle; docs/vast/rulings.md): a Lit tile in a
    straight line up to 3 tiles away, every tile between Lit and no wall on the way."""
    if here == there:
        return True
    dx, dy = there[0] - here[0], there[1] - here[1]
    if (dx and dy) or abs(dx + dy) > CROSSBOW_RANGE:
        return False
    side = side_towards(here, (here[0] + (dx > 0) - (dx < 0), here[1] + (dy > 0) - (dy < 0)))
    if side is None:
        return False
    g = geometry(state)
    at = here
    while at != there:
        if g.wall_between(at, side):
            return False
        at = step(at, side)
        cell = cell_at(state, at)
        if cell is None or not cell.lit:
            return False
    return True


def _target(state: VastState, target: str, action: str, *, ranged: bool = False) -> tuple[ThiefRole, Pos]:
    """Checks common to Pickpocket and Backstab (Vast rulebook §Interagire con gli Altri): the target in play,
    on his tile (in sight with the Hand Crossbow), once a turn, his Stealth above its Perception (Armor)."""
    th, here = _ready(state)
    if target not in state.roles and not (target in TRIBES and "goblins" in state.roles):
        raise refuse("thief.no-target", "Interagire con gli Altri", f"the {target} is not in play")
    there = target_at(state, target)
    if there is None:
        raise refuse("thief.no-target", "Interagire con gli Altri", f"the {target} is not on the map")
    if there != here and not (ranged and in_sight(state, here, there)):
        raise refuse("thief.not-here", "Interagire con gli Altri", f"the {target} is not on his tile")
    if player_of(target) in th.targeted:
        raise refuse(
            "thief.targeted", "Consigli Rapidi", f"he already targeted the {player_of(target)} this turn"
        )
    if thief_stealth(th) <= target_perception(state, target):
        raise refuse(
            "thief.seen",
            "Interagire con gli Altri",
            f"{action} needs his Stealth ({thief_stealth(th)}) above the {target}'s "
            f"{'Armor' if target == 'dragon' else 'Perception'} ({target_perception(state, target)})",
        )
    return th, here


def pickpocket_options(state: VastState, target: str) -> tuple[str, ...]:
    """What a Pickpocket may take (Vast rulebook §Borseggiare): of the Knight a face-up Treasure card or
    ``hidden`` (a face-down one at random); of the Goblins ``hidden`` (a Secrets card of the hand, unseen) or
    the face-up ``goblin-ruby``; of the Dragon ``greed`` (a Wakefulness cube back to Greed, with room
    there)."""
    if target == "knight":
        k = state.knight
        return () if k is None else (*k.face_up, *(("hidden",) if k.treasures else ()))
    if target == "dragon":
        d = state.dragon
        if d is None or d.sloth["greed"] >= SLOTH_ROOM["greed"] or wakefulness(d) - d.locked < 1:
            return ()
        return ("greed",)
    gob = state.goblins
    if gob is None:
        return ()
    return (*(("goblin-ruby",) if "goblin-ruby" in gob.face_up else ()), *(("hidden",) if gob.hand else ()))


def pickpocket(state: VastState, command: cmd.Pickpocket, then: Then) -> list[Event]:
    """Vast rulebook §Borseggiare. Raises ``vast.thief.*`` (``thief.nothing-to-take`` for a target with
    nothing to take)."""
    th, _ = _target(state, command.target, "Pickpocket")
    if not pickpocket_options(state, command.target):
        raise refuse("thief.nothing-to-take", "Borseggiare", f"the {command.target} has nothing he can take")
    _pay(th, command.cubes, "Pickpocket")
    acted: list[Event] = [ev.ThiefActed(action="pickpocket", cubes=command.cubes, target=command.target)]
    return acted + _attempt(state, "pickpocket", command.target, command.cubes, then)


def _attempt(state: VastState, action: str, target: str, cubes: int, then: Then) -> list[Event]:
    if cubes >= 3:
        done: list[Event] = [ev.ThiefActionRolled(action=action, success=True, target=target)]
        return then(state, done + _succeeded(fold(state, done), action, target))
    reason = f"thief-action:{action}:{target or '-'}:{cubes}"
    return [RollRequested(reason=reason, dice=1, sides=ACTION_DIE, piece="thief")]


def action_rolled(state: VastState, reason: str, face: int) -> list[Event]:
    """The Action die of a Pickpocket or Pick Lock (``thief-action:<action>:<target>:<cubes>[:reroll]``):
    Sticky Fingers re-rolls a failed Pickpocket once a turn (Vast rulebook §Borseggiare)."""
    _, action, target, cubes, *again = reason.split(":")
    target = "" if target == "-" else target
    th = the_thief(state)
    success = face >= NEEDS[int(cubes)]
    rolled: list[Event] = [
        ev.ThiefActionRolled(action=action, success=success, face=face, target=target, rerolled=bool(again))
    ]
    if success:
        return rolled + _succeeded(fold(state, rolled), action, target)
    if action == "pickpocket" and "sticky-fingers" in th.upgrades and not th.sticky_used and not again:
        return [*rolled, RollRequested(reason=f"{reason}:reroll", dice=1, sides=ACTION_DIE, piece="thief")]
    return rolled


def _succeeded(state: VastState, action: str, target: str) -> list[Event]:
    """The harm of a successful Pickpocket (its Treasure token comes next: the ``thief-supply`` step), or the
    Vault opened by Pick Lock."""
    if action == "pick-lock":
        here = thief_pos(state) or ENTRANCE
        return [ev.VaultOpened(x=here[0], y=here[1])]
    if target == "dragon":
        return [
            ev.ThiefStole(target="dragon"),
            ev.SlothCubeMoved(source="wakefulness", target="greed", why="pickpocket"),
        ]
    owner = "knight" if target == "knight" else "goblins"
    harm: list[Event] = [] if owner == "knight" else [tribes.rage(1, "attacked")]
    options = pickpocket_options(state, owner)
    if not options:
        return harm
    if len(options) == 1:
        return harm + pickpocket_take(state, owner, options[0])
    return [
        *harm,
        DecisionRequested(
            decision=f"pickpocket:{owner}", options=options, piece="thief", default=options[-1]
        ),
    ]


def pickpocket_take(state: VastState, owner: str, option: str) -> list[Event]:
    """The card taken: a face-up one by name, ``hidden`` a face-down one drawn at random (the draw's card is
    seen by its owner, not by him)."""
    if option != "hidden":
        return [ev.ThiefStole(target=owner, card=option)]
    if owner == "knight":
        k = state.knight
        cards = () if k is None else k.treasures
        deck = "knight-treasures"
    else:
        gob = state.goblins
        cards = () if gob is None else gob.hand
        deck = "goblin-secrets"
    if not cards:
        return []
    return [DrawRequested(reason="pickpocket", deck=deck, cards=tuple(sorted(cards)), count=1, piece="thief")]


def supply_step(state: VastState) -> list[Event]:
    """The Treasure token a Pickpocket or Pick Lock takes: from the Cave's supply, or, with it empty, from a
    tile of the map of his choice (Vast rulebook §Celare il Bottino, last paragraph; decision
    ``loot-from``)."""
    if treasure_supply(state) > 0:
        return [ev.ThiefLooted(source="supply", step="thief-supply")]
    spots = tuple(pos_key((c.x, c.y)) for c in state.cells if c.treasure > 0)
    if not spots:
        return [ev.StepPassed(step="thief-supply", why="no Treasure token is left")]
    return [DecisionRequested(decision="loot-from", options=spots, piece="thief", default=spots[0])]


def pick_lock_cost(th: ThiefRole, cubes: int) -> int:
    """Cubes Pick Lock costs at a level (Vast rulebook §Scassinare: 1, 2, 3; one fewer with the Lock Picking
    Kit)."""
    return max(0, cubes - (1 if "lock-picking-kit" in th.upgrades else 0))


def pick_lock(state: VastState, command: cmd.PickLock, then: Then) -> list[Event]:
    """Vast rulebook §Scassinare: open the Vault on his tile, each once a turn. Raises ``vast.vault.*``."""
    th, here = _ready(state)
    cell = cell_at(state, here)
    if cell is None or not cell.vault:
        raise refuse("vault.none-here", "Scassinare", "there is no Vault on his tile")
    if here in th.vaults_tried:
        raise refuse("vault.tried", "Scassinare", "each Vault may be tried once a turn")
    cost = pick_lock_cost(th, command.cubes)
    _pay(th, cost, "Pick Lock")
    acted: list[Event] = [ev.ThiefActed(action="pick-lock", cubes=cost)]
    return acted + _attempt(state, "pick-lock", "", command.cubes, then)


def backstab(state: VastState, command: cmd.Backstab, then: Then) -> list[Event]:
    """Vast rulebook §Pugnalare alle Spalle: a Light, Moderate or Heavy wound (1, 2, 3 cubes). Raises
    ``vast.thief.*``."""
    th, _ = _target(state, command.target, "Backstab", ranged="hand-crossbow" in the_thief(state).upgrades)
    _pay(th, command.cubes, "Backstab")
    events: list[Event] = [
        ev.ThiefActed(action="backstab", cubes=command.cubes, target=command.target),
        ev.ThiefWounded(target=command.target, wound=command.cubes),
    ]
    if command.target == "knight":
        events += grit_change(fold(state, events), -BACKSTAB_GRIT[command.cubes], "backstab")
    elif command.target == "dragon":
        events += forced_discards(fold(state, events), command.cubes, "backstab")
    else:
        t = tribes.tribe(state, command.target)
        loss = min(t.population, command.cubes)
        events += [ev.PopulationLost(tribe=t.name, count=loss, why="backstab"), tribes.rage(1, "attacked")]
        after = fold(state, events)
        if tribes.tribe(after, t.name).population <= 0:
            events.append(tribes.scatter(after, tribes.tribe(after, t.name)))
    return then(state, events)


def hide_loot(state: VastState, command: cmd.HideLoot, then: Then) -> list[Event]:
    """Vast rulebook §Celare il Bottino: the Loot Drop level goes down by the cubes spent (not below 0)."""
    th, _ = _ready(state)
    if th.loot_drop <= 0:
        raise refuse("loot-drop.zero", "Celare il Bottino", "his Loot Drop level is 0 already")
    _pay(th, command.cubes, "Hide Loot")
    return then(
        state,
        [
            ev.ThiefActed(action="hide-loot", cubes=command.cubes),
            ev.LootHidden(count=min(command.cubes, th.loot_drop)),
        ],
    )


def flare(state: VastState, command: cmd.ThiefFlare, then: Then) -> list[Event]:
    """Flare (docs/vast/facts.md §7 Variant cards): on his own space, 1 Action cube a use; the Dragon die is
    rolled round it."""
    th, here = _ready(state)
    if "flare:thief" not in state.variants:
        raise refuse(
            "flare.not-in-play", "Consigli Rapidi - Varianti", "the Thief has no Flare in this setup"
        )
    _pay(th, 1, "Flare")
    return [
        ev.ThiefActed(action="flare", cubes=1),
        RollRequested(reason=f"thief-flare:{pos_key(here)}", dice=1, sides=6, piece="thief"),
    ]


def check_end(state: VastState) -> None:
    """Vast rulebook §Riepilogo del Turno: the turn ends when he chooses (his unused cubes are removed)."""
    the_thief(state)


# --- the others against him -------------------------------------------------------------------------


def knight_attack(state: VastState, command: cmd.AttackThief, then: Then) -> list[Event]:
    """Vast rulebook §Interagire con il Ladro: the Knight on his tile, her Perception above his Stealth,
    spends an Encounter; he dies and she gains Grit equal to his Loot Drop level. Raises ``vast.thief.*``."""
    k = state.knight
    if k is None:
        raise refuse("no-knight", "Il Cavaliere", "the Knight is not in play")
    if thief_pos(state) != (k.x, k.y):
        raise refuse("thief.not-here", "Interagire con il Ladro", "the Thief is not on her tile")
    if not seen_by(state, perception(k)):
        raise refuse(
            "thief.unseen", "Interagire con il Ladro", "her Perception must be greater than his Stealth"
        )
    events = encounter(state, k, 1, "attacking the Thief")
    events.append(ev.ThiefAttacked(by="knight", why="attack"))
    return then(state, events)


def hit_step(state: VastState, by: str, why: str) -> list[Event]:
    """An attack on him (``thief-hit:<by>:<why>``): Unnatural Evasion rolls the first of each turn (Vast
    rulebook §Migliorie), else he dies. A Gem's trap is no player's attack."""
    th = the_thief(state)
    if thief_pos(state) is None:
        return _gone(state)
    if by != "trap" and "unnatural-evasion" in th.upgrades and not th.evaded:
        return [RollRequested(reason=f"evasion:{by}:{why}", dice=1, sides=ACTION_DIE, piece="thief")]
    return killed(state, by, why)


def _gone(state: VastState) -> list[Event]:
    """The attack finds him off the map already (killed by an earlier hit of the same Power)."""
    return [ev.StepPassed(step=state.todo[0], why="the Thief is off the map")]


def evasion_rolled(state: VastState, reason: str, face: int) -> list[Event]:
    """Unnatural Evasion (Vast rulebook §Migliorie): 4+ and the attack fails, and he may step to a tile next
    to his (decision ``evade-step``, default ``stay``); else he dies."""
    _, by, why = reason.split(":")
    if face < 4:
        return killed(state, by, why)
    here = thief_pos(state) or ENTRANCE
    g = geometry(state)
    spots = [p for s in SIDES if (p := step(here, s)) in g.cells and not g.wall_between(here, s)]
    evaded: list[Event] = [ev.ThiefEvaded(face=face)]
    if not spots:
        return evaded
    options = ("stay", *(pos_key(p) for p in spots))
    return [*evaded, DecisionRequested(decision="evade-step", options=options, piece="thief", default="stay")]


def killed(state: VastState, by: str, why: str) -> list[Event]:
    """Vast rulebook §Morire: he drops what he carries and leaves the map; his killer gains the Loot Drop
    bonus: the Knight Grit, the Goblins Secrets cards or Rage (decision ``loot-drop:n``; a Tribe's attack also
    costs them 1 Rage, §Attaccare il Ladro), the Dragon Power cards (a Gem's trap or a Dragon die center hit
    gives none)."""
    th = the_thief(state)
    level = 0 if by == "trap" else th.loot_drop
    events: list[Event] = [ev.ThiefKilled(by=by, why=why, loot_drop=level)]
    after = fold(state, events)
    if by in TRIBES and why == "attack":
        events.append(tribes.rage(-1, "thief"))
    if level <= 0:
        return events
    if by == "knight":
        return events + grit_change(after, level, "loot-drop")
    if by in TRIBES:
        return [
            *events,
            DecisionRequested(
                decision=f"loot-drop:{level}", options=("secrets", "rage"), piece="goblins", default="secrets"
            ),
        ]
    if by == "dragon" and after.dragon is not None:
        left = tuple(c for c in POWER_CARDS if c not in after.dragon.hand)
        if left:
            return [
                *events,
                DrawRequested(
                    reason="loot-drop", deck="power", cards=left, count=min(level, len(left)), piece="dragon"
                ),
            ]
    return events


def loot_drop_decided(state: VastState, level: int, option: str) -> list[Event]:
    """The Goblins' Loot Drop bonus: ``secrets`` draws that many Secrets cards, ``rage`` raises Rage."""
    if option == "rage":
        return [tribes.rage(level, "loot-drop")]
    draw = tribes.deck_draw(state, "secrets", level, "loot-drop")
    return [] if draw is None else [draw]


def gem_rolled(state: VastState, reason: str, face: int) -> list[Event]:
    """A Gem looted with 1 cube (Vast rulebook §Saccheggiare): a center hit of the Dragon die and it was a
    trap."""
    if center_hit(face):
        return [ev.ThiefAttacked(by="trap", why="gem")]
    return []


def decided(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    """The Thief's decisions and the Goblins' Loot Drop choice."""
    if kind == "thief-stats":
        return stats_assigned(state, option)
    if kind == "peek":
        return peek_decided(state, parse_pos(where), option)
    if kind == "upgrade":
        return [ev.UpgradeTaken(upgrade=option)]
    if kind == "pickpocket":
        return pickpocket_take(state, where, option)
    if kind == "loot-from":
        x, y = parse_pos(option)
        return [ev.ThiefLooted(source="map", x=x, y=y, step="thief-supply")]
    if kind == "evade-step":
        if option == "stay":  # he evaded on the Entrance (its Flame Wall): he stashes now (§Trasportare)
            return stash(state)
        x, y = parse_pos(option)

        moved: list[Event] = [ev.ThiefMoved(x=x, y=y, forced=True)]
        return moved + stash(fold(state, moved))
    if kind == "spores-upgrade":
        return [ev.UpgradeLost(upgrade=option)]
    if kind == "loot-drop":
        return loot_drop_decided(state, int(where), option)
    return []


THIEF_DECISIONS = (
    "thief-stats",
    "peek",
    "upgrade",
    "pickpocket",
    "loot-from",
    "evade-step",
    "spores-upgrade",
    "loot-drop",
)


def candidates(state: VastState) -> list[cmd.VastCommand]:
    """Every Thief command worth trying now (``legal_commands`` keeps those ``decide`` accepts)."""
    here = thief_pos(state)
    th = state.thief
    if th is None or here is None:
        return [cmd.VastEndTurn(role="thief")]
    out: list[cmd.VastCommand] = []
    for s in SIDES:
        x, y = step(here, s)
        out += [cmd.MoveThief(x=x, y=y), cmd.MoveThief(x=x, y=y, climb=True)]
    out.append(cmd.PeekTile())
    out.append(cmd.Loot())
    cell = cell_at(state, here)
    for g in cell.gems if cell is not None else ():
        out += [cmd.Loot(gem=g), cmd.Loot(gem=g, cubes=2)]  # type: ignore[arg-type]  # gem names kept as str
    targets: list[cmd.ThiefTarget] = ["knight", "dragon", *TRIBES]
    for t in targets:
        for c in (1, 2, 3):
            out.append(cmd.Pickpocket(target=t, cubes=c))
            out.append(cmd.Backstab(target=t, cubes=c))
    out += [cmd.PickLock(cubes=c) for c in (1, 2, 3)]
    out += [cmd.HideLoot(cubes=c) for c in (1, 2, 3)]
    out.append(cmd.ThiefFlare())
    out.append(cmd.VastEndTurn(role="thief"))
    return out


def shoot(state: VastState, command: cmd.ShootThief, then: Then) -> list[Event]:
    """``ShootThief``: the Enchanted Bow (Vast rulebook §Tesori, Arco Incantato: "colpire il Drago o il Ladro
    fino a 5 tessere di distanza in linea retta ... il Ladro viene ucciso"): its cube placed this turn, once a
    turn, no Encounter; up to 5 tiles in a straight line over any tiles; her Perception must be greater than
    his Stealth (Vast rulebook §Interagire con gli Altri). Raises ``vast.thief.*``."""
    k = state.knight
    if k is None:
        raise refuse("no-knight", "Il Cavaliere", "the Knight is not in play")
    if not k.placed.get("enchanted-bow") or k.enchanted_bow_used:
        raise refuse("thief.bow", "Tesori", "the Enchanted Bow needs its Hero cube this turn, once a turn")
    where = thief_pos(state)
    if where is None:
        raise refuse("thief.bow", "Tesori", "the Thief is not on the map")
    dx, dy = where[0] - k.x, where[1] - k.y
    if (dx and dy) or abs(dx) + abs(dy) > 5:
        raise refuse("thief.bow", "Tesori", "the Enchanted Bow shoots up to 5 tiles in a straight line")
    if not seen_by(state, perception(k)):
        raise refuse(
            "thief.unseen", "Interagire con il Ladro", "her Perception must be greater than his Stealth"
        )
    return then(state, [ev.ThiefShot(), ev.ThiefAttacked(by="knight", why="bow")])
