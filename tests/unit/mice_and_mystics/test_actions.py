"""A mouse's turn: move and one action in either order (MM rulebook (it) §Il Turno di un Topo; MM rulebook
(it) §Scatto; MM rulebook (it) §Effetti Negativi)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.commands import Battle, EndTurn, Move, MoveTo, Recover, Scurry, Search
from dicelog.domain.mice_and_mystics.events import (
    ActionStarted,
    EffectAdded,
    FigurePlaced,
    MouseMoved,
    MovementPointsGained,
)
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, chapter_1_table, roll


def at(space: str, figure: str = "filch") -> FigurePlaced:
    return FigurePlaced(figure=figure, card=figure, space=space)


def test_one_action_per_turn_a_second_is_refused__rulebook_il_turno_di_un_topo():
    """MM rulebook (it) §Il Turno di un Topo: "un Topo può eseguire 1 Azione" (Scatto, Attacco, Ricerca,
    Recupero, Esplorare)."""
    state = chapter_1_table(ActionStarted(mouse="filch", action="search"))
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))
    with pytest.raises(RuleBroken, match="action.already-taken"):
        RULESET.decide(state, Search(mouse="filch"))
    assert not [c for c in RULESET.legal_commands(state) if isinstance(c, (Battle, Search, Scurry))]


def test_act_then_move__rulebook_il_turno_di_un_topo():
    """MM rulebook (it) §Il Turno di un Topo: "eseguire 1 Azione e poi muovere"."""
    state = chapter_1_table(ActionStarted(mouse="filch", action="search"))
    assert RULESET.decide(state, Move(mouse="filch")) == [RollRequested(reason="move", dice=1, piece="filch")]


def test_move_then_act__rulebook_il_turno_di_un_topo():
    """MM rulebook (it) §Il Turno di un Topo: "oppure prima muovere e poi eseguire una delle seguenti
    Azioni"."""
    state = chapter_1_table(
        MovementPointsGained(mouse="filch", die_number=1, move_value=3, points=4),
        MouseMoved(mouse="filch", origin="GR-6", path=("GR-2",), cost=1),
    )
    events = RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))
    assert events[0] == ActionStarted(mouse="filch", action="battle")


def test_acting_after_rolling_gives_the_unwalked_move_up__rulebook_il_turno_di_un_topo():
    """MM rulebook (it) §Il Turno di un Topo ("1 Azione e poi muovere, oppure prima muovere e poi" act): a
    mouse that rolled to move and then acts has had its move (docs/mice-and-mystics/rulings.md, mouse
    turn)."""
    state = chapter_1_table(MovementPointsGained(mouse="filch", die_number=1, move_value=3, points=4))
    _, state = act(state, Search(mouse="filch"))
    _, state = roll(state, 1)
    assert state.mouse_turn.moved
    with pytest.raises(RuleBroken, match="move.already-moved"):
        RULESET.decide(state, MoveTo(mouse="filch", path=("GR-7",)))


def test_legal_commands_list_one_battle_per_valid_target__rulebook_il_turno_di_un_topo():
    """MM rulebook (it) §Il Turno di un Topo (the actions on offer); MM rulebook (it) §Attacco in Mischia
    (only the rat next to Filch on GR-2 is in reach)."""
    legal = RULESET.legal_commands(chapter_1_table())
    assert [c for c in legal if isinstance(c, Battle)] == [Battle(mouse="filch", target="rat-warriors-1")]
    assert (
        Move(mouse="filch") in legal
        and Search(mouse="filch") in legal
        and legal[-1] == EndTurn(mouse="filch")
    )


