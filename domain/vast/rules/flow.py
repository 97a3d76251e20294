"""The driver of a Vast game: the chain of a turn, turns, filling open edges, the steps (resolving tiles,
the end of a turn without a Cave player), wins, and every answer to a pending roll, draw or decision (Vast
rulebook; docs/vast/facts.md). It imports the roles' modules and calls their phases; they never import it: a
role's command handler is handed ``then_advance`` (``common.Then``). Reveals, Treasure and Event cards and
Ambushes are in ``tiles`` and ``encounters``, below the roles.

Vast rulebook orders a reveal as: turn the tile, place it oriented, the Cave fills each open edge, resolve the
tile, gain 1 Grit (§Rivelare e risolvere le tessere Buie). The steps still to do are kept in
``VastState.todo``; ``advance`` runs them in order, filling open edges first whenever there are any
(§Tessere Caverna: "every time a tile has open sides ... you must place"), and stops at the first
pending roll, draw or decision. Each step is completed by an event naming it (``step``).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    Event,
    RollRequested,
)
from dicelog.domain.core.ruleset import Answer
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import ENTRANCE, SIDES, center_hit, die_tiles, parse_pos, pos_key, step
from dicelog.domain.vast.content import goblin_file
from dicelog.domain.vast.content import tile as tile_data
from dicelog.domain.vast.evolve import fold, parse_step
from dicelog.domain.vast.rules import dragon, goblins, thief
from dicelog.domain.vast.rules import infestation as line_c
from dicelog.domain.vast.rules.common import (
    Tried,
    cell_at,
    crystal_tiles_counted,
    first_open_edge,
    geometry,
    grit_change,
    is_crystal,
    owned_cubes,
    pieces_at,
    pieces_on,
    placeable,
    refill_hand,
    removable,
    stack_size,
    strength,
    the_knight,
    thief_pos,
    tile_draw,
    treasure_spots,
    treasure_supply,
)
from dicelog.domain.vast.rules.encounters import (
    ambush,
    ambush_strike,
    event_choice,
    event_offer,
    event_token_met,
    hurt,
    keep_decision,
    play_event,
    treasure_choice,
    treasure_offer,
    unhurt,
)
from dicelog.domain.vast.rules.tiles import (
    event_tokens,
    ordered_events,
    place_dark,
    remove_stepped_off,
    remove_tile,
    reveal,
)
from dicelog.domain.vast.state import VastState, spirit, thief_stat

PENDING = (RollRequested, DrawRequested, DecisionRequested)
OMEN_TABLE = ((0, 1), (1, 2), (3, 3), (6, 4), (10, 5))
"""Vast rulebook §1. Raccogli i Segnalini Presagio: Treasure + Crystal tokens on the map -> Omens drawn (0: 1,
1: 2, 2-3: 3, 4-6: 4, 7-10: 5, 11+: 6)."""


def ends_pending(events: list[Event]) -> bool:
    return bool(events) and isinstance(events[-1], PENDING)


def then_advance(state: VastState, events: list[Event], tried: Tried | None = None) -> list[Event]:
    """``events``, followed by ``advance`` of the state they lead to unless they end at a pending node
    (``tried``: see ``advance``)."""
    if ends_pending(events):
        return events
    return events + advance(fold(state, events), tried)


def then_advance_folded(
    events: list[Event], folded: VastState, n: int, tried: Tried | None = None
) -> list[Event]:
    """``then_advance(state, events, tried)`` where ``folded`` is ``fold(state, events[:n])``, already made by
    the command's rule: only the other events are folded again."""
    if ends_pending(events):
        return events
    return events + advance(fold(folded, events[n:]), tried)


# --- the driver -------------------------------------------------------------------------------


def advance(state: VastState, tried: Tried | None = None) -> list[Event]:
    """Every event the rules cause by themselves from ``state``, up to the first pending node. ``tried``:
    what ``legal_commands`` learnt of the state it tries commands on (``common.Tried``), or ``None``."""
    out: list[Event] = []
    for _ in range(10_000):
        new = _next(state, tried)
        if not new:
            return out
        out += new
        state = fold(state, new)
        if ends_pending(new) or state.winner is not None:
            return out
    raise InvariantViolated("vast-advance", "the chain did not settle")


def _next(state: VastState, tried: Tried | None = None) -> list[Event]:
    if state.winner is not None or state.phase != "play":
        return []
    won = check_win(state)
    if won:
        return won
    top_up = event_top_up(state)
    if top_up is not None:
        return [top_up]
    fill = fill_open_edge(state, tried)
    if fill:
        return fill
    if state.todo:
        return run_step(state, state.todo[0])
    if state.turn == "knight" and state.turn_over:
        return end_turn(state, "knight")
    if state.turn == "knight" and state.knight is not None and state.knight.health <= 0:
        # docs/vast/facts.md §7 Knight, Dragon and Cave: a dead Knight skips her turns
        return end_turn(state, "knight")
    if state.turn == "goblins":
        return goblins.next_step(state)
    if state.turn == "dragon":
        return dragon.next_step(state)
    return []


