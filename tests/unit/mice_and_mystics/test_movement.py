"""Mouse movement: MM rulebook (it) §Movimento dei Topi, §Caselle Adiacenti, §Linee Gialle, §Linee Rosse,
§Condividere le Caselle. Space layouts are provisional (docs/mice-and-mystics/facts.md §8); see
tile-05-guard-room.json: GR-6 start; GR-7 -> GR-8 yellow line with the arrow pointing at GR-8; GR-14 | GR-15
red line; rats on GR-2, GR-4, GR-13."""

import pytest

from dicelog.domain.core.commands import Roll, Shuffle
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import RollRequested
from dicelog.domain.mice_and_mystics.commands import EndTurn, Move, MoveTo
from dicelog.domain.mice_and_mystics.events import FigurePlaced, MouseMoved, MovementPointsGained
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import Table, act, chapter_1_table, of_type


def points(n: int, mouse: str = "filch") -> MovementPointsGained:
    return MovementPointsGained(mouse=mouse, die_number=n - 3, move_value=3, points=n)


def at(space: str, figure: str = "filch") -> FigurePlaced:
    return FigurePlaced(figure=figure, card=figure, space=space)


def test_rulebook_movimento_dei_topi_move_rolls_one_action_die_for_the_mouse():
    """MM rulebook (it) §Movimento dei Topi: "il giocatore che controlla il Topo tira un Dado Azione"."""
    assert RULESET.decide(chapter_1_table(), Move(mouse="filch")) == [
        RollRequested(reason="move", dice=1, piece="filch")
    ]


@pytest.mark.parametrize(("face", "expected"), [(1, 1), (2, 2), (3, 3), (4, 2), (5, 1), (6, 3)])
def test_rulebook_movimento_dei_topi_points_are_the_die_move_number_plus_the_move_value(face, expected):
    """MM rulebook (it) §Movimento dei Topi (Collin: move 2, rolls 1 -> 3); face numbers from
    docs/mice-and-mystics/facts.md §1."""
    table = Table()
    table.play(Shuffle(order=("collin", "tilda", "filch", "maginos", "rat-warriors")))
    table.play(Move(mouse="collin"))
    events = table.play(Roll(faces=(face,)))
    assert of_type(events, MovementPointsGained) == [
        MovementPointsGained(mouse="collin", die_number=expected, move_value=2, points=expected + 2)
    ]


def test_rulebook_movimento_dei_topi_a_mouse_moves_along_adjacent_spaces_and_may_stop_early():
    """MM rulebook (it) §Movimento dei Topi ("può muovere fino a" its points); MM rulebook (it) §Caselle
    Adiacenti: "Muovere una miniatura tra due caselle adiacenti conta come 1 Movimento"."""
    state = chapter_1_table(points(6))
    assert RULESET.decide(state, MoveTo(mouse="filch", path=("GR-10", "GR-9"))) == [
        MouseMoved(mouse="filch", origin="GR-6", path=("GR-10", "GR-9"), cost=2)
    ]


def test_rulebook_caselle_adiacenti_a_path_must_follow_adjacent_spaces():
    """MM rulebook (it) §Caselle Adiacenti: a mouse moves only between adjacent spaces (GR-6 and GR-8 are
    not)."""
    with pytest.raises(RuleBroken, match="move.not-adjacent"):
        RULESET.decide(chapter_1_table(points(6)), MoveTo(mouse="filch", path=("GR-8",)))


def test_rulebook_movimento_dei_topi_unknown_spaces_are_refused():
    """MM rulebook (it) §Movimento dei Topi: a move goes through spaces of the room tiles on the table."""
    with pytest.raises(RuleBroken, match="move.unknown-space"):
        RULESET.decide(chapter_1_table(points(6)), MoveTo(mouse="filch", path=("GR-99",)))


def test_rulebook_linee_gialle_crossing_costs_1_with_the_arrow_and_3_against_it():
    """MM rulebook (it) §Linee Gialle: "Attraversare la Linea Gialla in direzione contraria alla freccia conta
    come 3 caselle di Movimento ... nella direzione segnata dalla freccia conta come 1 normale Movimento"."""
    state = chapter_1_table(points(4))
    with_arrow = RULESET.decide(state, MoveTo(mouse="filch", path=("GR-7", "GR-8")))
    assert with_arrow[0].cost == 2
    back = chapter_1_table(at("GR-8"), points(4))
    assert RULESET.decide(back, MoveTo(mouse="filch", path=("GR-7", "GR-6")))[0].cost == 4
    with pytest.raises(RuleBroken, match="move.too-far"):
        RULESET.decide(chapter_1_table(at("GR-8"), points(3)), MoveTo(mouse="filch", path=("GR-7", "GR-6")))


def test_rulebook_linee_rosse_a_red_line_cannot_be_crossed():
    """MM rulebook (it) §Linee Rosse: spaces across a red line are not adjacent."""
    state = chapter_1_table(at("GR-14"), points(6))
    with pytest.raises(RuleBroken, match="move.not-adjacent") as refused:
        RULESET.decide(state, MoveTo(mouse="filch", path=("GR-15",)))
    assert refused.value.section == "MM rulebook (it) §Linee Rosse"


def test_rulebook_movimento_dei_topi_a_path_longer_than_the_movement_points_is_refused():
    """MM rulebook (it) §Movimento dei Topi: the die result plus the move value is how many spaces it "può
    muovere"."""
    with pytest.raises(RuleBroken, match="move.too-far"):
        RULESET.decide(
            chapter_1_table(points(4)),
            MoveTo(mouse="filch", path=("GR-10", "GR-11", "GR-12", "GR-16", "GR-15")),
        )