def test_scurry_needs_a_move_first_then_rolls_again__rulebook_scatto():
    """MM rulebook (it) §Scatto: "Se un Topo ha già mosso, può utilizzare l'Azione Scatto per muovere di
    nuovo. Per Scattare lanciate un Dado Azione e muovete ancora, utilizzando il nuovo risultato"."""
    state = chapter_1_table()
    with pytest.raises(RuleBroken, match="scurry.not-moved"):
        RULESET.decide(state, Scurry(mouse="filch"))
    state = chapter_1_table(
        MovementPointsGained(mouse="filch", die_number=1, move_value=3, points=4),
        MouseMoved(mouse="filch", origin="GR-6", path=("GR-10",), cost=1),
    )
    assert Scurry(mouse="filch") in RULESET.legal_commands(state)
    events, state = act(state, Scurry(mouse="filch"))
    assert events == [
        ActionStarted(mouse="filch", action="scurry"),
        RollRequested(reason="scurry", dice=1, piece="filch"),
    ]
    events, state = roll(state, 3)
    assert events == [MovementPointsGained(mouse="filch", die_number=3, move_value=3, points=6)]
    assert RULESET.decide(state, MoveTo(mouse="filch", path=("GR-9",)))[0] == MouseMoved(
        mouse="filch", origin="GR-10", path=("GR-9",), cost=1
    )


def test_a_stunned_mouse_may_only_recover__rulebook_stordito_e_intrappolato():
    """MM rulebook (it) §Stordito e Intrappolato: "Un Topo Stordito può muovere normalmente ma l'unica Azione
    che può effettuare è quella di Recupero"."""
    state = chapter_1_table(EffectAdded(mouse="filch", effect="stunned"))
    with pytest.raises(RuleBroken, match="action.stunned"):
        RULESET.decide(state, Battle(mouse="filch", target="rat-warriors-1"))
    assert Recover(mouse="filch") in RULESET.legal_commands(state)
    assert Move(mouse="filch") in RULESET.legal_commands(state)


def test_a_webbed_mouse_may_not_move__rulebook_stordito_e_intrappolato():
    """MM rulebook (it) §Stordito e Intrappolato: "Un Topo Intrappolato non può muovere o fare uno Scatto
    finché non avrà effettuato un'Azione di Recupero"."""
    state = chapter_1_table(EffectAdded(mouse="filch", effect="webbed"))
    with pytest.raises(RuleBroken, match="move.webbed"):
        RULESET.decide(state, Move(mouse="filch"))


def test_rulebook_carte_abilita_dei_topi_the_same_card_again_at_another_moment_but_no_second_card():
    """MM rulebook (it) §Carte Abilità dei Topi: "Un Topo può usare una sola carta Abilità per Turno"; MM
    rulebook (it) §Salire di Livello: "una stessa Abilità può essere utilizzata in momenti diversi"
    (docs/mice-and-mystics/rulings.md, Ability cards). Tilda, inspired this round
    (docs/mice-and-mystics/facts.md §4 row 14), Cures Filch as her action, then Cures him again as Inspire's
    extra action (its cheese + 1), paying each time; First Aid, a second card, is refused."""
    from dicelog.domain.mice_and_mystics.commands import UseAbility
    from dicelog.domain.mice_and_mystics.events import CheeseGained, EffectRemoved, MouseHealed, MouseWounded
    from dicelog.domain.mice_and_mystics.item_events import (
        AbilityUsed,
        ExtraActionTaken,
        MiceInspired,
        MouseLeveledUp,
    )

    state = chapter_1_table(
        MouseLeveledUp(mouse="collin", ability="inspire", cheese=0),
        MiceInspired(mouse="collin", round=1),
        MouseLeveledUp(mouse="tilda", ability="cure", cheese=0),
        MouseLeveledUp(mouse="tilda", ability="first-aid", cheese=0),
        CheeseGained(mouse="tilda", count=5, reason="test"),
        MouseWounded(mouse="filch", wounds=3, poison=2),
        EffectAdded(mouse="filch", effect="stunned"),
        track=("tilda", "filch", "collin", "maginos", "rat-warriors"),
    )
    events, state = act(state, UseAbility(mouse="tilda", ability="cure", target="filch", remove=("poison",)))
    assert events == [
        ActionStarted(mouse="tilda", action="cure"),
        AbilityUsed(mouse="tilda", ability="cure", cost=1),
        MouseHealed(mouse="filch", wounds=0, poison=1, reason="cure"),
    ]
    first_aid = UseAbility(mouse="tilda", ability="first-aid", target="filch")  # Filch has a normal wound
    with pytest.raises(RuleBroken, match="ability.one-per-turn"):
        RULESET.decide(state, first_aid)
    uses = [c for c in RULESET.legal_commands(state) if isinstance(c, UseAbility)]
    assert uses and {c.ability for c in uses} == {"cure"}
    events, state = act(
        state, UseAbility(mouse="tilda", ability="cure", target="filch", remove=("poison", "stunned"))
    )
    assert events == [
        ExtraActionTaken(mouse="tilda", cheese=1),
        ActionStarted(mouse="tilda", action="cure"),
        AbilityUsed(mouse="tilda", ability="cure", cost=2),
        MouseHealed(mouse="filch", wounds=0, poison=1, reason="cure"),
        EffectRemoved(mouse="filch", effect="stunned"),
    ]
    assert (
        state.cheese["tilda"] == 1 and state.wounds["filch"] == 1 and state.poison_wounds.get("filch", 0) == 0
    )
    with pytest.raises(RuleBroken, match="ability.one-per-turn"):
        RULESET.decide(state, first_aid)


