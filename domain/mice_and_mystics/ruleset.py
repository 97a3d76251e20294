"""The Mice and Mystics ruleset (``dicelog.domain.core.ruleset.Ruleset``), read as a table.

``decide`` dispatches each command to ``decide_<action>`` in the rules module of its rulebook
section; ``resolve`` continues after a roll, shuffle, draw or decision by its reason. Both then let
the server run the game forward (``flow.proceed``: minion turns, summons, the next turns) unless
they stopped at a pending node. ``evolve`` is in ``evolve.py``. Sections cited are those of
rules/MM rulebook (it) and rules/MM rulebook (it) (see rules/sections.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dicelog.domain.core.commands import Command
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, CardsShuffled, DecisionMade, DiceRolled, Event
from dicelog.domain.core.ruleset import Answer, Begin, WebAssets
from dicelog.domain.mice_and_mystics import bot as seat_bot
from dicelog.domain.mice_and_mystics import campaign, catalogue
from dicelog.domain.mice_and_mystics.chapter_events import ChapterStoryRead
from dicelog.domain.mice_and_mystics.commands import (
    AnyCommand,
    Battle,
    Catapult,
    EndTurn,
    Equip,
    Explore,
    LeaveWater,
    LevelUp,
    Move,
    MoveTo,
    PickUpFork,
    PlaceFishhook,
    PlaceFork,
    PlaceGrapes,
    Recover,
    RemoveFishhook,
    Scurry,
    Search,
    Share,
    ThrowGrapes,
    Unequip,
    UseAbility,
    UseScroll,
)
from dicelog.domain.mice_and_mystics.content import shipped_library
from dicelog.domain.mice_and_mystics.demo import DEMO
from dicelog.domain.mice_and_mystics.documents import CarryOver, CarryOverChoice
from dicelog.domain.mice_and_mystics.events import EVENT_TYPES
from dicelog.domain.mice_and_mystics.evolve import evolve, evolve_all
from dicelog.domain.mice_and_mystics.legacy_topics import RELEASE_0_1_TOPICS
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.read_models import board_view, describe, initiative_view
from dicelog.domain.mice_and_mystics.rules import (
    ability_cards,
    bait,
    bosses,
    brodie,
    captured,
    cards,
    charmed,
    combat,
    deferred,
    equip,
    explore,
    fork,
    free_actions,
    grapes,
    inspire,
    item_cards,
    knife_strike,
    minion_turn,
    mousetraps,
    party_items,
    preemptive_shot,
    recover,
    room_rules,
    scrolls,
    search,
    sections,
    special_search,
    starting_abilities,
    summoning,
    ties,
    water,
)
from dicelog.domain.mice_and_mystics.rules.battle import decide_battle, legal_battles
from dicelog.domain.mice_and_mystics.rules.captured import outcome as chapter_outcome
from dicelog.domain.mice_and_mystics.rules.dice import DIE_FACES
from dicelog.domain.mice_and_mystics.rules.flow import PENDING, decide_end_turn, proceed
from dicelog.domain.mice_and_mystics.rules.initiative import resolve_initiative
from dicelog.domain.mice_and_mystics.rules.movement import (
    decide_move,
    decide_move_to,
    decide_scurry,
    legal_moves,
    resolve_move_roll,
)
from dicelog.domain.mice_and_mystics.rules.setup import Setup, SetupDocument, initial_state
from dicelog.domain.mice_and_mystics.state import LATE_FIELDS, RULES_REVISION, State

NAME = "mice-and-mystics"
MOUSE_COMMANDS: tuple[type[Command], ...] = (
    Move,
    MoveTo,
    EndTurn,
    Battle,
    Search,
    Recover,
    Scurry,
    Explore,
    LeaveWater,
)
# Each decides one command type (its second parameter), found by the command's exact type.
ITEM_COMMANDS: dict[type[Command], Callable[[State, Any], list[Event]]] = {
    Share: free_actions.decide_share,
    Equip: equip.decide_equip,
    Unequip: equip.decide_unequip,
    LevelUp: free_actions.decide_level_up,
    UseAbility: ability_cards.decide_use_ability,
    PlaceFishhook: party_items.decide_place_fishhook,
    RemoveFishhook: party_items.decide_remove_fishhook,
    PlaceFork: fork.decide_place_fork,
    Catapult: fork.decide_catapult,
    PickUpFork: fork.decide_pick_up_fork,
    ThrowGrapes: grapes.decide_throw_grapes,
    PlaceGrapes: bait.decide_place_grapes,
    UseScroll: scrolls.decide_use_scroll,
}
MOUSE_COMMANDS = (*MOUSE_COMMANDS, *ITEM_COMMANDS)

ROLLS = {
    "move": resolve_move_roll,
    "scurry": resolve_move_roll,
    "battle": combat.resolve_attack_roll,
    "minion-attack": combat.resolve_attack_roll,
    "minion-defense": combat.resolve_defense_roll,
    "mouse-defense": combat.resolve_defense_roll,
    "minion-move": minion_turn.resolve_minion_move,
    "search": search.resolve_search_roll,
    "recover": recover.resolve_recover_roll,
    charmed.CHARMED_MOVE: charmed.resolve_charmed_move,
    charmed.CHARMED_ATTACK: combat.resolve_attack_roll,
    brodie.CHASE: brodie.resolve_chase,
    bosses.AMBUSH: bosses.resolve_ambush,
    mousetraps.MOUSETRAP: mousetraps.resolve_mousetrap,
    water.LEAVE_WATER: water.resolve_leave_water,
    **room_rules.ROLLS,
    grapes.THROW: grapes.resolve_grapes,
}
SHUFFLES = {
    "initiative": resolve_initiative,
    summoning.NEW_MINIONS: summoning.resolve_new_minions,
    explore.ENCOUNTER_INITIATIVE: explore.resolve_encounter_initiative,
}
DRAWS = {
    "search": search.resolve_search_draw,
    "encounter": explore.resolve_encounter_draw,
    bosses.BOSS_CARDS: bosses.resolve_boss_cards,
}
DECISIONS = {
    captured.RELEASE: captured.resolve_release,
    search.KEEP: search.resolve_keep,
    cards.PACK_DISCARD: cards.resolve_pack_limit,
    bosses.BOSS_WOUND: bosses.resolve_boss_wound,
    special_search.SPECIAL_SEARCH: special_search.resolve_special_search,
    special_search.TREASURE_PICK: special_search.resolve_treasure_pick,
    item_cards.CLOAK: combat.resolve_cloak,
    starting_abilities.STARTING_ABILITY: starting_abilities.resolve_starting_ability,
    knife_strike.KNIFE_STRIKE: knife_strike.resolve_knife_strike,
    preemptive_shot.PREEMPTIVE_SHOT: preemptive_shot.resolve_preemptive_shot,
    **dict.fromkeys(ties.TIE_DECISIONS, deferred.resume),
}


def _decide(state: State, command: Command) -> list[Event]:
    if type(command) in ITEM_COMMANDS:
        return ITEM_COMMANDS[type(command)](state, command)
    match command:
        case Begin():
            return deferred.begin(state)
        case Move():
            return decide_move(state, command)
        case MoveTo():
            return decide_move_to(state, command)
        case EndTurn():
            return decide_end_turn(state, command)
        case Battle():
            return decide_battle(state, command)
        case Scurry():
            return decide_scurry(state, command)
        case Search():
            return search.decide_search(state, command)
        case Recover():
            return recover.decide_recover(state, command)
        case LeaveWater():
            return water.decide_leave_water(state, command)
        case Explore():
            room_rules.check_explore(state, command.mouse)
            return party_items.after_explore(
                state, room_rules.after_explore(state, explore.decide_explore(state, command))
            )
        case _:
            raise RuleBroken(
                "command.unknown",
                section=sections.SETUP,
                detail=f"{type(command).__name__} is not a command here",
            )


def _then_proceed(state: State, events: list[Event]) -> list[Event]:
    if events and isinstance(events[-1], PENDING):
        return events
    after = evolve_all(state, events)
    more = proceed(after)
    return events + more + story_continues(evolve_all(after, more))


def story_continues(state: State) -> list[Event]:
    """``[ChapterStoryRead(story-continues)]`` once the chapter is won, if the chapter has that text
    (MM rulebook (it) «Il Racconto Continua…»: read at the end of certain chapters; rules revision 2); else
    ``[]``."""
    if state.rules_revision < 2 or chapter_outcome(state) != "victory":
        return []
    text = library_of(state).chapters[state.chapter].story_continues
    return [ChapterStoryRead(part="story-continues", text=text)] if text else []


def decide(state: State, command: Command) -> list[Event]:
    if state.phase == "ended":
        raise RuleBroken("game.over", section=sections.STORY_BOARD, detail="the chapter has ended")
    return _then_proceed(state, inspire.charge_extra_action(state, _decide(state, command)))


def resolve(state: State, answer: Answer) -> list[Event]:
    match answer:
        case DiceRolled(reason=reason) if reason in ROLLS:
            events = room_rules.after_roll(state, answer, ROLLS[reason](state, answer))
            if reason == "search":
                events = special_search.after_search_roll(state, events)
        case CardsShuffled(reason=reason) if reason in SHUFFLES:
            events = SHUFFLES[reason](state, answer)
        case CardsDrawn(reason=reason) if reason in DRAWS:
            events = DRAWS[reason](state, answer)
        case DecisionMade(decision=decision) if decision in DECISIONS:
            events = DECISIONS[decision](state, answer)
        case _:
            events = []
    return _then_proceed(state, events)


def outcome(state: State) -> str | None:
    """MM rulebook (it) §Plancia del Racconto; MM rulebook (it) §Capitolo 1: Obiettivi del Capitolo (see
    ``captured.outcome``)."""
    return captured.outcome(state)


def card_id(state: State, deck: str, text: str) -> str | None:
    """The id of the search card printed with the name ``text`` (any case, spaces around ignored)
    when ``deck`` is the search deck, so a table enters a drawn card as it reads it; ``None``
    otherwise (encounter cards have no known printed names: docs/mice-and-mystics/facts.md §6)."""
    if deck != "search":
        return None
    wanted = text.strip().casefold()
    cards = library_of(state).search_cards.values()
    return next((card.id for card in cards if card.name.casefold() == wanted), None)


def outcome_reason(state: State) -> str:
    """Why the chapter ended (``GameEnded.reason``; see ``captured.outcome_reason``)."""
    return captured.outcome_reason(state)


def piece_of(command: Command) -> str | None:
    return getattr(command, "mouse", None) if isinstance(command, MOUSE_COMMANDS) else None


def turn_piece(state: State) -> str | None:
    return state.mouse_turn.mouse if state.mouse_turn is not None and state.phase == "playing" else None


def turn_card(state: State) -> str | None:
    """The initiative card whose turn it is (MM rulebook (it) §Round di Gioco): the mouse's id during a
    mouse's turn, the minion or boss card during the minions' turn (``rat-warriors``); ``None`` before the
    first turn, between turns and after the end. What the API calls ``turn``; ``turn_piece`` is the mouse a
    seat plays."""
    if state.phase != "playing":
        return None
    if state.mouse_turn is not None:
        return state.mouse_turn.mouse
    return state.minion_turn.card if state.minion_turn is not None else None


def legal_commands(state: State) -> list[Command]:
    """Exactly the commands ``decide`` accepts now; empty while a roll/shuffle/draw/decision is pending."""
    if state.awaiting is not None or state.phase == "ended":
        return []
    if state.phase == "setup":
        return [Begin()]
    mouse = turn_piece(state)
    if mouse is None or state.attack is not None or charmed.is_charmed_turn(state):
        return []
    return [
        *legal_moves(state, mouse),
        *water.legal_leave_water(state, mouse),
        *legal_battles(state, mouse),
        *search.legal_searches(state, mouse),
        *recover.legal_recovers(state, mouse),
        *(c for c in explore.legal_explores(state, mouse) if room_rules.may_explore(state, mouse)),
        *free_actions.legal_shares(state, mouse),
        *equip.legal_equips(state, mouse),
        *free_actions.legal_level_ups(state, mouse),
        *ability_cards.legal_abilities(state, mouse),
        *party_items.legal_party_items(state, mouse),
        *fork.legal_fork(state, mouse),
        *grapes.legal_throws(state, mouse),
        *bait.legal_baits(state, mouse),
        *scrolls.legal_scrolls(state, mouse),
        EndTurn(mouse=mouse),
    ]


class MiceAndMysticsRuleset:
    """The ruleset object, found by the registry as the entry point ``mice-and-mystics`` (pyproject.toml)."""

    name = NAME
    rules_revision = RULES_REVISION
    die_faces = DIE_FACES
    late_fields = LATE_FIELDS
    setup_type = Setup
    stored_setup_type = SetupDocument
    state_type = State
    command_type = AnyCommand
    event_types = EVENT_TYPES
    legacy_topics = RELEASE_0_1_TOPICS
    """The module-path topics release 0.1 stored its events under (``legacy_topics.py``)."""
    initial_state = staticmethod(initial_state)
    decide = staticmethod(decide)
    resolve = staticmethod(resolve)
    evolve = staticmethod(evolve)
    outcome = staticmethod(outcome)
    piece_of = staticmethod(piece_of)
    turn_piece = staticmethod(turn_piece)
    turn_card = staticmethod(turn_card)
    legal_commands = staticmethod(legal_commands)
    initiative_view = staticmethod(initiative_view)
    board_view = staticmethod(board_view)
    describe = staticmethod(describe)
    campaign_carry_over = staticmethod(campaign.campaign_carry_over)
    campaign_choice = staticmethod(campaign.campaign_choice)
    campaign_chapters = staticmethod(campaign.campaign_chapters)
    campaign_choice_type = CarryOverChoice
    campaign_carry_over_type = CarryOver
    outcome_reason = staticmethod(outcome_reason)
    card_id = staticmethod(card_id)
    bot = seat_bot
    """Its bot (``choose``, ``decide``): bot seats and the demo's players."""
    demo = DEMO
    web = WebAssets(
        package="dicelog.domain.mice_and_mystics", folder="web", table="table.js", lobby="lobby.js"
    )
    """Its web pages' files (``domain/mice_and_mystics/web``, served at
    ``/web/rulesets/mice-and-mystics/``): its table module (``table.js``: board, cards, initiative,
    controls, and the history page's board and event lines), the board picture, the words of its
    commands and dice, and the lobby's setup form (``lobby.js``: chapter and mice)."""
    content = catalogue.CONTENT
    """Its content catalogue (``/content/mice-and-mystics/...``)."""
    content_aliases = catalogue.CONTENT_ALIASES
    default_when_unnamed = True
    """A ``POST /games`` body without ``ruleset`` is a Mice and Mystics game: the releases that served it
    alone published the field as optional, and clients written for them may leave it out."""
    check_content = staticmethod(catalogue.check_content)

    @staticmethod
    def warm_up() -> None:
        """Load the shipped content (decoded lazily and cached) before requests run concurrently."""
        shipped_library()


RULESET = MiceAndMysticsRuleset()