def check_win(state: VastState) -> list[Event]:
    """Each role's §Come Vincere, with docs/vast/facts.md §7's changes by setup: the Cave when 5 Crystal tiles
    have collapsed (Vast rulebook §Il Collasso), everyone losing then without a Cave player (Vast rulebook
    §Varianti); the Knight by killing the Dragon, without it with 5 Crystals smashed back on the Entrance; the
    Goblins by killing the Knight, without her the Dragon, without both with 5 Crystals smashed; the Dragon by
    its escape; the Thief by stashing 6 tokens; an Ambush killing the Knight wins for the Cave (Knight vs
    Cave) or the Dragon (Knight vs Dragon), with or without a Thief (docs/vast/facts.md §7 Any 2 roles +
    Thief); in Knight vs Thief she smashes and he stashes the number agreed (5 or 6), and an Ambush killing
    her wins for him."""
    k = state.knight
    d = state.dragon
    if state.crystal_tiles_collapsed >= 5 and "cave" in state.roles:
        return [ev.GameWon(winner="cave", reason="5 Crystal tiles collapsed: the Cave collapses")]
    if state.crystal_tiles_collapsed >= 5:  # Vast rulebook §Varianti; docs/vast/facts.md §7 No Cave player
        return [
            ev.GameWon(
                winner="everyone-lost",
                reason="5 Crystal tiles collapsed with no Cave player: the Cave collapses and everyone loses",
            )
        ]
    if d is not None and d.health <= 0:
        if "knight" in state.roles:
            return [ev.GameWon(winner="knight", reason="the Knight killed the Dragon")]
        return [ev.GameWon(winner="goblins", reason="the Goblins killed the Dragon")]
    if d is not None and d.surfaced and (d.x, d.y) == ENTRANCE:
        return [ev.GameWon(winner="dragon", reason="the Dragon awoke, surfaced and escaped by the Entrance")]
    if k is not None and k.health <= 0 and "goblins" in state.roles:
        return [ev.GameWon(winner="goblins", reason="the Goblins killed the Knight")]
    # docs/vast/facts.md §7 Solo: she plays alone
    if k is not None and k.health <= 0 and state.roles == ("knight",):
        return [ev.GameWon(winner="everyone-lost", reason="the Knight died alone in the dark")]
    # docs/vast/facts.md §7 Any 2 roles + Thief: their 2-player rules
    pair = tuple(r for r in state.roles if r != "thief")
    if k is not None and k.health <= 0 and pair == ("knight", "cave"):
        return [ev.GameWon(winner="cave", reason="the Knight died in an Ambush")]
    if k is not None and k.died_of == "ambush" and pair == ("knight", "dragon"):
        # docs/vast/facts.md §7 Knight vs Dragon
        return [ev.GameWon(winner="dragon", reason="the Knight died in an Ambush")]
    if k is not None and k.died_of == "ambush" and state.roles == ("knight", "thief"):
        # docs/vast/facts.md §7 Knight vs Thief
        return [ev.GameWon(winner="thief", reason="the Knight died in an Ambush")]
    th = state.thief
    needed = agreed_crystals(state) or 6
    # Vast rulebook §Il Ladro, Come Vincere; docs/vast/facts.md §7 Knight vs Thief
    if th is not None and th.stashed >= needed:
        return [
            ev.GameWon(winner="thief", reason=f"the Thief stashed {needed} Treasures and broke the curse")
        ]
    g = state.goblins
    if g is not None and k is None and d is None and g.smashed >= 5:
        # Vast rulebook §I Goblin
        return [ev.GameWon(winner="goblins", reason="the Goblins smashed 5 Crystals")]
    needed = agreed_crystals(state) or 5
    if k is not None and k.smashed >= needed and (k.x, k.y) == ENTRANCE and "dragon" not in state.roles:
        return [
            ev.GameWon(
                winner="knight", reason=f"{needed} Crystals smashed and the Knight escaped by the Entrance"
            )
        ]
    return []


def agreed_crystals(state: VastState) -> int | None:
    """Knight vs Thief: the Crystals she smashes and the Treasures he stashes to win, agreed at the table
    (docs/vast/facts.md §7: 5 or 6; ``crystals:N`` among the variant cards); ``None`` in the other setups."""
    return next((int(v.partition(":")[2]) for v in state.variants if v.startswith("crystals:")), None)


# --- turns ------------------------------------------------------------------------------------


