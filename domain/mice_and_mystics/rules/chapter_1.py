"""Chapter 1 room rules (MM rulebook (it) §Capitolo 1, Regole Speciali del Capitolo; MM rulebook (pt) §Regras
especiais do Capítulo; docs/mice-and-mystics/facts.md §7). Which rule applies where is data
(``Chapter.room_rules``, ``read_aloud``); this module registers each rule's hooks under the id the chapter
data names (``ROOM_RULES``), and ``room_rules.py`` calls them, for the tile the data gives, after the core
rules produced their events.

- Read-aloud (Frammenti di Leggenda): first entry of a room with a text -> ``StoryRead``.
- Courtyard, the nasty old crow (Il Vile Vecchio Corvo): a movement die showing move number 1 for a
  mouse or minion moving in the Courtyard -> 1 wound that cannot be defended. A mouse on the tree
  entrance is safe. Tree entrance: only one adjacent space (content graph), minions may not enter
  (``minion_turn._off_limits``), sight from/to it only to that space (``sight.sees``).
- Kitchen, counter cheese (Tutto il Tabellone): cheese on the counter at the first entry; each
  cheese a roach rolls moves 1 from the counter to the minion cheese wheel (docs/mice-and-mystics/rulings.md).
- Kitchen, Miz Maggie (Farsi Vedere da Miz Maggie): a mouse defeats a roach in the Kitchen -> roll
  1 die: a star wins the story achievement "Miz Maggie Ally" and moves the end marker 1 page on;
  else the mouse is knocked down and the roach goes back on the counter. No roll once allied.
- Sewer, leaving the Sewer (Abbandonare le Fognature, garbled): Explore needs the Fishhook & Thread.
"""

from __future__ import annotations

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DiceRolled, Event, RollRequested
from dicelog.domain.mice_and_mystics.chapter_events import (
    CounterCheesePlaced,
    CounterCheeseTaken,
    CrowDived,
    MizMaggieSwatted,
    RoachDefeatedInKitchen,
    StoryAchievementGained,
)
from dicelog.domain.mice_and_mystics.events import (
    CheeseAddedToWheel,
    EffectAdded,
    EndMarkerMoved,
    FigurePlaced,
    InitiativeCardRemoved,
    InitiativeCardsAdded,
    MinionAttackSkipped,
    MinionDefeated,
    TurnEnded,
)
from dicelog.domain.mice_and_mystics.evolve import evolve_all
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import party_items
from dicelog.domain.mice_and_mystics.rules.combat import wound_minion, wound_mouse
from dicelog.domain.mice_and_mystics.rules.dice import CHEESE, MOVE_NUMBER, STARS, count
from dicelog.domain.mice_and_mystics.rules.flow import PENDING
from dicelog.domain.mice_and_mystics.rules.room_rule_hooks import RoomRuleHooks
from dicelog.domain.mice_and_mystics.rules.turn_end import end_turn
from dicelog.domain.mice_and_mystics.state import State, space_of

SECTION = "MM rulebook (it) §Capitolo 1 (Fuga per Borgoquercia): Regole Speciali del Capitolo"
TREE_ENTRANCE, COUNTER = "tree-entrance", "kitchen-counter"
ROACHES, KNOCKED_DOWN = "roaches", "knocked-down"
MIZ_MAGGIE, MIZ_MAGGIE_ALLY = "miz-maggie", "miz-maggie-ally"
# the number is lost in the Italian and Portuguese MM rulebooks (docs/mice-and-mystics/rulings.md, Kitchen
# counter cheese)
COUNTER_CHEESE_AT_START = 3
FISHHOOK = "fishhook-and-thread"


def rule_tile(state: State, rule: str) -> str | None:
    """The tile the chapter's room rule ``rule`` applies to, if the chapter has it."""
    chapter = library_of(state).chapters.get(state.chapter)
    return next((r.tile for r in chapter.room_rules if r.rule == rule), None) if chapter else None


def tile_of(state: State, figure: str) -> str | None:
    space = space_of(state, figure)
    return library_of(state).space_tile[space] if space is not None else None


def before_pending(events: list[Event], extra: list[Event]) -> list[Event]:
    """``extra`` inserted before a trailing pending node (or appended)."""
    if events and isinstance(events[-1], PENDING):
        return [*events[:-1], *extra, events[-1]]
    return [*events, *extra]


def _check_sewer(state: State, mouse: str, sewer: str) -> None:
    """Leaving the Sewer (docs/mice-and-mystics/rulings.md): no Explore from the Sewer without the Fishhook &
    Thread."""
    if tile_of(state, mouse) == sewer and not party_items.holds(state, FISHHOOK):
        raise RuleBroken(
            "explore.sewer-needs-fishhook",
            section=SECTION,
            detail="leaving the Sewer needs the Fishhook & Thread",
        )


def _counter_cheese_placed(state: State) -> list[Event]:
    """The Kitchen's counter cheese at its first entry (docs/mice-and-mystics/rulings.md, Kitchen counter
    cheese)."""
    return [CounterCheesePlaced(count=COUNTER_CHEESE_AT_START)]


