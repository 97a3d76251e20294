"""Tiles every role turns, places or removes (Vast rulebook §Rivelare e risolvere le tessere Buie; §Tessere
Caverna; §Il Collasso): a reveal and its rotation, a Dark tile placed from the Cave's hand, a tile removed
(its pieces stepping off first), the Giant Bats' reach, the Event tokens and the Event deck's top cards;
below the roles' modules, which all use them."""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import DecisionRequested, Event, RollRequested
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import SIDES, Pos, parse_pos, pos_key, step
from dicelog.domain.vast.content import tile as tile_data
from dicelog.domain.vast.evolve import fold
from dicelog.domain.vast.rules.common import (
    cell_at,
    cells_by_pos,
    geometry,
    knight_pos,
    pieces_at,
    pieces_on,
    refill_hand,
    safe_steps,
)
from dicelog.domain.vast.state import VastState


def remove_tile(state: VastState, pos: Pos, extra: bool, step: str = "") -> list[Event]:
    """Remove the tile at ``pos`` (Vast rulebook §Il Collasso): a Dark tile is turned to show whether it is a
    Crystal tile; tokens on it go back. The Knight on it first steps to a tile next to it (decision
    ``step-off``, default the first, N->E->S->W). From rules revision 6 every player's piece on it steps off
    first, one at a time, onto a tile whose entering causes no attack (``safe_steps``; Vast rulebook §Il
    Collasso: «Se una tessera contenente la pedina di un giocatore deve essere rimossa, quel giocatore può
    prima muoversi su una tessera adiacente»): decisions ``step-off`` (the Knight), ``dragon-off``,
    ``thief-off`` (the Thief), ``tribe-off`` (the Goblins, for the first Tribe on it). ``step``: the
    end-of-turn step it completes (``remove``, no Cave player), carried through that decision."""
    cell = cell_at(state, pos)
    if cell is None:
        raise InvariantViolated("vast-remove", f"no tile at {pos_key(pos)}")
    tail = ":extra" if extra else f":{step}" if step else ""
    pieces = pieces_on(state, pos) if state.rules_revision >= 6 else []
    if pieces:
        piece = pieces[0]
        g = geometry(state)
        # a second piece may find its safe tiles taken by the first: then any tile next to it
        spots = safe_steps(state, pos, piece) or g.neighbours(pos)
        options = tuple(pos_key(p) for p in spots)
        kind = {"knight": "step-off", "dragon": "dragon-off", "thief": "thief-off"}.get(piece, "tribe-off")
        who = piece if piece in ("knight", "dragon", "thief") else "goblins"
        name = f"{kind}:{pos_key(pos)}{tail}"
        return [DecisionRequested(decision=name, options=options, piece=who, default=options[0])]
    if state.rules_revision < 6 and pieces_at(state, pos):
        g = geometry(state)
        options = tuple(pos_key(p) for p in g.neighbours(pos))
        who = "knight" if knight_pos(state) == pos else "dragon"
        kind = "step-off" if who == "knight" else "dragon-off"
        name = f"{kind}:{pos_key(pos)}" + (":extra" if extra else f":{step}" if step else "")
        return [DecisionRequested(decision=name, options=options, piece=who, default=options[0])]
    x, y = pos
    return [
        ev.TileRemoved(
            x=x,
            y=y,
            tile=cell.tile,
            crystal_tile=tile_data(cell.tile).kind == "crystal",
            extra=extra,
            step=step,
        )
    ]


def remove_stepped_off(state: VastState, where: str) -> list[Event]:
    """The removal a ``step-off`` or ``dragon-off`` decision waited for, once the piece stepped off:
    ``where`` is ``x,y``, ``x,y:extra`` (Hatred) or ``x,y:<step>`` (the end-of-turn step it completes)."""
    target, _, tail = where.partition(":")
    return remove_tile(state, parse_pos(target), tail == "extra", "" if tail == "extra" else tail)