def end_turn(state: VastState, role: str) -> list[Event]:
    """``TurnEnded`` and the next role's turn (docs/vast/facts.md §7 Turn order), a new round when the order
    wraps. Without a Cave player, the end of the turn first owes the Cave's work (``end_of_turn``)."""
    if "cave" not in state.roles and not state.ending:
        owed = end_of_turn(state, role)
        if owed:
            return owed
    events: list[Event] = [ev.VastTurnEnded(role=role)]
    roles = state.roles
    i = roles.index(role)
    nxt = roles[(i + 1) % len(roles)]
    rnd = state.round
    if i + 1 >= len(roles):
        rnd += 1
        events.append(ev.VastRoundStarted(round=rnd))
    return events + start_turn(fold(state, events), nxt, rnd)


def end_of_turn(state: VastState, role: str) -> list[Event]:
    """The end of a turn without a Cave player (Vast rulebook §Varianti; docs/vast/facts.md §7 No Cave player;
    docs/vast/rulings.md): the holder of the Past Plunder card places a Treasure token (``plunder``); then a
    Dark tile is drawn from the stack and placed (``shape``) or, once the Collapse has begun, 3 tiles are
    removed (``remove``). The Collapse begins at the end of the first turn that finds the stack empty. A dead
    Knight skipping her turn owes nothing."""
    k = state.knight
    if role == "knight" and k is not None and k.health <= 0:
        return []
    steps = ["plunder"] if f"past-plunder:{role}" in state.variants else []
    events: list[Event] = []
    if not state.collapse and not stack_size(state):
        events.append(ev.CollapseBegun())
    collapsing = state.collapse or bool(events)
    if "alone-in-the-dark" in state.variants:  # docs/vast/facts.md §7 Solo: this many instead of 1 (or 3)
        steps += ["remove" if collapsing else "shape"] * alone_count(state, role)
    else:
        steps += ["remove"] * 3 if collapsing else ["shape"]
    return [*events, ev.TurnEnding(role=role, steps=tuple(steps))]


def alone_count(state: VastState, role: str) -> int:
    """Alone in the Dark (docs/vast/facts.md §7 Variant cards; Vast rulebook §Consigli Rapidi, Varianti): the
    tiles placed (or removed in the Collapse) at the end of a solo turn, the largest of the Crystal tiles
    revealed (collapsed ones included) and the role's own number: the Knight's Hero cubes, the Goblins'
    largest Population, the Dragon's Spirit, the Thief's Movement."""
    crystals = crystal_tiles_counted(state)
    own = 0
    if role == "knight" and state.knight is not None:
        own = owned_cubes(state.knight)
    elif role == "goblins" and state.goblins is not None:
        own = max(t.population for t in state.goblins.tribes)
    elif role == "dragon" and state.dragon is not None:
        own = spirit(state.dragon)
    elif role == "thief" and state.thief is not None:
        own = thief_stat(state.thief, "movement")
    return max(crystals, own)


def _nearest(state: VastState, spots: list[tuple[int, int]], role: str) -> tuple[int, int]:
    """Of ``spots``, the one nearest ``role``'s piece (the Dragon, the Knight, a Tribe on the map)."""
    mine: list[tuple[int, int]] = []
    if role == "dragon" and state.dragon is not None and state.dragon.x is not None:
        mine = [(state.dragon.x, state.dragon.y or 0)]
    elif role == "knight" and state.knight is not None:
        mine = [(state.knight.x, state.knight.y)]
    elif role == "goblins" and state.goblins is not None:
        mine = [(t.x, t.y) for t in state.goblins.tribes if t.x is not None and t.y is not None]
    elif role == "thief" and (thief := thief_pos(state)) is not None:
        mine = [thief]
    if not mine:
        return spots[0]
    return min(spots, key=lambda p: min(abs(p[0] - q[0]) + abs(p[1] - q[1]) for q in mine))


def plunder_step(state: VastState) -> list[Event]:
    """Past Plunder (docs/vast/facts.md §7 Variant cards): a Treasure token on a Dark tile with no piece and
    no token (decision ``plunder``, default the one nearest the holder's piece); with none, a new tile is
    drawn and placed first (decision ``plunder-tile``)."""
    role = state.turn or ""
    if treasure_supply(state) < 1:
        return [ev.StepPassed(step="plunder", why="no Treasure token is left")]
    spots = treasure_spots(state)
    if spots:
        options = tuple(pos_key(p) for p in spots)
        default = pos_key(_nearest(state, spots, role))
        return [DecisionRequested(decision="plunder", options=options, piece=role, default=default)]
    free = placeable(state)
    if stack_size(state) and free:
        options = tuple(pos_key(p) for p in free)
        return [DecisionRequested(decision="plunder-tile", options=options, piece=role, default=options[0])]
    return [ev.StepPassed(step="plunder", why="no Dark tile free and no tile left to place")]


