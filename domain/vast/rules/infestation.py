"""Goblin Infestation, line C: a drawn Monster ambushes the Knight (docs/vast/facts.md §7 Variant cards;
docs/vast/facts.md §3 Monster cards, Ambush STR and Ambush text; docs/vast/rulings.md "Goblin Infestation line
C").

Without a Goblins player, an Ambush tile's ambusher is Goblin Infestation's (Vast rulebook §Imboscata;
docs/vast/facts.md §7). Line C (the Knight vs Thief setup, the Knight's solo Hard level) draws a Monster card
when the Ambush is sprung (``DrawRequested`` from the ``infestation`` deck: the Monster deck, its discards
shuffled back when it is empty); the Knight then may put Hero cubes on Strength knowing its Strength, and the
Ambush is resolved as lines A and B resolve it: stronger, nothing; equal, the Dragon die's center hit hurts
her; weaker, she loses 1 Health. When she is hurt, the card's Ambush text applies (``texts``); then the card
is set aside (``InfestationMonsterPlaced``).

Provisional (no source gives the rule; the card's ``ambush_provisional`` says why): the Ogre's and the
Troll's texts (how the Ogre token is defeated; the Canyon terrain) are not applied, their Strength is; the
Wisp's Ambush Strength is read as none.
"""

from __future__ import annotations

from dicelog.domain.core.events import DecisionRequested, DrawRequested, Event
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import Pos
from dicelog.domain.vast.rules.common import (
    Fold,
    cell_at,
    grit_change,
    stack_size,
    strength,
    the_knight,
    tile_draw,
)
from dicelog.domain.vast.rules.tribes import deck_draw
from dicelog.domain.vast.state import VastState

LINE_C = "infestation:C"
DIAGONALS: tuple[Pos, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
"""The four diagonal steps, NE first then clockwise (the order options are listed in)."""


def active(state: VastState) -> bool:
    """Whether Ambushes are sprung by drawn Monsters (line C, and no Goblins player to spring them)."""
    return LINE_C in state.variants and state.goblins is None


def spring(state: VastState) -> list[Event]:
    """The Ambush is sprung: draw its Monster (a chance node on the Knight's piece)."""
    draw = deck_draw(state, "infestation", 1, "infestation", piece="knight")
    if draw is None:  # every Monster is aside: cannot happen with 10 cards and at most 2 aside
        return []
    return [draw]


def settle(state: VastState, *, text_applied: bool) -> list[Event]:
    """Set the ambusher aside once its Ambush is resolved: the Golem whose text applied goes on the Knight's
    board, the Bright Beetles whose text applied wait beside the deck, any other card is discarded; Bright
    Beetles that gave this Monster +1 Strength are discarded too."""
    card = state.ambusher
    events: list[Event] = []
    if "bright-beetles" in state.infestation_aside and card != "bright-beetles":
        events.append(ev.InfestationMonsterPlaced(card="bright-beetles", to="discard"))
    where = {"golem": "knight-board", "bright-beetles": "beside-deck"}.get(card, "discard")
    events.append(ev.InfestationMonsterPlaced(card=card, to=where if text_applied else "discard"))
    return events


def texts(state: VastState, fold: Fold) -> list[Event]:
    """The drawn Monster's Ambush text, applied to a Knight it hurt (``state``: after her Health loss), then
    the card set aside (docs/vast/facts.md §3 Monster cards, Ambush text):

    - Blob: she loses 5 Grit.
    - Flame Giant: with Strength 3 or less she loses 1 more Health.
    - Gnome: she discards a random Treasure card (a draw from her cards; ``TreasureCardDiscarded``).
    - Golem: the card goes on her board (each Ancient Map use costs 2 cubes: ``knight.move``).
    - Bright Beetles: the card waits beside the deck (+1 Strength to the next Monster drawn).
    - Underworm: she moves diagonally to the nearest Dark tile and reveals it in the same Encounter
      (``underworm``).
    - Pet Frog, Wisp: none. Ogre, Troll: not applied (provisional, module docstring)."""
    k = the_knight(state)
    card = state.ambusher
    alive = k.health > 0
    events: list[Event] = []
    if alive and card == "blob":
        events += grit_change(state, -5, "blob")
    if alive and card == "flame-giant" and strength(k, state.turn == "knight") <= 3:
        events.append(ev.HealthChanged(delta=-1, why="flame-giant"))
        if k.health - 1 <= 0:
            events.append(ev.KnightDied(why="ambush"))
    events += settle(state, text_applied=alive)
    if alive and card == "gnome" and k.treasures:
        events.append(
            DrawRequested(
                reason="gnome",
                deck="knight-treasures",
                cards=tuple(sorted(k.treasures)),
                count=1,
                piece="knight",
            )
        )
    if alive and card == "underworm":
        events += underworm(fold(state, events))
    return events


def gnome_drawn(state: VastState, card: str) -> list[Event]:
    """The Gnome's random Treasure card is discarded (``hidden`` when it was face down)."""
    k = the_knight(state)
    return [ev.TreasureCardDiscarded(card=card, why="gnome", hidden=card not in k.face_up)]


def diagonal_darks(state: VastState) -> list[Pos]:
    """The Dark tiles diagonal to the Knight, nearest first (all four diagonals are as near: board order)."""
    k = the_knight(state)
    found = []
    for dx, dy in DIAGONALS:
        c = cell_at(state, (k.x + dx, k.y + dy))
        if c is not None and not c.lit:
            found.append((c.x, c.y))
    return found


def underworm(state: VastState) -> list[Event]:
    """The Underworm's Ambush text (docs/vast/facts.md §3 Monster cards): she moves diagonally to the nearest
    Dark tile, chosen by her among the diagonal Dark tiles (decision ``underworm``); with none, a tile is
    drawn from the stack and placed Dark side up on an empty diagonal space (decision ``underworm-place`` when
    several are empty; docs/vast/rulings.md); with no tile left in the stack or no empty diagonal, nothing
    happens. She then moves there without a Movement and reveals it (``flow.underworm_move``)."""
    darks = diagonal_darks(state)
    if darks:
        options = tuple(f"{x},{y}" for x, y in darks)
        return [DecisionRequested(decision="underworm", options=options, piece="knight", default=options[0])]
    k = the_knight(state)
    empty = [(k.x + dx, k.y + dy) for dx, dy in DIAGONALS if cell_at(state, (k.x + dx, k.y + dy)) is None]
    options = tuple(f"{x},{y}" for x, y in empty)
    if len(options) == 1:
        draw = tile_draw(state, f"underworm:{options[0]}", piece="knight")
        return [] if draw is None else [draw]
    if not options or not stack_size(state):
        return []
    return [
        DecisionRequested(decision="underworm-place", options=options, piece="knight", default=options[0])
    ]
