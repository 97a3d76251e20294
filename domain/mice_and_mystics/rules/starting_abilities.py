"""Choosing an ability card for each mouse at chapter setup (MM rulebook (it) §Preparazione del Gioco,
"Scegliere una Abilità: i giocatori scelgono 1 carta Abilità per ogni Topo, controllando che questa soddisfi
le condizioni di Classe"; MM rulebook (it) §Carte Abilità: "All'inizio della partita i giocatori sceglieranno
una carta Abilità per ogni Topo in gioco"; docs/mice-and-mystics/facts.md §4).

The choice is the players': either in the setup document (``Setup.abilities``: mouse → card,
checked when the game is created) or, for every mouse the document leaves out, as a pending
decision at setup, one mouse at a time in party order (``DecisionRequested(decision=
"starting-ability", piece=mouse, options=eligible cards, default=the first card whose effect dicelog
plays)``). The initiative
shuffle is asked once every mouse has its card. The eligible cards are those of the mouse's class
(or any class) that no other mouse holds (each card exists once: ``free_actions.eligible_abilities``).

A mouse that enters a campaign chapter with abilities kept from the previous chapter (MM rulebook (it)
§Giocare Mice and Mystics come una Campagna, 1) takes no new card: the setup choice is made once, at the start
of the mouse's first chapter (docs/mice-and-mystics/rulings.md, Starting ability cards). A sandbox table takes
the cards its setup document names and asks nothing (it reconstructs a table, it does not prepare one).
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from dicelog.domain.core.errors import InvariantViolated, RuleBroken
from dicelog.domain.core.events import DecisionMade, DecisionRequested, Event, ShuffleRequested
from dicelog.domain.mice_and_mystics.chapter_events import StartingAbilityTaken
from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.documents import CarryOver
from dicelog.domain.mice_and_mystics.evolve import evolve, evolve_all
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import sections
from dicelog.domain.mice_and_mystics.rules.ability_cards import IMPLEMENTED
from dicelog.domain.mice_and_mystics.rules.free_actions import eligible_abilities
from dicelog.domain.mice_and_mystics.state import State

STARTING_ABILITY = "starting-ability"


def _carried(carry: CarryOver | None, mouse: str) -> bool:
    return carry is not None and bool(carry.abilities.get(mouse))


def check_setup_abilities(
    lib: Library, chosen: Mapping[str, str], party: tuple[str, ...], carry: CarryOver | None
) -> None:
    """Refuse a setup choice of starting ability cards the rules do not allow.

    ``chosen`` maps a party mouse to an ability card id. Raises ``RuleBroken``:
    ``setup.ability-mouse`` (a mouse not in the party, or one that keeps abilities from the previous
    chapter of a campaign), ``setup.unknown-ability``, ``setup.ability-not-eligible`` (not of the
    mouse's class, or chosen for two mice, or already held through the carry-over).
    """
    held = {a for abilities in (carry.abilities.values() if carry else ()) for a in abilities}
    seen: set[str] = set()
    for mouse, ability in chosen.items():
        if mouse not in party:
            raise RuleBroken(
                "setup.ability-mouse", section=sections.SETUP, detail=f"{mouse!r} is not in the party"
            )
        if _carried(carry, mouse):
            raise RuleBroken(
                "setup.ability-mouse",
                section=sections.SETUP,
                detail=f"{mouse} keeps its abilities from the previous chapter and takes no new card",
            )
        if ability not in lib.abilities:
            raise RuleBroken(
                "setup.unknown-ability", section=sections.SETUP, detail=f"no ability card {ability!r}"
            )
        classes = set(lib.mice[mouse].classes) | {"any"}
        card = lib.abilities[ability]
        if not set(card.classes) & classes or (card.mice and mouse not in card.mice) or card.story_unlocked:
            raise RuleBroken(
                "setup.ability-not-eligible",
                section=sections.SETUP,
                detail=f"{ability} needs the class {'/'.join(card.classes)}; "
                f"{mouse} is {'/'.join(lib.mice[mouse].classes)}",
            )
        if ability in seen or ability in held:
            raise RuleBroken(
                "setup.ability-not-eligible",
                section=sections.SETUP,
                detail=f"{ability} is chosen twice (each ability card exists once)",
            )
        seen.add(ability)


def _waiting(state: State) -> tuple[str, tuple[str, ...]] | None:
    """The first party mouse still without a starting card that has a card to take, and its options."""
    for mouse in state.party:
        if not state.abilities.get(mouse) and not _carried(state.carry_in, mouse):
            options = tuple(eligible_abilities(state, mouse))
            if options:
                return mouse, options
    return None


def _next_request(state: State) -> list[Event]:
    """The decision for the next mouse still without a starting card, or nothing."""
    waiting = _waiting(state)
    if waiting is None:
        return []
    mouse, options = waiting
    return [
        DecisionRequested(
            decision=STARTING_ABILITY, options=options, piece=mouse, default=default_card(options)
        )
    ]


def default_card(options: tuple[str, ...]) -> str:
    """The default answer: the first option whose effect dicelog plays (``ability_cards.IMPLEMENTED``),
    else the first option, so a ``decision_policy="default"`` party holds cards it can use."""
    return next((o for o in options if o in IMPLEMENTED), options[0])


def initiative_request(state: State) -> ShuffleRequested:
    """MM rulebook (it) §Determinare l'Ordine di Iniziativa: the mice's and the chapter's minion cards
    shuffled."""
    minion_cards = tuple(dict.fromkeys(g.card for g in library_of(state).chapters[state.chapter].minions))
    return ShuffleRequested(reason="initiative", cards=(*state.party, *minion_cards))


def begin_tail(state: State) -> list[Event]:
    """The end of ``decide_begin`` on the table ``state`` (tiles, figures, story board and decks
    already folded): the cards chosen in the setup document, then the first pending choice, or the
    initiative shuffle if every mouse has its card. Cards kept through a campaign carry-over (applied
    right after the decks, ``campaign.with_carry_over``) already count as held."""
    if state.carry_in is not None:
        kept = {m: a for m, a in state.carry_in.abilities.items() if m in state.party}
        state = replace(state, abilities={**state.abilities, **kept})
    events: list[Event] = [
        StartingAbilityTaken(mouse=m, ability=a, chosen_in="setup")
        for m in state.party
        if (a := state.setup_abilities.get(m))
    ]
    state = evolve_all(state, events)
    return events + (_next_request(state) or [initiative_request(state)])


def resolve_starting_ability(state: State, answer: DecisionMade) -> list[Event]:
    """The chosen card taken by the pending mouse; then the next mouse's choice or the shuffle.

    ``answer.option`` was one of the request's options (the core checks it)."""
    waiting = _waiting(state)
    if waiting is None:
        raise InvariantViolated(
            "starting-ability-waiting",
            "a starting-ability decision is only asked while a mouse waits for its card",
        )
    taken = StartingAbilityTaken(mouse=waiting[0], ability=answer.option)
    return [taken, *(_next_request(evolve(state, taken)) or [initiative_request(state)])]