def shape_step(state: VastState) -> list[Event]:
    """The Dark tile placed at the end of a turn without a Cave player (Vast rulebook §Varianti): where, the
    player's decision ``shape`` (an empty space next to a tile; default, from rules revision 5, the one
    nearest the player's piece, before it the first, west to east, south to north); which, the stack's top
    tile."""
    free = placeable(state)
    if not stack_size(state) or not free:
        return [ev.StepPassed(step="shape", why="no tile is left in the stack")]
    options = tuple(pos_key(p) for p in free)
    default = pos_key(_nearest(state, free, state.turn or "")) if state.rules_revision >= 5 else options[0]
    return [DecisionRequested(decision="shape", options=options, piece=state.turn or "", default=default)]


def remove_step(state: VastState) -> list[Event]:
    """One of the 3 tiles removed at the end of a turn once the Collapse has begun without a Cave player
    (Vast rulebook §Il Collasso, §Varianti): the player's decision ``collapse-remove`` among the tiles the
    Collapse may remove (default the first)."""
    spots = alone_removable(state) if "alone-in-the-dark" in state.variants else removable(state)
    options = tuple(pos_key(p) for p in spots)
    if not options:
        return [ev.StepPassed(step="remove", why="no tile can be removed")]
    piece = state.turn or ""
    return [DecisionRequested(decision="collapse-remove", options=options, piece=piece, default=options[0])]


def alone_removable(state: VastState) -> list[tuple[int, int]]:
    """Alone in the Dark's Collapse (docs/vast/facts.md §7 Variant cards): revealed Crystal tiles first, then
    Dark tiles, then Lit ones; never the Entrance, nor a tile under a piece with no tile next to it to step
    onto: the Knight or the Dragon, and from rules revision 6 the Thief and the Tribes too (each piece
    ``remove_tile`` asks to step off; before, a Thief alone on a tile with no neighbour left the decision
    with no option)."""
    g = geometry(state)

    def stranded(pos: tuple[int, int]) -> bool:
        on = bool(pieces_on(state, pos)) if state.rules_revision >= 6 else pieces_at(state, pos)
        return on and not g.neighbours(pos)

    kept = [c for c in state.cells if (c.x, c.y) != ENTRANCE and not stranded((c.x, c.y))]
    for wanted in (lambda c: c.lit and is_crystal(c.tile), lambda c: not c.lit, lambda c: c.lit):
        first = sorted((c.x, c.y) for c in kept if wanted(c))
        if first:
            return first
    return []


def start_turn(state: VastState, role: str, rnd: int) -> list[Event]:
    """``TurnStarted`` and what a turn starts with: the Knight picks up her cubes (evolve); the Cave's
    Collapse begins the turn after its last tile was placed (Vast rulebook §2. Modella la Caverna), then it
    collects Omens (Vast rulebook §1. Raccogli i Segnalini Presagio)."""
    events: list[Event] = [ev.VastTurnStarted(role=role, round=rnd)]
    k = state.knight
    if role == "knight" and k is not None and k.health > 0:
        here = cell_at(state, (k.x, k.y))
        if here is not None and here.event_token and event_tokens(state):  # she starts her turn on one
            events.append(ev.EncounterBegun(x=k.x, y=k.y))
            events += event_token_met(fold(state, events), (k.x, k.y))
    if role == "goblins" and state.goblins is not None:
        events += goblins.start(state)
    if role == "dragon" and state.dragon is not None:
        events += dragon.start(state)
    if role == "thief" and state.thief is not None:
        events += thief.start(fold(state, events))
    if role == "cave" and state.cave is not None:
        # Vast rulebook §2. Modella la Caverna: «Quando l'ultima tessera della tua mano è stata piazzata, il
        # Collasso ha inizio a partire dal tuo prossimo turno», from rules revision 8 even when a collapse
        # since (Cave-In, Wrath: §Gli altri giocatori, «messe in fondo alla pila») put tiles back under the
        # stack; the Cave draws only after placing a tile, so with an empty hand it could never place nor
        # begin the Collapse (before revision 8 the stack had to be empty too)
        stack_done = state.rules_revision >= 8 or not sum(state.piles)
        if not state.collapse and not state.cave.hand and stack_done:
            events.append(ev.CollapseBegun())
        tokens = tokens_on_map(state)
        count = next(n for limit, n in (*OMEN_TABLE, (10**9, 6)) if tokens <= limit)
        count = min(count, len(state.omen_bag))
        if count:
            events.append(ev.OmensCollected(count=count, tokens_on_map=tokens))
            events.append(
                DrawRequested(reason="omens", deck="omens", cards=state.omen_bag, count=count, piece="cave")
            )
    return events


def tokens_on_map(state: VastState) -> int:
    """Treasure and Crystal tokens on the map (Vast rulebook §1. Raccogli i Segnalini Presagio), with the
    Treasure tokens the Thief carries (Vast rulebook §Trasportare: they count until stashed)."""
    carried = state.thief.carried if state.thief is not None else 0
    return sum(c.treasure + (1 if c.crystal else 0) for c in state.cells) + carried


# --- reveals and open edges -------------------------------------------------------------------


