"""Placing minions on minion entrances (MM rulebook (it) §Collocare i Servitori sul Tabellone; MM summary (fr)
summary).

1. Small ranged minions: all on the entrance farthest from the mice (an entrance inside a special
   area outlined in red first); if it fills up, the next one by the same rule. "Se ci sono più
   Entrate equidistanti, i giocatori scelgono quella che preferiscono": a tie is the players'
   decision ``ranged-minion-entrance`` (options: the tied entrances), asked only when the figures
   left would not fill every tied entrance anyway.
2. Large minions, one at a time: the free entrance nearest the mice; ties are the players'. The
   figures of one card are interchangeable, so the tie is one decision ``large-minion-entrances``:
   which of the k tied entrances take the r < k figures left (options: the r-entrance sets).
3. Small melee minions: the remaining free entrances, spread as evenly as possible ("i giocatori
   scelgono quelle che preferiscono. Cercate di suddividere ... il più equamente possibile"), the
   entrances nearest the mice first (MM rulebook (pt) «coloque todos os lacaios pequenos nos espaços de
   entrada ... (não cheios) mais próximos aos ratos ... Tente espalhar os lacaios o máximo possível»; MM
   summary (fr) «sur les cases non remplies les plus proches des souris»). The spread counts every small melee
   figure of one placement (``place_groups``: all cards of an encounter, a summon or a room's setup), each
   entrance up to its room; the figures left over an even spread go to the entrances nearest the mice; card by
   card, the decision ``melee-minion-entrances`` is which of the entrances tied at the deciding distance take
   one figure more (options: the sets).

An option naming several entrances joins their space ids with ``+`` in tile order (``GR-2+GR-13``).
Every decision's default is the first option in tile order (what this module did before the ties
were asked). Distances are counted along minion borders (minions ignore red and yellow lines); an
entrance "inside a special area outlined in red" is one of unlimited capacity (the Kitchen counter,
the Dining Hall table...); room on a space follows MM rulebook (it) §Condividere le Caselle
(``graph.can_enter``). Ties are asked through ``rules/ties.py`` (the caller's computation is deferred and
re-run).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations

from dicelog.domain.core.events import Event
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.events import FigurePlaced
from dicelog.domain.mice_and_mystics.evolve import evolve
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules.figures import available
from dicelog.domain.mice_and_mystics.rules.graph import can_enter, is_minion, minion_distances, small_room
from dicelog.domain.mice_and_mystics.rules.ties import (
    LARGE_ENTRANCES,
    MELEE_ENTRANCES,
    RANGED_ENTRANCE,
    Choices,
)
from dicelog.domain.mice_and_mystics.state import State

FAR = 10_000
JOIN = "+"


def placement_rank(lib: Library, card: str) -> int:
    """MM rulebook (it) §Collocare i Servitori sul Tabellone, steps 1-3: small ranged minions are placed
    first, then large ones, then small melee ones (0, 1, 2)."""
    minion = lib.minions[card]
    return 1 if minion.size == "large" else 0 if minion.attack == "ranged" else 2


def next_figure_id(state: State, card: str) -> str:
    n = 1
    while f"{card}-{n}" in state.figures:
        n += 1
    return f"{card}-{n}"


def _entrances(lib: Library, tile: str) -> list[str]:
    """The tile's minion entrances, in tile order."""
    return [s.id for s in lib.tiles[tile].spaces if s.kind == "minion-entrance"]


def _room(state: State, space: str, cap: int) -> int:
    """How many more small figures fit on ``space`` (``cap`` stands for "any number")."""
    room = small_room(state, space)
    return cap if room is None else room


def _distances(state: State) -> Mapping[str, int]:
    mice = tuple(sp for sp, figs in state.board.items() if any(not is_minion(state, f) for f in figs))
    return minion_distances(library_of(state), mice)


def _sets(spaces: list[str], r: int) -> tuple[str, ...]:
    """Every choice of ``r`` of ``spaces`` (tile order kept), joined with ``+``; first = first ``r``."""
    return tuple(JOIN.join(c) for c in combinations(spaces, r))


