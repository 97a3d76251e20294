"""Setup: MM rulebook (it) §Preparazione del Gioco and MM rulebook (it) §Capitolo 1 (Preparazione del Gruppo /
delle Stanze)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import Seat, ShuffleRequested
from dicelog.domain.mice_and_mystics.content import library
from dicelog.domain.mice_and_mystics.events import FigurePlaced, RoomTilePlaced, StoryBoardPrepared
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import PARTY, Table, created, of_type


def test_rulebook_capitolo_1_preparazione_delle_stanze_tiles_mice_on_the_start_space_rats_on_guard_room_entrances():  # noqa: E501
    """MM rulebook (it) §Capitolo 1, Preparazione delle Stanze; MM rulebook (it) §Collocare i Servitori sul
    Tabellone (3)."""
    table = Table()
    events = table.events
    assert [e.tile for e in of_type(events, RoomTilePlaced)] == [
        "guard-room",
        "kitchen-tunnels",
        "tunnel-entrance",
    ]
    placed = of_type(events, FigurePlaced)
    assert [(p.figure, p.space) for p in placed[:4]] == [(m, "GR-6") for m in PARTY]
    rats = placed[4:]
    assert [r.card for r in rats] == ["rat-warriors"] * 3
    spaces = library().spaces
    assert all(spaces[r.space].kind == "minion-entrance" and r.space.startswith("GR-") for r in rats)
    assert len({r.space for r in rats}) == 3, "small melee minions are spread as evenly as possible"
    assert of_type(events, StoryBoardPrepared) == [StoryBoardPrepared(hourglass_page=1, end_marker_page=6)]


def test_rulebook_preparazione_del_gioco_setup_ends_with_the_initiative_shuffle_of_the_figures_on_the_board():
    """MM rulebook (it) §Preparazione del Gioco 7 / §Determinare l'Ordine di Iniziativa."""
    table = Table()
    assert table.events[-1] == ShuffleRequested(reason="initiative", cards=(*PARTY, "rat-warriors"))
    assert table.game.pending == table.events[-1]
    assert RULESET.legal_commands(table.state) == []


def test_rulebook_capitolo_1_preparazione_del_gruppo_lily_is_not_allowed():
    """MM rulebook (it) §Capitolo 1, Preparazione del Gruppo: Lily has not joined the party yet."""
    with pytest.raises(RuleBroken, match="setup.mouse-not-allowed"):
        RULESET.initial_state(created(("lily", "tilda", "filch", "maginos")))


@pytest.mark.parametrize(
    ("mice", "rule"),
    [
        (("collin", "tilda", "filch"), "setup.party-size"),
        (("collin", "collin", "filch", "maginos"), "setup.party-size"),
        (("collin", "tilda", "filch", "maginos", "nez"), "setup.party-size"),
        (("collin", "tilda", "filch", "mickey"), "setup.unknown-mouse"),
    ],
)
def test_rulebook_capitolo_1_preparazione_del_gruppo_party_is_four_distinct_known_mice(mice, rule):
    """MM rulebook (it) §Preparazione del Gioco, Scegliere un Eroe: "Il testo del Capitolo dirà ai giocatori
    quanti Topi formeranno il gruppo (solitamente quattro)"; MM rulebook (it) §Capitolo 1, Preparazione del
    Gruppo: "Scegliete i 4 Topi che prenderanno parte al Capitolo"."""
    with pytest.raises(RuleBroken, match=rule):
        RULESET.initial_state(created(mice, seats=(Seat(name="all", controls=tuple(mice)),)))


def test_rulebook_preparazione_del_gioco_each_party_mouse_is_controlled_by_exactly_one_seat():
    """MM rulebook (it) §Preparazione del Gioco, Scegliere un Eroe: each player takes one or more mice."""
    twice = (
        Seat(name="a", controls=("collin", "tilda", "filch", "maginos")),
        Seat(name="b", controls=("filch",)),
    )
    with pytest.raises(RuleBroken, match="setup.seat-controls"):
        RULESET.initial_state(created(PARTY, seats=twice))
    nobody = (Seat(name="a", controls=("collin", "tilda", "filch")),)
    with pytest.raises(RuleBroken, match="setup.seat-controls"):
        RULESET.initial_state(created(PARTY, seats=nobody))


def test_rulebook_preparazione_del_gioco_unknown_chapter_and_malformed_setup_are_refused():
    """MM rulebook (it) §Preparazione del Gioco, Scegliere un Capitolo: the chapter must be one dicelog knows;
    the setup document must be well formed."""
    with pytest.raises(RuleBroken, match="setup.unknown-chapter"):
        RULESET.initial_state(created(PARTY, chapter="chapter-99"))
    bad = created(PARTY)
    import msgspec

    bad = msgspec.structs.replace(bad, setup=msgspec.Raw(b'{"mice": ["collin"], "extra": 1}'))
    with pytest.raises(RuleBroken, match="setup.invalid"):
        RULESET.initial_state(bad)


def test_rulebook_preparazione_del_gioco_begin_twice_is_refused():
    """MM rulebook (it) §Preparazione del Gioco: the game is set up once, before the first round."""
    from dicelog.domain.core.ruleset import Begin

    with pytest.raises(RuleBroken, match="setup.already-begun"):
        RULESET.decide(Table().state, Begin())