def fill_open_edge(state: VastState, tried: Tried | None = None) -> list[Event]:
    """The Cave's ``fill:x,y`` decision for the first open edge, before the Collapse and while it has tiles
    (Vast rulebook §Tessere Caverna). On the Cave's own turn a Crystal tile of the hand goes first. Default:
    the first Crystal tile, else the first tile of the hand. Without a Cave player, the stack's top tile is
    drawn and placed there (a draw ``fill:x,y``). ``tried``: see ``advance``."""
    cave = state.cave
    if state.collapse or (cave is not None and not cave.hand):
        return []
    if state.rules_revision >= 3 and any(s == "reunite" or s.startswith("collapse:") for s in state.todo):
        # Vast rulebook §Il Collasso: the open edges are filled after the fall, once the groups slid
        return []
    if cave is None and not stack_size(state):
        return []
    first = first_open_edge(state) if tried is None else tried.first_open_edge(state)
    if first is None:
        return []
    pos, side = first
    x, y = step(pos, side)
    # Vast rulebook §Rivelare e risolvere: without a Cave player, the revealer draws and places
    if cave is None:
        draw = tile_draw(state, f"fill:{x},{y}", piece=state.turn or "cave")
        return [] if draw is None else [draw]
    hand = cave.hand
    crystals = tuple(t for t in hand if is_crystal(t))
    options = crystals if (state.turn == "cave" and crystals) else hand
    default = (crystals or hand)[0] if not (state.turn == "cave" and crystals) else crystals[0]
    return [DecisionRequested(decision=f"fill:{x},{y}", options=options, piece="cave", default=default)]


# --- the steps ----------------------------------------------------------------------------------


def run_step(state: VastState, step_name: str) -> list[Event]:
    kind, pos, rest = parse_step(step_name)
    if kind == "reveal" and pos is not None:
        by = {"dragon": "dragon", "goblin-flare": "goblins", "thief-flare": "thief", "thief": "thief"}.get(
            rest, "knight"
        )
        return reveal(state, pos, None, by, rest, step_name)
    if kind == "reunite":
        return dragon.reunite_step(state)
    if kind == "plunder":
        return plunder_step(state)
    if kind in ("thief-hit", "thief-supply", "upgrade"):
        if kind == "thief-supply":
            return thief.supply_step(state)
        if kind == "upgrade":
            return thief.upgrade_step(state)
        by, _, why = rest.partition(":")
        return thief.hit_step(state, by, why)
    if kind == "shape":
        return shape_step(state)
    if kind == "remove":
        return remove_step(state)
    if kind == "end-turn":
        return end_turn(state, rest)
    if kind == "collapse" and pos is not None:
        return dragon.collapse_step(state, pos, step_name)
    if kind == "gem":
        gem, _, where = rest.partition(":")
        return [RollRequested(reason=f"gem:knight:{gem}:{where}", dice=1, sides=6, piece="knight")]
    if kind == "resolve" and pos is not None:
        return resolve_tile(state, pos, rest, step_name)
    if kind == "grit":
        amount, _, why = rest.partition(":")
        return grit_change(state, int(amount), why, step=step_name)
    if kind == "treasure":
        return treasure_offer(state)
    if kind == "knight-attack" and pos is not None:
        attack = goblins.knight_attacks(state, pos)
        if attack and isinstance(attack[0], ev.KnightAttackedTribes):
            return [msgspec.structs.replace(attack[0], step=step_name), *attack[1:]]
        return [ev.KnightAttackedTribes(tribes=(), step=step_name)]
    raise InvariantViolated("vast-step", f"unknown step {step_name!r}")


def resolve_tile(state: VastState, pos: tuple[int, int], mode: str, step_name: str) -> list[Event]:
    """Resolve a revealed tile (Vast rulebook §Rivelare e risolvere le tessere Buie): a Treasure Room gets a
    Treasure token, a Crystal tile a Crystal token, a Vault tile a Vault token (with the Thief); entered by
    the Knight (``full``), an Event tile has the Cave play an Event card on her and an Ambush tile ambushes
    her. Revealed from afar (Vantage Point, Flare, the Thief), only the tokens are placed
    (docs/vast/rulings.md)."""
    cell = cell_at(state, pos)
    if cell is None:
        raise InvariantViolated("vast-resolve", f"no tile at {pos_key(pos)}")
    kind = tile_data(cell.tile).kind
    x, y = pos
    events: list[Event] = [
        ev.TileResolved(
            x=x,
            y=y,
            kind=kind,
            step=step_name,
            treasure=1 if kind == "treasure-room" else 0,
            crystal=kind == "crystal",
            mode=mode,
            vault=kind == "vault" and state.thief is not None,  # Vast rulebook §Cripta: Thief games only
        )
    ]
    if mode == "dragon" and kind == "event":
        events += dragon.pride(fold(state, events), "pride-events", "event-tile")
    if mode != "full" and kind == "event" and event_tokens(state):
        events.append(ev.EventTokenPlaced(x=x, y=y))
    if mode == "full" and kind == "event":
        events += event_offer(fold(state, events))
    elif mode == "full" and kind == "ambush":
        events += ambush(fold(state, events))
    return events