def _ranged(state: State, card: str, n: int, tile: str, choices: Choices) -> list[str]:
    """The spaces, in placement order, of ``n`` small ranged figures (step 1)."""
    lib, dist, spaces = library_of(state), _distances(state), []
    room = {e: _room(state, e, n) for e in _entrances(lib, tile)}
    while n > 0:
        free = [e for e in room if room[e] > 0]
        if not free:
            break
        key = {e: (lib.spaces[e].capacity != "unlimited", -dist.get(e, FAR)) for e in free}
        best = min(key.values())
        tied = [e for e in free if key[e] == best]
        if len(tied) > 1 and n < sum(room[e] for e in tied):
            tied = [choices.pick(RANGED_ENTRANCE, tuple(tied), tied[0], subject=card, count=n)]
        for entrance in tied:
            k = min(n, room[entrance])
            spaces += [entrance] * k
            room[entrance] -= k
            n -= k
    return spaces


def _large(state: State, card: str, n: int, tile: str, choices: Choices) -> list[str]:
    """The spaces, in placement order, of ``n`` large figures, one at a time (step 2)."""
    lib, dist, spaces = library_of(state), _distances(state), []
    while n > 0:
        free = [e for e in _entrances(lib, tile) if can_enter(state, e, "large")]
        if not free:
            break
        nearest = min(dist.get(e, FAR) for e in free)
        tied = [e for e in free if dist.get(e, FAR) == nearest]
        if any(lib.spaces[e].capacity == "unlimited" for e in tied):
            # an entrance that never fills may take several: choose for one figure at a time
            taken = [choices.pick(LARGE_ENTRANCES, tuple(tied), tied[0], subject=card, count=n)]
        elif n < len(tied):
            taken = choices.pick(
                LARGE_ENTRANCES, _sets(tied, n), JOIN.join(tied[:n]), subject=card, count=n
            ).split(JOIN)
        else:
            taken = tied
        for entrance in taken:
            state = evolve(state, FigurePlaced(figure=next_figure_id(state, card), card=card, space=entrance))
            spaces.append(entrance)
            n -= 1
    return spaces


def _melee(
    state: State, card: str, n: int, tile: str, choices: Choices, alongside: Mapping[str, int]
) -> list[str]:
    """The spaces, in placement order, of ``n`` small melee figures spread evenly (step 3).

    ``alongside``: entrance -> small melee figures of the same placement already put there (other
    cards of the same encounter or summon); the spread counts them too. Water filling: level ``L``
    is the most figures every entrance can hold in all (each up to its room) within ``n`` new ones;
    the ``r`` figures left go one each to ``r`` of the entrances with room for more."""
    room = {e: _room(state, e, n) for e in _entrances(library_of(state), tile)}
    free = [e for e in room if room[e] > 0]
    have = {e: alongside.get(e, 0) for e in free}

    def adds(level: int) -> dict[str, int]:
        return {e: max(0, min(level - have[e], room[e])) for e in free}

    top = max((have[e] + room[e] for e in free), default=0)
    level = 0
    while level < top and sum(adds(level + 1).values()) <= n:
        level += 1
    quota = adds(level)
    left = n - sum(quota.values())
    more = [e for e in free if have[e] <= level < have[e] + room[e]]
    if (
        state.rules_revision < 2
    ):  # rules revision 1: any spread of the figures left (docs/mice-and-mystics/rulings.md)
        extra = more[:left]
        if 0 < left < len(more):
            extra = choices.pick(
                MELEE_ENTRANCES, _sets(more, left), JOIN.join(more[:left]), subject=card, count=n
            ).split(JOIN)
        for entrance in extra:
            quota[entrance] += 1
        rounds = max((have[e] + quota[e] for e in free), default=0)
        return [e for i in range(rounds) for e in free if have[e] <= i < have[e] + quota[e]]
    dist = _distances(state)
    more.sort(key=lambda e: dist.get(e, FAR))
    extra = more[:left]
    if 0 < left < len(more):
        # the nearest to the mice take the figures left (MM rulebook (pt) «mais próximos aos ratos», MM
        # summary (fr) «les plus proches des souris»); the players choose only among entrances at the same
        # distance
        cut = dist.get(more[left - 1], FAR)
        sure = [e for e in more if dist.get(e, FAR) < cut]
        tied = [e for e in free if e in more and dist.get(e, FAR) == cut]
        r = left - len(sure)
        if r < len(tied):
            tied = choices.pick(
                MELEE_ENTRANCES, _sets(tied, r), JOIN.join(tied[:r]), subject=card, count=n
            ).split(JOIN)
        extra = sure + tied[:r]
    for entrance in extra:
        quota[entrance] += 1
    rounds = max((have[e] + quota[e] for e in free), default=0)
    return [e for i in range(rounds) for e in free if have[e] <= i < have[e] + quota[e]]