def test_rulebook_carte_abilita_dei_topi_a_shot_changes_only_the_attack_of_the_action_it_was_played_before():
    """MM rulebook (it) §Carte Abilità dei Topi; docs/mice-and-mystics/facts.md §4 row 3 (Aimed Shot: "Before
    a ranged attack: +1 battle for that attack"); row 14 (Inspire's extra action). Maginos (Staff: battle 1 +
    1, ranged at GR-2) plays Aimed Shot before his Battle: 3 dice; Inspire's extra Battle that follows rolls 2
    unless the card is played (and paid) again before it, as the same card may be used at several moments of a
    turn (MM rulebook (it) §Salire di Livello). Played once the first action is over, the shot is for the
    extra Battle."""
    from dicelog.domain.mice_and_mystics.commands import UseAbility
    from dicelog.domain.mice_and_mystics.events import AttackDeclared, CheeseGained
    from dicelog.domain.mice_and_mystics.item_events import (
        AbilityUsed,
        ExtraActionTaken,
        MiceInspired,
        MouseLeveledUp,
    )

    inspired = (
        MouseLeveledUp(mouse="collin", ability="inspire", cheese=0),
        MiceInspired(mouse="collin", round=1),
        MouseLeveledUp(mouse="maginos", ability="aimed-shot", cheese=0),
        CheeseGained(mouse="maginos", count=5, reason="test"),
    )
    maginos_first = ("maginos", "filch", "collin", "tilda", "rat-warriors")
    shot = UseAbility(mouse="maginos", ability="aimed-shot")
    battle = Battle(mouse="maginos", target="rat-warriors-1")
    state = chapter_1_table(*inspired, track=maginos_first)
    _, state = act(state, shot)
    events, state = act(state, battle)
    assert events[1] == AttackDeclared(attacker="maginos", target="rat-warriors-1", ranged=True, dice=3)
    _, state = roll(state, 3, 3, 3)  # no bow: a miss, the Battle action is over
    events, _ = act(state, battle)
    assert events[:3] == [
        ExtraActionTaken(mouse="maginos", cheese=1),
        ActionStarted(mouse="maginos", action="battle"),
        AttackDeclared(attacker="maginos", target="rat-warriors-1", ranged=True, dice=2),
    ]
    events, state = act(state, shot)  # the same card again, for the extra Battle: paid again
    assert (
        events == [AbilityUsed(mouse="maginos", ability="aimed-shot", cost=1)]
        and state.cheese["maginos"] == 3
    )
    with pytest.raises(RuleBroken, match="ability.once-per-attack"):
        RULESET.decide(state, shot)
    events, state = act(state, battle)
    assert events[:3] == [
        ExtraActionTaken(mouse="maginos", cheese=1),
        ActionStarted(mouse="maginos", action="battle"),
        AttackDeclared(attacker="maginos", target="rat-warriors-1", ranged=True, dice=3),
    ]
    later = chapter_1_table(*inspired, ActionStarted(mouse="maginos", action="search"), track=maginos_first)
    events, later = act(later, shot)
    assert events == [AbilityUsed(mouse="maginos", ability="aimed-shot", cost=1)]
    events, later = act(later, battle)
    assert events[:3] == [
        ExtraActionTaken(mouse="maginos", cheese=1),
        ActionStarted(mouse="maginos", action="battle"),
        AttackDeclared(attacker="maginos", target="rat-warriors-1", ranged=True, dice=3),
    ]