# --- Treasure (Vast rulebook §Tesori e Gemme; §Tesori) -----------------------------------------------------


# --- Events (Vast rulebook §Eventi)
# ---------------------------------------------------------------------------


def event_top_up(state: VastState) -> DrawRequested | None:
    """With ``ordered_events``, the cards that come up on top of the Event deck while fewer than 3 are known:
    a draw for the Cave (``event-top``) from the cards below them (their order unseen: drawn as they come
    up). ``None`` when 3 are up or no unseen card is left."""
    if not ordered_events(state) or len(state.event_top) >= 3:
        return None
    middle = list(state.event_deck)
    for card in state.event_top:
        middle.remove(card)
    if not middle:
        return None
    count = min(3 - len(state.event_top), len(middle))
    return DrawRequested(reason="event-top", deck="events", cards=tuple(middle), count=count, piece="cave")


# --- Ambush (Vast rulebook §Imboscata; docs/vast/facts.md §7 Goblin Infestation)
# --------------------------------------------


# --- answers ---------------------------------------------------------------------------------------


def answer(state: VastState, answered: Answer) -> list[Event]:
    """The events after a pending node was answered (``answered`` is already applied to ``state``)."""
    match answered:
        case CardsDrawn(deck="infestation"):
            return then_advance(state, ambush(state))
        case CardsDrawn(reason="gnome", cards=cards) if cards:
            return then_advance(state, line_c.gnome_drawn(state, cards[0]))
        case CardsDrawn(deck="tiles", reason=reason, cards=cards) if (
            reason.startswith("underworm:") and cards
        ):
            placed = drawn_tile_placed(state, reason, cards[0])
            return then_advance(state, placed + underworm_move(fold(state, placed), reason.partition(":")[2]))
        case CardsDrawn(reason="power-hand"):
            return then_advance(state, end_turn(state, "dragon"))
        case CardsDrawn(deck="war" | "monsters" | "secrets", cards=cards) if (
            goblins.ruby_open(state) and cards
        ):
            return [goblins.ruby_offer(answered.deck, tuple(cards))]  # docs/vast/facts.md §3 Goblin Ruby
        case CardsDrawn(reason="war", cards=cards):
            return then_advance(state, goblins.war_drawn(state, tuple(cards)))
        case CardsDrawn(reason="war-ruby", cards=cards):
            return then_advance(state, goblins.war_drawn(state, (*state.offer, *cards)))
        case CardsDrawn(reason="treasure" | "treasure-top", cards=cards):
            return treasure_choice(state, tuple(cards))
        case CardsDrawn(reason="event-top", cards=cards) if state.cave is None:  # the card she resolves
            return then_advance(state, event_choice(state, tuple(cards)))
        case CardsDrawn(deck="tiles", reason=reason, cards=cards) if state.cave is None and cards:
            return then_advance(state, drawn_tile_placed(state, reason, cards[0]))
        case CardsDrawn(reason="events", cards=cards):
            return then_advance(state, event_choice(state, tuple(cards)))
        case CardsDrawn(deck="knight-treasures" | "goblin-secrets", reason="pickpocket", cards=cards) if (
            cards
        ):
            owner = "knight" if answered.deck == "knight-treasures" else "goblins"
            return then_advance(state, [ev.ThiefStole(target=owner, card=cards[0], hidden=True)])
        case CardsDrawn(reason="crystal-curse", cards=cards):
            top = (*cards, *[c for c in state.event_bottom if c not in cards][: 3 - len(cards)])
            return then_advance(state, [ev.EventsSentToBottom(cards=top)])
        case CardsDrawn():
            return advance(state)
        case DecisionMade(decision=decision, option=option):
            return then_advance(state, _decided(state, decision, option))
        case DiceRolled(reason="ambush", faces=faces):
            k = the_knight(state)
            s = strength(k, state.turn == "knight")
            if center_hit(faces[0]):
                return then_advance(state, hurt(state, s))
            return then_advance(state, unhurt(state, s))
        case DiceRolled(reason=reason, faces=faces) if reason.startswith(
            ("power:", "dragon-attack:", "gem:")
        ):
            return then_advance(state, dragon.rolled_answer(state, reason, faces[0]))
        case DiceRolled(reason=reason, faces=faces) if reason.startswith(
            ("thief-action:", "evasion:", "thief-gem:")
        ):
            if reason.startswith("thief-action:"):
                return then_advance(state, thief.action_rolled(state, reason, faces[0]))
            if reason.startswith("evasion:"):
                return then_advance(state, thief.evasion_rolled(state, reason, faces[0]))
            return then_advance(state, thief.gem_rolled(state, reason, faces[0]))
        case DiceRolled(reason=reason, faces=faces) if reason.startswith(
            ("flare:", "goblin-flare:", "thief-flare:")
        ):
            kind, _, where = reason.partition(":")
            center = parse_pos(where)
            hit = tuple(
                p for p in die_tiles(center, faces[0]) if (c := cell_at(state, p)) is not None and not c.lit
            )
            by = {"goblin-flare": "goblins", "thief-flare": "thief"}.get(kind, "knight")
            return then_advance(state, [ev.FlareHit(face=faces[0], reveals=hit, by=by)])
    return advance(state)


