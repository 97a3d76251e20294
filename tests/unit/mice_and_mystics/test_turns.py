"""Rounds and turns: MM rulebook (it) §Round di Gioco, MM rulebook (it) §Determinare l'Ordine di Iniziativa,
MM rulebook (it) §Il Turno di un Topo, MM rulebook (it) §Il Turno di un Servitore (Rat Warriors: Aggressive,
docs/mice-and-mystics/facts.md §3)."""

import pytest

from dicelog.domain.core.commands import Shuffle
from dicelog.domain.core.errors import NotYourTurn
from dicelog.domain.core.events import RollRequested, ShuffleRequested
from dicelog.domain.mice_and_mystics.commands import EndTurn, Move
from dicelog.domain.mice_and_mystics.events import (
    CheeseGained,
    InitiativeCardsSwapped,
    InitiativeTrackLaid,
    MinionActivated,
    RoundStarted,
    StoryBoardPrepared,
    TurnEnded,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import Table, act, chapter_1_table, of_type, roll


def test_rulebook_determinare_lordine_di_iniziativa_the_shuffle_lays_the_track_in_order_and_starts_round_1():
    """MM rulebook (it) §Determinare l'Ordine di Iniziativa: the first card goes on slot 1, the second on
    2..."""
    table = Table()
    order = ("tilda", "collin", "filch", "maginos", "rat-warriors")
    events = table.play(Shuffle(order=order))
    assert of_type(events, InitiativeTrackLaid) == [InitiativeTrackLaid(cards=order)]
    assert of_type(events, RoundStarted) == [RoundStarted(round=1)]
    assert events[-1] == TurnStarted(card="tilda", slot=0)
    assert RULESET.turn_piece(table.state) == "tilda"


def test_determinare_lordine_di_iniziativa_collin_born_to_lead_gains_cheese_when_not_in_the_first_slot():
    """MM rulebook (it) §Determinare l'Ordine di Iniziativa with Collin's card (MM rulebook (it), Movimento
    dei Topi example): "Comandante Nato: quando collocate le carte sulla Colonna dell'Iniziativa, se il
    Principe Collin non si trova sul primo spazio, aggiungete immediatamente 1 segnalino Formaggio";
    docs/mice-and-mystics/facts.md §2 (Born to Lead)."""
    table = Table()
    events = table.play(Shuffle(order=("tilda", "collin", "filch", "maginos", "rat-warriors")))
    assert of_type(events, CheeseGained) == [CheeseGained(mouse="collin", count=1, reason="born-to-lead")]
    first = Table()
    assert (
        of_type(
            first.play(Shuffle(order=("collin", "tilda", "filch", "maginos", "rat-warriors"))), CheeseGained
        )
        == []
    )


def test_a_minion_card_on_top_takes_its_turn_first__rulebook_round_di_gioco():
    """MM rulebook (it) §Round di Gioco: the top card acts first; its nearest figure rolls to move (MM
    rulebook (it) §Muovere un Servitore)."""
    table = Table()
    events = table.play(Shuffle(order=("rat-warriors", "filch", "collin", "tilda", "maginos")))
    turns = events[events.index(RoundStarted(round=1)) :]
    assert turns[:2] == [RoundStarted(round=1), TurnStarted(card="rat-warriors", slot=0)]
    assert isinstance(turns[2], MinionActivated)
    assert turns[3] == RollRequested(reason="minion-move", dice=1)


def test_turns_go_down_the_track_and_a_new_round_starts_at_the_top__rulebook_round_di_gioco():
    """MM rulebook (it) §Round di Gioco; Rat Warriors Aggressive swaps with the card above after its turn."""
    state = chapter_1_table(track=("filch", "rat-warriors", "collin", "tilda", "maginos"))
    events, state = act(state, EndTurn(mouse="filch"))
    assert events == [
        TurnEnded(card="filch"),
        TurnStarted(card="rat-warriors", slot=1),
        MinionActivated(figure="rat-warriors-1"),
        RollRequested(reason="minion-move", dice=1),
    ]
    rest = []
    for faces in [(5,), (4, 4), (5,), (5,)]:  # rat 1 moves 1 and misses; rats 2 and 3 move 1 each
        more, state = roll(state, *faces)
        rest += more
    assert rest[-3:] == [
        TurnEnded(card="rat-warriors"),
        InitiativeCardsSwapped(card="rat-warriors", other="filch", reason="aggressive"),
        TurnStarted(card="collin", slot=2),
    ]
    assert state.track == ("rat-warriors", "filch", "collin", "tilda", "maginos")
    for mouse in ("collin", "tilda"):
        _, state = act(state, EndTurn(mouse=mouse))
    wrap = RULESET.decide(state, EndTurn(mouse="maginos"))
    assert wrap[:3] == [
        TurnEnded(card="maginos"),
        RoundStarted(round=2),
        TurnStarted(card="rat-warriors", slot=0),
    ]


def test_rulebook_il_turno_di_un_topo_a_mouse_may_end_its_turn_without_moving():
    """MM rulebook (it) §Il Turno di un Topo: the move is optional, and so is the action ("o alla decisione di
    non effettuarla")."""
    state = chapter_1_table()
    assert RULESET.decide(state, EndTurn(mouse="filch"))[:2] == [
        TurnEnded(card="filch"),
        TurnStarted(card="collin", slot=1),
    ]


@pytest.mark.parametrize("command", [Move(mouse="collin"), EndTurn(mouse="collin")])
def test_rulebook_round_di_gioco_only_the_mouse_whose_turn_it_is_may_act(command):
    """MM rulebook (it) §Round di Gioco: cards act in initiative order."""
    with pytest.raises(NotYourTurn, match="turn.not-your-turn") as refused:
        RULESET.decide(chapter_1_table(), command)
    assert refused.value.status == 422  # a rule refusal; 409 is only a version conflict


def test_rulebook_plancia_del_racconto_defeat_when_the_hourglass_reaches_the_end_marker():
    """MM rulebook (it) §Plancia del Racconto: the players lose when the hourglass reaches the end marker."""
    assert RULESET.outcome(chapter_1_table()) is None
    assert (
        RULESET.outcome(chapter_1_table(StoryBoardPrepared(hourglass_page=6, end_marker_page=6))) == "defeat"
    )


def test_rulebook_determinare_lordine_di_iniziativa_nothing_is_legal_while_the_shuffle_is_pending():
    """MM rulebook (it) §Determinare l'Ordine di Iniziativa: no turn is taken before the cards are laid on the
    track."""
    state = Table().state
    assert state.awaiting == "initiative"
    assert RULESET.legal_commands(state) == []
    assert isinstance(Table().game.pending, ShuffleRequested)


def test_rulebook_determinare_lordine_di_iniziativa_cards_past_the_numbered_spaces_keep_their_order_and_take_turns():  # noqa: E501
    """MM rulebook (it) §Azioni Gratuite, note to §Determinare l'Ordine di Iniziativa: "se dovesse essere
    necessario sistemare sulla Colonna dell'Iniziativa più carte rispetto agli spazi numerati disponibili,
    seguite le normali regole di collocamento delle carte Iniziativa, collocando le carte in più oltre
    l'ultimo spazio della Colonna." The track has no length limit (the number of numbered spaces is not known:
    provisional), so cards laid or added past any numbered space stay in order and take their turns before the
    round starts again at the top."""
    from dicelog.domain.mice_and_mystics.events import InitiativeCardsAdded, MinionDefeated

    minions = (
        "spider",
        "cave-centipede",
        "captain-vurst",
        "skitter-clak",
        "vanestras-sting",
        "vanestras-web",
    )
    track = ("filch", "collin", "tilda", "maginos", *minions)
    gone = [
        MinionDefeated(figure=f"rat-warriors-{n}", card="rat-warriors") for n in (1, 2, 3)
    ]  # no figures: cards pass
    # (no Rat Warriors card on this track: its Aggressive would swap it up, docs/mice-and-mystics/facts.md §3)
    state = chapter_1_table(*gone, InitiativeCardsAdded(cards=("roaches",)), track=track)
    assert state.track == (*track, "roaches")
    started = []
    for mouse in ("filch", "collin", "tilda", "maginos"):
        events, state = act(state, EndTurn(mouse=mouse))
        started += [e.card for e in of_type(events, TurnStarted)]
    assert started == ["collin", "tilda", "maginos", *minions, "roaches", "filch"]
    assert state.round == 2 and state.turn_card == "filch" and state.track == (*track, "roaches")
