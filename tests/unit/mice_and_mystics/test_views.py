"""Read-model views: initiative track and board (docs/architecture.md, projections)."""

from dicelog.domain.core.commands import Shuffle
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import Table


def test_determinare_lordine_di_iniziativa_initiative_view_lists_cards_with_names_whose_turn_and_round():
    """MM rulebook (it) §Determinare l'Ordine di Iniziativa and §Round di Gioco: the track in order, whose
    turn, the round."""
    table = Table()
    table.play(Shuffle(order=("filch", "collin", "tilda", "maginos", "rat-warriors")))
    view = RULESET.initiative_view(table.state)
    assert view.round == 1 and view.turn == "filch"
    assert [c.name for c in view.cards] == ["Filch", "Prince Collin", "Tilda", "Maginos", "Rat Warriors"]
    assert [c.current for c in view.cards] == [True, False, False, False, False]
    assert view.cards[-1].figures == ("rat-warriors-1", "rat-warriors-2", "rat-warriors-3")


def test_preparazione_del_gioco_board_view_shows_tiles_figures_hourglass_end_marker_and_cheese_wheel():
    """MM rulebook (it) §Preparazione del Gioco (tiles and figures as set up); MM rulebook (it) §Plancia del
    Racconto (hourglass, end marker, Cheese Wheel)."""
    view = RULESET.board_view(Table().state)
    assert [t.tile for t in view.tiles] == ["guard-room", "kitchen-tunnels", "tunnel-entrance"]
    spaces = {s.id: s.figures for t in view.tiles for s in t.spaces}
    assert spaces["GR-6"] == ("collin", "tilda", "filch", "maginos")
    assert (view.hourglass_page, view.end_marker_page, view.cheese_wheel) == (1, 6, 0)
    assert all(t.provisional for t in view.tiles)


def test_rulebook_preparazione_del_gioco_every_event_of_a_setup_describes_or_is_silent():
    """MM rulebook (it) §Preparazione del Gioco: the log tells where each mouse starts and where the story
    markers go."""
    table = Table()
    lines = [RULESET.describe(table.state, e) for e in table.events]
    assert "Prince Collin starts on Guard Room · space 6" in lines
    assert "Hourglass on page 1, chapter end marker on page 6" in lines


def test_the_log_tells_the_starting_ability_choice__rulebook_scegliere_una_abilita():
    """MM rulebook (it) §Preparazione del Gioco, Scegliere una Abilità: "i giocatori scelgono 1 carta Abilità
    per ogni Topo"."""
    table = Table()
    lines = [RULESET.describe(table.state, e) for e in table.events]
    assert (
        "Prince Collin: the players choose the starting ability: Backslash, Battle Leader, Battle Squeak, "
        "Feint, First Aid, Give Order, Inspire, Protect, Resolve, Thundersqueak" in lines
    )
    assert "Seat north chooses: First Aid (starting ability)" in lines
    assert "Prince Collin takes the ability card First Aid" in lines


def test_rulebook_stregato_a_charmed_mouse_that_stays_put_has_a_log_line():
    """A charmed mouse that is webbed or already next to another mouse stays: ``MouseMoved`` with an
    empty path. Its log line must not fail (the log projection and ``/log`` describe every event)."""
    from dicelog.domain.mice_and_mystics.events import MouseMoved

    table = Table()
    state = table.state
    line = RULESET.describe(state, MouseMoved(mouse="filch", origin="GR-6", path=(), cost=0))
    assert line is not None and "stays" in line