def underworm_move(state: VastState, where: str) -> list[Event]:
    """The Underworm's Ambush text (docs/vast/facts.md §3 Monster cards; ``infestation.underworm``): she moves
    diagonally to the Dark tile at ``where`` (``x,y``), spending no Movement, and reveals it in the same
    Encounter."""
    x, y = parse_pos(where)
    moved: list[Event] = [ev.KnightMoved(x=x, y=y, through_wall=False, forced=True, why="underworm")]
    return moved + reveal(fold(state, moved), (x, y), None, "knight", "full")


def drawn_tile_placed(state: VastState, reason: str, tile: str) -> list[Event]:
    """A tile drawn from the stack without a Cave player, placed Dark side up where its draw said: an open
    edge (``fill:x,y``), the end-of-turn tile (``shape:x,y``), the tile Past Plunder needs first
    (``plunder-tile:x,y``), or the space a Tribe explores (``explore:x,y:tribe``, the Tribe moving on)."""
    kind, _, where = reason.partition(":")
    spot, _, name = where.partition(":")
    x, y = parse_pos(spot)
    by = state.turn or "cave"
    symbol = tile_data(tile).symbol or ""
    step_name = "shape" if kind == "shape" else ""
    placed: list[Event] = [
        ev.DarkTilePlaced(x=x, y=y, tile=tile, symbol=symbol, by=by, own_turn=kind == "shape", step=step_name)
    ]
    if kind == "explore":
        placed.append(ev.TribeMoved(tribe=name, x=x, y=y))
    return placed


def _decided(state: VastState, decision: str, option: str) -> list[Event]:
    """The events of ``option`` chosen for ``decision`` (``kind[:where]``), by the kind's handler
    (``DECISIONS``)."""
    kind, _, where = decision.partition(":")
    handler = DECISIONS.get(kind)
    if handler is None:
        raise InvariantViolated("vast-decision", f"unknown decision {decision!r}")
    return handler(state, kind, where, option)


Decided = Callable[[VastState, str, str, str], list[Event]]
"""The events of a decision answered: ``(state, kind, where, option)`` for the decision ``kind[:where]``."""


