"""Starting ability cards (MM rulebook (it) §Preparazione del Gioco, "Scegliere una Abilità"; MM rulebook (it)
§Carte Abilità; MM rulebook (it) §Giocare Mice and Mystics come una Campagna; rules/starting_abilities.py)."""

import json

import msgspec
import pytest

from dicelog.domain.core.commands import Choose
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionMade, DecisionRequested, GameCreated, Seat, ShuffleRequested
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.mice_and_mystics.chapter_events import CarryOverApplied, StartingAbilityTaken
from dicelog.domain.mice_and_mystics.events import InitiativeTrackLaid
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import PARTY, Table, answer, fold_events, of_type

SEATS = (Seat(name="north", controls=PARTY[:2]), Seat(name="south", controls=PARTY[2:]))


def created(**setup) -> GameCreated:
    doc = {"chapter": "chapter-1", "mice": list(PARTY), **setup}
    return GameCreated(
        ruleset="mice-and-mystics",
        setup=msgspec.Raw(json.dumps(doc).encode()),
        seats=SEATS,
        dice_mode="manual",
    )


def begun(**setup):
    state = RULESET.initial_state(created(**setup))
    events = RULESET.decide(state, Begin())
    return events, fold_events(state, events)


def test_rulebook_scegliere_una_abilita_each_mouse_chooses_one_card_of_its_class_in_party_order():
    events, state = begun()
    assert events[-1] == DecisionRequested(
        decision="starting-ability",
        piece="collin",
        default="first-aid",  # the first card dicelog plays
        options=(
            "backslash",
            "battle-leader",
            "battle-squeak",
            "feint",
            "first-aid",
            "give-order",
            "inspire",
            "protect",
            "resolve",
            "thundersqueak",
        ),
    )
    assert not of_type(events, ShuffleRequested), "initiative waits for the ability cards"
    events, state = answer(state, DecisionMade(decision="starting-ability", option="first-aid", by="north"))
    assert events[0] == StartingAbilityTaken(mouse="collin", ability="first-aid")
    assert events[1].piece == "tilda"
    assert "first-aid" not in events[1].options, (
        "each ability card exists once (docs/mice-and-mystics/facts.md §4)"
    )
    assert events[1].options == ("cure", "fortify", "major-heal", "thundersqueak")
    assert events[1].default == "cure"
    for option in ("cure", "knife-strike"):
        events, state = answer(state, DecisionMade(decision="starting-ability", option=option, by="x"))
    assert events[-1].piece == "maginos"
    assert "meeps" not in events[-1].options, (
        "Meeps is given by the story, not chosen (docs/mice-and-mystics/facts.md §4)"
    )
    events, state = answer(
        state, DecisionMade(decision="starting-ability", option="chain-lightning", by="south")
    )
    assert events == [
        StartingAbilityTaken(mouse="maginos", ability="chain-lightning"),
        ShuffleRequested(reason="initiative", cards=(*PARTY, "rat-warriors")),
    ]
    assert state.abilities == {
        "collin": ("first-aid",),
        "tilda": ("cure",),
        "filch": ("knife-strike",),
        "maginos": ("chain-lightning",),
    }


def test_rulebook_scegliere_una_abilita_the_setup_document_may_carry_the_choice():
    chosen = {"collin": "inspire", "tilda": "first-aid", "filch": "dodge", "maginos": "mystic-bolt"}
    events, state = begun(abilities=chosen)
    assert of_type(events, StartingAbilityTaken) == [
        StartingAbilityTaken(mouse=m, ability=a, chosen_in="setup") for m, a in chosen.items()
    ]
    assert events[-1] == ShuffleRequested(reason="initiative", cards=(*PARTY, "rat-warriors"))
    assert state.abilities == {m: (a,) for m, a in chosen.items()}


def test_rulebook_scegliere_una_abilita_mice_the_document_leaves_out_are_asked():
    events, state = begun(abilities={"tilda": "first-aid", "maginos": "mystic-bolt"})
    assert events[-1].piece == "collin" and "first-aid" not in events[-1].options
    events, state = answer(state, DecisionMade(decision="starting-ability", option="inspire", by="north"))
    assert events[-1].piece == "filch", "tilda already has her card"
    events, state = answer(state, DecisionMade(decision="starting-ability", option="find", by="south"))
    assert isinstance(events[-1], ShuffleRequested)