def place_minions(
    state: State,
    card: str,
    count: int,
    tile: str,
    choices: Choices | None = None,
    alongside: Mapping[str, int] | None = None,
) -> list[FigurePlaced]:
    """``count`` figures of ``card`` placed on ``tile``'s entrances (``FigurePlaced`` each, new
    figure ids ``<card>-<n>``); figures that fit nowhere, or that the box does not hold, are not
    placed (MM rulebook (it) §Il Turno di un Servitore: "collocate le miniature disponibili").

    ``alongside`` (small melee cards only): entrance -> small melee figures the same placement put
    there before this card; the even spread counts them (``place_groups``).
    Ties are broken by ``choices`` (``rules/ties.py``): it raises ``Undecided`` at a tie it has no
    answer for; ``None`` takes every default (the first option in tile order)."""
    choices = choices if choices is not None else Choices.defaults()
    minion = library_of(state).minions[card]
    n = min(count, available(state, card))
    if n <= 0:
        return []
    if minion.size == "large":
        spaces = _large(state, card, n, tile, choices)
    elif minion.attack == "ranged":
        spaces = _ranged(state, card, n, tile, choices)
    else:
        spaces = _melee(state, card, n, tile, choices, alongside or {})
    events: list[FigurePlaced] = []
    for space in spaces:
        event = FigurePlaced(figure=next_figure_id(state, card), card=card, space=space)
        state = evolve(state, event)
        events.append(event)
    return events


def place_groups(
    state: State, groups: Iterable[tuple[str, int]], tile: str, choices: Choices | None = None
) -> list[Event]:
    """One placement (a chapter's setup in one room, an encounter, a summon): every ``(card, count)``
    group on ``tile``'s entrances, small ranged first, then large, then small melee (stable within a
    kind), as ``FigurePlaced`` events.

    MM rulebook (it) §Collocare i Servitori sul Tabellone, 3: "Collocate tutti i Servitori piccoli con Armi da
    Mischia sulle rimanenti caselle ... Cercate di suddividere questi Servitori ... il più equamente
    possibile": the even spread counts every small melee figure of the placement, whatever its card
    (2 Roaches and 2 Rats on the Guard Room's three entrances: 2, 1 and 1). Each card in turn is
    spread over the entrances holding the fewest; the players' ties are ``melee-minion-entrances``
    decisions as for a single card (docs/mice-and-mystics/rulings.md, Placing minions). Ties are broken by
    ``choices`` (``Undecided`` propagates; ``None``: the defaults)."""
    choices = choices if choices is not None else Choices.defaults()
    events: list[Event] = []
    alongside: dict[str, int] = {}
    lib = library_of(state)
    for card, n in sorted(groups, key=lambda g: placement_rank(lib, g[0])):
        placed = place_minions(state, card, n, tile, choices, alongside)
        for event in placed:
            state = evolve(state, event)
            if placement_rank(lib, card) == 2:
                alongside[event.space] = alongside.get(event.space, 0) + 1
        events += placed
    return events