def _crow(state: State, answer: DiceRolled, events: list[Event], courtyard: str) -> list[Event]:
    if answer.reason not in ("move", "scurry", "minion-move") or MOVE_NUMBER[answer.faces[0]] != 1:
        return events
    if answer.reason == "minion-move":
        figure = state.minion_turn.figure if state.minion_turn is not None else None
    else:
        figure = state.mouse_turn.mouse if state.mouse_turn is not None else None
    space = space_of(state, figure) if figure is not None else None
    lib = library_of(state)
    if (
        figure is None
        or space is None
        or lib.space_tile[space] != courtyard
        or lib.spaces[space].feature == TREE_ENTRANCE
    ):
        return events
    dived: list[Event] = [CrowDived(figure=figure, space=space)]
    if figure in state.party:
        after = evolve_all(state, [*events, *dived])
        wounds = wound_mouse(after, figure, 1)
        mouse_out = [*events, *dived, *wounds]
        return (
            mouse_out + end_turn(evolve_all(state, mouse_out), figure)
            if figure in evolve_all(after, wounds).captured
            else mouse_out
        )
    wounds = wound_minion(evolve_all(state, dived), figure, 1)
    if not any(isinstance(e, MinionDefeated) for e in wounds):
        return [*dived, *wounds, *events]
    card = state.figures[figure]
    out: list[Event] = [*dived, *(e for e in wounds if not isinstance(e, InitiativeCardRemoved))]
    out.append(MinionAttackSkipped(figure=figure, reason="defeated by the crow"))
    if any(isinstance(e, InitiativeCardRemoved) for e in wounds):
        out += [TurnEnded(card=card), InitiativeCardRemoved(card=card)]
    return out


def _roller(state: State, reason: str) -> str | None:
    attack = state.attack
    if attack is None:
        return None
    return (
        attack.attacker
        if reason == "minion-attack"
        else attack.target
        if reason == "minion-defense"
        else None
    )


def _counter_cheese(state: State, answer: DiceRolled, events: list[Event], kitchen: str) -> list[Event]:
    roach = _roller(state, answer.reason)
    if (
        not state.counter_cheese
        or roach is None
        or state.figures.get(roach) != ROACHES
        or tile_of(state, roach) != kitchen
    ):
        return events
    n = min(count(answer.faces, CHEESE), state.counter_cheese)
    if not n:
        return events
    moved = [CounterCheeseTaken(count=n, figure=roach), CheeseAddedToWheel(count=n, reason="kitchen-counter")]
    return before_pending(events, moved)


def _miz_maggie(state: State, answer: DiceRolled, events: list[Event], kitchen: str) -> list[Event]:
    attack = state.attack
    if MIZ_MAGGIE_ALLY in state.story_achievements or attack is None or attack.attacker not in state.party:
        return events
    if events and isinstance(events[-1], PENDING):
        return events
    roach = next((e.figure for e in events if isinstance(e, MinionDefeated) and e.card == ROACHES), None)
    if roach is None or tile_of(state, roach) != kitchen:
        return events
    mouse = attack.attacker
    return [
        *events,
        RoachDefeatedInKitchen(mouse=mouse, figure=roach),
        RollRequested(reason=MIZ_MAGGIE, dice=1, piece=mouse),
    ]


def counter_space(state: State) -> str | None:
    kitchen = rule_tile(state, "counter-cheese") or rule_tile(state, MIZ_MAGGIE)
    spaces = library_of(state).tiles[kitchen].spaces if kitchen else ()
    return next((s.id for s in spaces if s.area == COUNTER), None)


def resolve_miz_maggie(state: State, answer: DiceRolled) -> list[Event]:
    """A star: "Miz Maggie Ally" and the end marker 1 page on. Else the mouse is knocked down and the
    defeated roach goes back on the counter (its card back on the track if it had left)."""
    mouse = state.mouse_turn.mouse if state.mouse_turn is not None else None
    roach = state.kitchen_roach
    if count(answer.faces, STARS):
        return [
            StoryAchievementGained(achievement=MIZ_MAGGIE_ALLY),
            EndMarkerMoved(page=state.end_marker_page + 1, reason=MIZ_MAGGIE_ALLY),
        ]
    space = counter_space(state)
    events: list[Event] = [MizMaggieSwatted(mouse=mouse or "", figure=roach or "", space=space or "")]
    if mouse is not None and space_of(state, mouse) is not None:
        events.append(EffectAdded(mouse=mouse, effect=KNOCKED_DOWN))
    if roach is not None and space is not None:
        events.append(FigurePlaced(figure=roach, card=ROACHES, space=space))
        if ROACHES not in state.track:
            events.append(InitiativeCardsAdded(cards=(ROACHES,)))
    return events


ROOM_RULES: dict[str, RoomRuleHooks] = {
    "crow": RoomRuleHooks(after_roll=_crow),
    "tree-entrance": RoomRuleHooks(),  # the content graph, minion_turn._off_limits and sight.sees play it
    "counter-cheese": RoomRuleHooks(first_entry=_counter_cheese_placed, after_roll=_counter_cheese),
    "miz-maggie": RoomRuleHooks(after_roll=_miz_maggie, rolls=((MIZ_MAGGIE, resolve_miz_maggie),)),
    "leaving-the-sewer": RoomRuleHooks(check_explore=_check_sewer),
}
"""Chapter 1's room rules by the ids ``Chapter.room_rules`` names (MM rulebook (it) §Capitolo 1, Regole
Speciali)."""