@pytest.mark.parametrize(
    ("abilities", "rule"),
    [
        ({"collin": "cure"}, "setup.ability-not-eligible"),  # Healer card for a Leader/Warrior
        ({"maginos": "meeps"}, "setup.ability-not-eligible"),  # story-unlocked
        ({"collin": "first-aid", "tilda": "first-aid"}, "setup.ability-not-eligible"),  # one copy
        ({"collin": "fireball"}, "setup.unknown-ability"),
        ({"nez": "feint"}, "setup.ability-mouse"),  # not in the party
    ],
)
def test_rulebook_scegliere_una_abilita_the_class_condition_is_checked_at_creation(abilities, rule):
    with pytest.raises(RuleBroken, match=rule):
        RULESET.initial_state(created(abilities=abilities))


def test_rulebook_campagna_a_mouse_keeping_its_abilities_takes_no_new_card():
    carry = {"from_chapter": "chapter-1", "abilities": {"collin": ["first-aid"], "filch": ["knife-strike"]}}
    events, state = begun(carry_over=carry)
    assert of_type(events, CarryOverApplied)
    assert events[-1].piece == "tilda", "collin kept first-aid"
    assert events[-1].options == ("cure", "fortify", "major-heal", "thundersqueak"), (
        "first-aid is held by collin"
    )
    events, state = answer(state, DecisionMade(decision="starting-ability", option="cure", by="south"))
    assert events[-1].piece == "maginos", "filch kept knife-strike"
    events, state = answer(state, DecisionMade(decision="starting-ability", option="mystic-bolt", by="south"))
    assert isinstance(events[-1], ShuffleRequested)
    assert state.abilities == {
        "collin": ("first-aid",),
        "filch": ("knife-strike",),
        "tilda": ("cure",),
        "maginos": ("mystic-bolt",),
    }
    with pytest.raises(RuleBroken, match="setup.ability-mouse"):
        RULESET.initial_state(created(carry_over=carry, abilities={"collin": "feint"}))
    with pytest.raises(RuleBroken, match="setup.ability-not-eligible"):
        RULESET.initial_state(created(carry_over=carry, abilities={"tilda": "first-aid"}))


def test_rulebook_preparazione_begin_is_refused_while_the_abilities_are_being_chosen():
    _, state = begun()
    with pytest.raises(RuleBroken, match="setup.already-begun"):
        RULESET.decide(state, Begin())


def test_rulebook_scegliere_una_abilita_a_sandbox_takes_the_named_cards_and_asks_nothing():
    sandbox = {
        "tiles": [{"tile": 1, "column": 0, "row": 0}],
        "figures": [{"mouse": m, "space": "CY-6"} for m in PARTY],
        "track": list(PARTY),
    }
    events, state = begun(sandbox=sandbox, abilities={"filch": "dodge"})
    taken = events.index(StartingAbilityTaken(mouse="filch", ability="dodge", chosen_in="setup"))
    assert taken < next(i for i, e in enumerate(events) if isinstance(e, InitiativeTrackLaid))
    assert not of_type(events, DecisionRequested)
    assert state.abilities == {"filch": ("dodge",)}


def test_rulebook_scegliere_una_abilita_through_the_core_the_controlling_seat_answers_and_replay_agrees():
    from dicelog.domain.core.game import fold

    table = Table(choose_abilities=False)
    pending = table.game.pending
    assert isinstance(pending, DecisionRequested) and pending.piece == "collin"
    table.play(Choose(option="inspire"), seat="north")
    assert table.game.pending.piece == "tilda"
    while isinstance(table.game.pending, DecisionRequested):
        table.play(
            Choose(option=table.game.pending.default),
            seat="north" if table.game.pending.piece in PARTY[:2] else "south",
        )
    assert isinstance(table.game.pending, ShuffleRequested)
    assert fold(None, table.records).state == table.state
    assert table.state.abilities["collin"] == ("inspire",)


def test_rulebook_scegliere_una_abilita_the_default_is_a_card_whose_effect_is_played():
    """The decision's default (what a ``decision_policy="default"`` game takes) is the first option
    dicelog plays; a mouse whose options are all unknown-effect cards gets the first option."""
    from dicelog.domain.mice_and_mystics.rules.ability_cards import IMPLEMENTED
    from dicelog.domain.mice_and_mystics.rules.starting_abilities import default_card

    assert default_card(("dodge", "energy-rush", "find", "keen-eye", "knife-strike")) == "knife-strike"
    assert default_card(("backslash", "feint")) == "backslash"
    table = Table()
    assert all(a in IMPLEMENTED for held in table.state.abilities.values() for a in held)