def bats_reach(state: VastState, start: Pos, knight: bool) -> list[Pos]:
    """Tiles Giant Bats can carry a piece to from ``start``: up to 3 tiles, never through a wall; the Knight
    only through and onto Lit tiles (Vast rulebook §Esempio #3 Movimento forzato); a Treasure token through
    any tile (docs/vast/rulings.md). From rules revision 6 never onto the Dragon's space (Vast rulebook
    §Esempio #3, Movimento forzato: «non può essere spinta sullo spazio del Drago o attraverso i muri»). Giant
    Bats, Slap and the Wisp all take their reach from here."""
    g = geometry(state)
    cells = cells_by_pos(state)
    d = state.dragon
    barred = (
        (d.x, d.y) if knight and d is not None and d.x is not None and state.rules_revision >= 6 else None
    )
    seen = {start: 0}
    frontier = [start]
    for depth in range(1, 4):
        nxt = []
        for here in frontier:
            for side in SIDES:
                there = step(here, side)
                cell = cells.get(there)
                if cell is None or there in seen or g.wall_between(here, side):
                    continue
                if knight and not cell.lit:
                    continue
                seen[there] = depth
                if not cell.event_token:  # Vast rulebook §Esempio #3: an Event token stops the flight there
                    nxt.append(there)
        frontier = nxt
    return sorted(p for p in seen if p not in (start, barred))


def reveal(
    state: VastState,
    pos: tuple[int, int],
    came_from: tuple[int, int] | None,
    by: str,
    mode: str,
    step_name: str = "",
) -> list[Event]:
    """Turn the Dark tile at ``pos`` (Vast rulebook §Rivelare e risolvere le tessere Buie): its rotation is
    the only one possible, or the revealer's ``orient:x,y`` decision (default: the first, N->E->S->W)."""
    cell = cell_at(state, pos)
    if cell is None or cell.lit:
        raise InvariantViolated("vast-reveal", f"no Dark tile at {pos_key(pos)}")
    rotations = geometry(state).reveal_rotations(pos, cell.tile, came_from)
    x, y = pos
    if len(rotations) == 1:
        return [
            ev.TileRevealed(x=x, y=y, tile=cell.tile, by=by, step=step_name, mode=mode, rotation=rotations[0])
        ]
    options = tuple(str(r) for r in rotations)
    return [
        ev.TileRevealed(x=x, y=y, tile=cell.tile, by=by, step=step_name, mode=mode),
        DecisionRequested(decision=f"orient:{x},{y}", options=options, piece=by, default=options[0]),
    ]


def place_dark(state: VastState, pos: tuple[int, int], tile: str, own_turn: bool) -> list[Event]:
    """A tile of the Cave's hand placed Dark side up, then the hand refilled (Vast rulebook §Tessere
    Caverna)."""
    x, y = pos
    symbol = tile_data(tile).symbol or ""
    events: list[Event] = [
        ev.DarkTilePlaced(x=x, y=y, tile=tile, symbol=symbol, by="cave", own_turn=own_turn)
    ]
    return events + refill_hand(fold(state, events))


def event_tokens(state: VastState) -> bool:
    """Whether Event tokens are in play: rules revision 2 on, with the Knight, while Event cards are left
    (Vast rulebook §Eventi: once every card is played, Event tiles and tokens are ignored)."""
    return (
        state.rules_revision >= 2
        and state.knight is not None
        and bool(state.event_deck or state.event_bottom)
    )


def ordered_events(state: VastState) -> bool:
    """Whether the Event deck has an order the Cave reads (rules revision 6, with a Cave player; Vast rulebook
    §La Caverna, Eventi: «Puoi esaminare le tre carte in cima al mazzo degli Eventi in qualunque momento»)."""
    return state.rules_revision >= 6 and state.cave is not None


def top_events(state: VastState) -> tuple[str, ...]:
    """The top 3 cards of the Event deck, first on top, with ``ordered_events``: those come up
    (``VastState.event_top``), then the bottom's first ones once no other card is left above them."""
    middle = len(state.event_deck) - len(state.event_top)
    if middle > 0:
        return state.event_top[:3]
    below = [c for c in state.event_bottom if c not in state.event_top]
    return (*state.event_top, *below)[:3]


def flare_roll(pos: tuple[int, int]) -> RollRequested:
    """The Dragon die rolled round ``pos`` for Flare (docs/vast/facts.md §7 Variant cards)."""
    return RollRequested(reason=f"flare:{pos_key(pos)}", dice=1, sides=6, piece="knight")