def test_rulebook_condividere_le_caselle_a_full_space_can_be_neither_entered_nor_crossed():
    """MM rulebook (it) §Condividere le Caselle: 4 small figures fill a space."""
    full = [at("GR-7", m) for m in ("collin", "tilda", "maginos", "nez")]
    state = chapter_1_table(*full, points(6))
    for path in (("GR-7",), ("GR-7", "GR-11")):
        with pytest.raises(RuleBroken, match="move.full-space"):
            RULESET.decide(state, MoveTo(mouse="filch", path=path))
    assert all("GR-7" not in c.path for c in RULESET.legal_commands(state) if isinstance(c, MoveTo))


def test_rulebook_condividere_le_caselle_entering_a_space_with_a_minion_ends_the_move():
    """MM rulebook (it) §Condividere le Caselle: "Quando un Topo entra in una casella occupata da un Servitore
    deve interrompere il suo Movimento"."""
    state = chapter_1_table(points(6))
    assert RULESET.decide(state, MoveTo(mouse="filch", path=("GR-2",)))[0].path == ("GR-2",)
    with pytest.raises(RuleBroken, match="move.must-stop"):
        RULESET.decide(state, MoveTo(mouse="filch", path=("GR-2", "GR-3")))


def test_rulebook_condividere_le_caselle_a_mouse_outnumbered_by_minions_on_its_space_cannot_leave():
    """MM rulebook (it) §Condividere le Caselle: leave only if mice >= minions on the space."""
    rats = FigurePlaced(figure="rat-warriors-4", card="rat-warriors", space="GR-2")
    state = chapter_1_table(at("GR-2"), rats)
    with pytest.raises(RuleBroken, match="move.held-by-minions"):
        RULESET.decide(state, Move(mouse="filch"))
    legal = RULESET.legal_commands(state)
    assert not [c for c in legal if isinstance(c, (Move, MoveTo))] and legal[-1] == EndTurn(mouse="filch")


def test_rulebook_il_turno_di_un_topo_a_mouse_moves_only_once_per_turn():
    """MM rulebook (it) §Il Turno di un Topo: one move (and one action) per turn."""
    moved = chapter_1_table(points(6), MouseMoved(mouse="filch", origin="GR-6", path=("GR-7",), cost=1))
    for command in (Move(mouse="filch"), MoveTo(mouse="filch", path=("GR-11",))):
        with pytest.raises(RuleBroken, match="move.already-moved"):
            RULESET.decide(moved, command)
    with pytest.raises(RuleBroken, match="move.already-moved"):
        RULESET.decide(chapter_1_table(points(6)), Move(mouse="filch"))
    assert not [c for c in RULESET.legal_commands(moved) if isinstance(c, (Move, MoveTo))]


def test_rulebook_movimento_dei_topi_moving_needs_a_roll_first():
    """MM rulebook (it) §Movimento dei Topi: the mouse rolls an action die, then moves up to the points it
    gives."""
    with pytest.raises(RuleBroken, match="move.no-roll"):
        RULESET.decide(chapter_1_table(), MoveTo(mouse="filch", path=("GR-7",)))


def test_rulebook_movimento_dei_topi_legal_commands_list_one_cheapest_path_per_reachable_space():
    """MM rulebook (it) §Movimento dei Topi; §Linee Gialle (GR-7 -> GR-8 costs 1 with the arrow); §Condividere
    le Caselle (a rat space ends the move, so GR-3 behind the rats is out of reach)."""
    state = chapter_1_table(points(4))
    legal = RULESET.legal_commands(state)
    moves = [c for c in legal if isinstance(c, MoveTo)]
    assert legal[-1] == EndTurn(mouse="filch")
    assert len({m.path[-1] for m in moves}) == len(moves)
    for move in moves:
        assert RULESET.decide(state, move)[0].cost <= 4
    assert MoveTo(mouse="filch", path=("GR-7", "GR-8")) in moves
    assert all(m.path[-1] != "GR-3" for m in moves), "GR-3 is reachable only through rat spaces"


def test_rulebook_movimento_dei_topi_the_log_says_where_the_mouse_went():
    """MM rulebook (it) §Movimento dei Topi: the log line for ``MouseMoved`` (docs/architecture.md,
    describe)."""
    state = chapter_1_table(points(6))
    event = MouseMoved(mouse="filch", origin="GR-6", path=("GR-7", "GR-8", "GR-12"), cost=3)
    line = RULESET.describe(RULESET.evolve(state, event), event)
    assert line == "Filch moves 3 spaces to Guard Room · space 12 (cost 3)"


def test_rulebook_muoversi_nellacqua_entering_a_water_space_ends_the_move():
    """MM rulebook (it) §Muoversi nell'Acqua: "Quando un Topo muove in una casella d'acqua, anche se proviene
    da un'altra casella acqua, deve interrompere il suo Movimento." Sewer layout (tile-06-sewer.json,
    provisional): SW-2 dry, SW-6..SW-10 water; SW-7 is next to SW-2, SW-6 and SW-12."""
    state = chapter_1_table(at("SW-2"), points(6))
    events, after = act(state, MoveTo(mouse="filch", path=("SW-7",)))
    assert events[0] == MouseMoved(mouse="filch", origin="SW-2", path=("SW-7",), cost=1)
    assert "filch" in after.board["SW-7"] and after.mouse_turn.moved
    for path in (("SW-7", "SW-12"), ("SW-7", "SW-6")):  # on to dry land or to another water space
        with pytest.raises(RuleBroken, match="move.must-stop") as refused:
            RULESET.decide(state, MoveTo(mouse="filch", path=path))
        assert refused.value.section == "MM rulebook (it) §Muoversi nell'Acqua"