def _oriented(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    x, y = parse_pos(where)
    return [ev.TileOriented(x=x, y=y, rotation=int(option))]


def _treasure_chosen(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    others = tuple(c for c in state.offer if c != option)
    return [ev.TreasureOffered(card=option, bottom=others), keep_decision()]


def _treasure_kept(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    card = state.offer[0] if state.offer else "?"
    if option == "keep":
        return [ev.TreasureKept(card=card, step="treasure")]
    declined: list[Event] = [ev.TreasureDeclined(card=card)]
    return declined + grit_change(fold(state, declined), 5, "decline-treasure", step="treasure")


def _underworm_placed(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    draw = tile_draw(state, f"underworm:{option}", piece="knight")
    return [] if draw is None else [draw]


def _ambush_cubes(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    placed: list[Event] = [ev.HeroCubePlaced(target="strength") for _ in range(int(option))]
    return placed + ambush_strike(fold(state, placed))


def _light(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    if option == "discard-cube":
        return [ev.HeroCubeDiscarded(), ev.HealthChanged(delta=2, why="light")]
    return []


def _fresh(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    """Fresh Air and Fresh Water."""
    if option == "spend-cube":
        return [ev.HeroCubeDiscarded(spent=True), ev.HealthChanged(delta=1, why=kind)]
    return []


def _blocked(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    war = next(c for c in goblin_file().war if state.goblins is not None and c.id == state.goblins.war)
    blocked = () if option == "none" else tuple(option.split("+"))
    return goblins.populate_with(state, (war.fangs, war.bones, war.eye), blocked)


def _spores_tribe(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    t = goblins.tribe(state, option)
    hit: list[Event] = [ev.PopulationLost(tribe=option, count=max(0, t.population - 1), why="spores")]
    return [*hit, goblins.rage(1, "attacked")]


def _omen_discarded(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    dropped: list[Event] = [ev.OmenDiscarded(token=option, why="hex")]
    return dropped + goblins.omen_discards(fold(state, dropped), int(where) - 1)


def _rockslide_from(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    spot, _, side = where.partition(":")
    fx, fy_side = option.split(",", 1)
    fy, _, fside = fy_side.partition(":")
    x, y = parse_pos(spot)
    return [ev.RockslideMoved(from_edge=(int(fx), int(fy), fside), x=x, y=y, side=side)]


def _gnome_jump(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    if option == "stay":
        return []
    x, y = parse_pos(option)
    return [ev.TribeMoved(tribe=where, x=x, y=y, teleported=True)]


def _explored(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    spot, _, name = where.rpartition(":")
    x, y = parse_pos(spot)
    placed = [
        ev.DarkTilePlaced(x=x, y=y, tile=option, symbol=tile_data(option).symbol or "", by="cave"),
        ev.TribeMoved(tribe=name, x=x, y=y),
    ]
    return placed + refill_hand(fold(state, placed))


def _stepped_off(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    """A piece steps off a tile about to be removed: ``step-off`` (the Knight), ``thief-off``,
    ``tribe-off``."""
    x, y = parse_pos(option)
    moved: list[Event] = [ev.KnightMoved(x=x, y=y, forced=True)]
    if kind == "thief-off":
        moved = [ev.ThiefMoved(x=x, y=y, forced=True)]
    elif kind == "tribe-off":
        tribe = pieces_on(state, parse_pos(where.partition(":")[0]))[0]
        moved = [ev.TribeMoved(tribe=tribe, x=x, y=y)]
    return moved + remove_stepped_off(fold(state, moved), where)


def _tile_drawn_for(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    """``shape`` and ``plunder-tile``: the stack's top tile drawn for the space chosen."""
    draw = tile_draw(state, f"{kind}:{option}", piece=state.turn or "cave")
    if draw is None:  # the decision was asked with a tile left
        raise InvariantViolated("vast-no-cave", "no tile left in the stack")
    return [draw]


def _plundered(state: VastState, kind: str, where: str, option: str) -> list[Event]:
    x, y = parse_pos(option)
    return [ev.TreasureTokenPlaced(x=x, y=y, step="plunder")]


DRAGON_DECISIONS = (
    "claw-push",
    "wrath-push",
    "wrath-thief",
    "wrath-off",
    "shriek",
    "dragon-off",
    "axe",
    "power-discard",
    "trap",
    "slide",
    "surface",
)
"""The decisions ``dragon.decided`` answers."""

DECISIONS: dict[str, Decided] = {
    "collapse-remove": lambda s, k, w, o: remove_tile(s, parse_pos(o), False, "remove"),
    **dict.fromkeys(thief.THIEF_DECISIONS, thief.decided),
    "orient": _oriented,
    "fill": lambda s, k, w, o: place_dark(s, parse_pos(w), o, own_turn=False),
    "treasure-choice": _treasure_chosen,
    "keep-treasure": _treasure_kept,
    "event-choice": lambda s, k, w, o: play_event(s, o, tuple(c for c in s.offer if c != o)),
    "underworm": lambda s, k, w, o: underworm_move(s, o),
    "underworm-place": _underworm_placed,
    "ambush-cubes": _ambush_cubes,
    "light": _light,
    "fresh-air": _fresh,
    "fresh-water": _fresh,
    "war-choice": lambda s, k, w, o: goblins.war_chosen(s, o, tuple(c for c in s.offer if c != o)),
    "block": _blocked,
    "overpopulation": lambda s, k, w, o: goblins.overpopulated(s, o),
    "monster": lambda s, k, w, o: goblins.monster_decided(s, o),
    "secrets-limit": lambda s, k, w, o: [ev.SecretDiscarded(card=o)],
    "secrets-window": lambda s, k, w, o: goblins.window_chosen(s, w, o),
    "spores-tribe": _spores_tribe,
    "hex-target": lambda s, k, w, o: goblins.hex_hits(s, o),
    "omen-discard": _omen_discarded,
    "cave-in": lambda s, k, w, o: goblins.cave_in_chosen(s, w, o),
    "rockslide-from": _rockslide_from,
    "ruby": lambda s, k, w, o: goblins.ruby_redraw(s, w, o),
    "gnome-jump": _gnome_jump,
    "spores-track": lambda s, k, w, o: [ev.SlothCubeMoved(source="wakefulness", target=o, why="spores")],
    "ambush-tribe": lambda s, k, w, o: goblins.ambushed_by(s, o),
    "explore": _explored,
    **dict.fromkeys(DRAGON_DECISIONS, dragon.decided),
    "step-off": _stepped_off,
    "thief-off": _stepped_off,
    "tribe-off": _stepped_off,
    "shape": _tile_drawn_for,
    "plunder-tile": _tile_drawn_for,
    "plunder": _plundered,
}
"""Each decision's handler by its kind (the Thief's ``thief.THIEF_DECISIONS`` yield to the kinds named after
them, as ``collapse-remove`` yields to theirs)."""


def adjacent_tiles(state: VastState, pos: tuple[int, int]) -> list[tuple[int, int]]:
    g = geometry(state)
    return [p for p in (step(pos, s) for s in SIDES) if p in g.cells]
