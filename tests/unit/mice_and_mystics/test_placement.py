"""Placing minions on minion entrances and the ties the players break (MM rulebook (it) §Collocare i Servitori
sul Tabellone: "Se ci sono più Entrate equidistanti, i giocatori scelgono quella che preferiscono"; "Se ci
sono più Entrate disponibili, i giocatori scelgono quelle che preferiscono. Cercate di suddividere questi
Servitori con Arma da Mischia il più equamente possibile").

Guard Room entrances: GR-2 (1 step from the start space GR-6), GR-4 and GR-13 (3 steps each).
Small melee minions go on the entrances nearest the mice (MM rulebook (pt) «coloque todos os lacaios pequenos
nos espaços de entrada ... (não cheios) mais próximos aos ratos ... Tente espalhar»; MM summary (fr) «les plus
proches des souris»): the players choose only among entrances at the same distance. ``EVEN``: a mouse on each
entrance, so all three are at distance 0.
"""

import json
import uuid
from pathlib import Path

import msgspec
import pytest

from dicelog.domain.core.commands import Choose
from dicelog.domain.core.events import DecisionMade, DecisionRequested, GameCreated, Seat, ShuffleRequested
from dicelog.domain.core.game import create, fold, run_command_and_auto_answers_records
from dicelog.domain.core.verify import verify
from dicelog.domain.mice_and_mystics.choice_events import ChoiceDeferred, ChoicesSettled, TieFound
from dicelog.domain.mice_and_mystics.content import library
from dicelog.domain.mice_and_mystics.events import (
    CheeseAddedToWheel,
    FigurePlaced,
    InitiativeCardRemoved,
    MinionDefeated,
)
from dicelog.domain.mice_and_mystics.rules.figures import available
from dicelog.domain.mice_and_mystics.rules.graph import can_enter, is_minion, minion_distances
from dicelog.domain.mice_and_mystics.rules.placement import next_figure_id, place_groups, place_minions
from dicelog.domain.mice_and_mystics.rules.summoning import summon
from dicelog.domain.mice_and_mystics.rules.ties import TIE_DECISIONS, Choices, Undecided
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from dicelog.domain.mice_and_mystics.state import RULES_REVISION
from tests.unit.mice_and_mystics.scenario import AT, PARTY, chapter_1_table, choose, fold_events, of_type

RAT, ROACH, ELITE, SPIDER = "rat-warriors", "roaches", "elite-rat-warriors", "spider"
MICE = ("filch", "collin", "tilda", "maginos")
CHAPTER_1 = Path(__file__).parents[3] / "domain" / "mice_and_mystics" / "content" / "chapter-1.json"
NO_RATS = (
    *(MinionDefeated(figure=f"rat-warriors-{n}", card=RAT) for n in (1, 2, 3)),
    InitiativeCardRemoved(card=RAT),
)


def empty_guard_room(*events):
    """Chapter 1 table, mice on GR-6, no minion on the board; then ``events``."""
    return chapter_1_table(*NO_RATS, *events, track=MICE)


def even():
    """Mice on GR-2, GR-4 and GR-13 (two on GR-13): every entrance at distance 0 from the mice."""
    spaces = ("GR-2", "GR-4", "GR-13", "GR-13")
    return tuple(FigurePlaced(figure=m, card=m, space=sp) for m, sp in zip(MICE, spaces, strict=True))


def mice_on(space):
    return tuple(FigurePlaced(figure=m, card=m, space=space) for m in MICE)


def figures(card, *spaces, first=1):
    return tuple(FigurePlaced(figure=f"{card}-{first + i}", card=card, space=s) for i, s in enumerate(spaces))


def asked(state, card, count, tile="guard-room", given=()):
    """The ``DecisionRequested`` placing ``count`` of ``card`` meets after ``given`` answers."""
    with pytest.raises(Undecided) as tie:
        place_minions(state, card, count, tile, Choices(given))
    return tie.value.events[-1]


def spaces_of(events):
    return [e.space for e in events if isinstance(e, FigurePlaced)]


def old_place(state, card, count, tile):
    """One figure at a time: large ones on the nearest entrance, ranged on the farthest, melee on the
    one with the fewest of this placement, then the nearest the mice; then the first in tile order:
    the reference the defaults must reproduce."""
    minion, events, placed = library().minions[card], [], {}
    for _ in range(min(count, available(state, card))):
        entrances = [
            s
            for s in library().tiles[tile].spaces
            if s.kind == "minion-entrance" and can_enter(state, s.id, minion.size)
        ]
        if not entrances:
            break
        mice = tuple(sp for sp, figs in state.board.items() if any(not is_minion(state, f) for f in figs))
        dist = minion_distances(library(), mice)
        if minion.size == "large":
            space = min(entrances, key=lambda s: dist.get(s.id, 10_000)).id
        elif minion.attack == "ranged":
            space = min(entrances, key=lambda s: (s.capacity != "unlimited", -dist.get(s.id, 10_000))).id
        else:
            space = min(entrances, key=lambda s: (placed.get(s.id, 0), dist.get(s.id, 10_000))).id
        event = FigurePlaced(figure=next_figure_id(state, card), card=card, space=space)
        placed[space] = placed.get(space, 0) + 1
        state = RULESET.evolve(state, event)
        events.append(event)
    return events


# --- 1. small ranged minions --------------------------------------------------------------------


def test_rulebook_collocare_i_servitori_equidistant_farthest_entrances_are_a_decision_for_ranged_minions():
    """GR-4 and GR-13 are both 3 steps from the mice: the players choose where the elite rats go."""
    state = empty_guard_room()
    assert asked(state, ELITE, 3) == DecisionRequested(
        decision="ranged-minion-entrance", options=("GR-4", "GR-13"), default="GR-4"
    )
    for choice in ("GR-4", "GR-13"):
        assert spaces_of(place_minions(state, ELITE, 3, "guard-room", Choices((choice,)))) == [choice] * 3


def test_rulebook_collocare_i_servitori_a_single_farthest_entrance_is_not_asked():
    state = empty_guard_room(*mice_on("GR-14"))  # GR-4 is now the only farthest entrance
    assert spaces_of(place_minions(state, ELITE, 2, "guard-room", Choices())) == ["GR-4", "GR-4"]


def test_rulebook_collocare_i_servitori_when_the_chosen_entrance_fills_the_next_follows_the_same_rule():
    """GR-4 and GR-13 each hold 2 roaches (room for 2 more): 3 elite rats fill the chosen one, the
    third goes to the other (then the only farthest with room); no second question."""
    state = empty_guard_room(*figures(ROACH, "GR-4", "GR-4", "GR-13", "GR-13"))
    assert asked(state, ELITE, 3).options == ("GR-4", "GR-13")
    assert spaces_of(place_minions(state, ELITE, 3, "guard-room", Choices(("GR-13",)))) == [
        "GR-13",
        "GR-13",
        "GR-4",
    ]


def test_rulebook_collocare_i_servitori_tied_entrances_the_figures_fill_anyway_are_not_asked():
    """GR-4 and GR-13 with room for 1 each: 3 elite rats fill both whatever the order, then GR-2."""
    state = empty_guard_room(*figures(ROACH, "GR-4", "GR-4", "GR-4", "GR-13", "GR-13", "GR-13"))
    assert spaces_of(place_minions(state, ELITE, 3, "guard-room", Choices())) == ["GR-4", "GR-13", "GR-2"]


# --- 2. large minions ---------------------------------------------------------------------------


def test_rulebook_collocare_i_servitori_equidistant_nearest_free_entrances_are_a_decision_for_large_minions():
    """Mice on GR-10: GR-2 and GR-13 are both 2 steps away, GR-4 4."""
    state = empty_guard_room(*mice_on("GR-10"))
    assert asked(state, SPIDER, 1) == DecisionRequested(
        decision="large-minion-entrances", options=("GR-2", "GR-13"), default="GR-2"
    )
    assert spaces_of(place_minions(state, SPIDER, 1, "guard-room", Choices(("GR-13",)))) == ["GR-13"]
    # with GR-2 taken by a rat it is no longer free for a large minion: nothing to ask
    state = empty_guard_room(*mice_on("GR-10"), *figures(RAT, "GR-2"))
    assert spaces_of(place_minions(state, SPIDER, 1, "guard-room", Choices())) == ["GR-13"]


# --- 3. small melee minions ---------------------------------------------------------------------


def test_rulebook_collocare_i_servitori_three_roaches_on_two_entrances_the_players_choose_which_takes_two():
    # mice on GR-10: GR-2 and GR-13 both 2 steps away; a large minion fills GR-4
    state = empty_guard_room(*mice_on("GR-10"), *figures(SPIDER, "GR-4"))
    assert asked(state, ROACH, 3) == DecisionRequested(
        decision="melee-minion-entrances", options=("GR-2", "GR-13"), default="GR-2"
    )
    assert sorted(spaces_of(place_minions(state, ROACH, 3, "guard-room", Choices(("GR-13",))))) == [
        "GR-13",
        "GR-13",
        "GR-2",
    ]
    assert sorted(spaces_of(place_minions(state, ROACH, 3, "guard-room", Choices(("GR-2",))))) == [
        "GR-13",
        "GR-2",
        "GR-2",
    ]


def test_rulebook_collocare_i_servitori_two_of_three_entrances_is_one_decision_between_sets():
    """Figures of one card are interchangeable: one question whose options are the sets of entrances
    (all three entrances equally near the mice)."""
    state = empty_guard_room(*even())
    request = asked(state, RAT, 2)
    assert request.options == ("GR-2+GR-4", "GR-2+GR-13", "GR-4+GR-13") and request.default == "GR-2+GR-4"
    assert spaces_of(place_minions(state, RAT, 2, "guard-room", Choices(("GR-4+GR-13",)))) == [
        "GR-4",
        "GR-13",
    ]
    assert spaces_of(place_minions(state, RAT, 5, "guard-room", Choices(("GR-2+GR-13",)))) == [
        "GR-2",
        "GR-4",
        "GR-13",
        "GR-2",
        "GR-13",
    ]


def test_rulebook_collocare_i_servitori_an_even_spread_is_not_asked():
    state = empty_guard_room()
    assert spaces_of(place_minions(state, RAT, 3, "guard-room", Choices())) == ["GR-2", "GR-4", "GR-13"]
    assert (
        sorted(spaces_of(place_minions(state, ROACH, 6, "guard-room", Choices())))
        == ["GR-13"] * 2 + ["GR-2"] * 2 + ["GR-4"] * 2
    )


def test_rulebook_condividere_le_caselle_the_even_spread_respects_room_on_each_entrance():
    """GR-2 already holds 3 small figures (room for 1): 4 roaches give it 1 and 1 each to the others;
    the fourth goes to GR-4 or GR-13, the players' choice; GR-2 is never offered more."""
    state = empty_guard_room(*figures(RAT, "GR-2", "GR-2", "GR-2"))
    assert asked(state, ROACH, 4).options == ("GR-4", "GR-13")
    placed = spaces_of(place_minions(state, ROACH, 4, "guard-room", Choices(("GR-13",))))
    assert sorted(placed) == ["GR-13", "GR-13", "GR-2", "GR-4"]
    assert asked(state, ROACH, 8).options == ("GR-4", "GR-13")  # 1 + 3 + 3, and one more on GR-4 or GR-13
    state = fold_events(state, place_minions(state, ROACH, 8, "guard-room", Choices(("GR-13",))))
    assert len(state.board["GR-2"]) == 4 and len(state.board["GR-4"]) == 3 and len(state.board["GR-13"]) == 4


def test_rulebook_collocare_i_servitori_the_defaults_are_the_placement_of_the_first_entrance_in_tile_order():
    """``Choices.defaults()`` (what ``decision_policy="default"`` answers) puts as many figures on each
    entrance as the one-at-a-time reference ``old_place`` does."""
    tables = [
        empty_guard_room(),
        empty_guard_room(*mice_on("GR-10")),
        empty_guard_room(*figures(RAT, "GR-2", "GR-2", "GR-2")),
        empty_guard_room(*figures(SPIDER, "GR-4")),
        empty_guard_room(*figures(ROACH, "GR-4", "GR-4", "GR-13")),
        chapter_1_table(),
    ]
    for state in tables:
        for card in (RAT, ROACH, ELITE, SPIDER, "cave-centipede", "captain-vurst"):
            for count in range(1, 9):
                assert sorted(spaces_of(place_minions(state, card, count, "guard-room"))) == sorted(
                    spaces_of(old_place(state, card, count, "guard-room"))
                ), (card, count)


def test_rulebook_collocare_i_servitori_an_unlimited_special_area_takes_ranged_minions_first():
    """The Kitchen counter (KI-1, outlined in red) takes every small ranged minion, nearer or not."""
    state = chapter_1_table(*NO_RATS, *mice_on("KI-8"), track=MICE)
    assert spaces_of(place_minions(state, ELITE, 4, "kitchen", Choices())) == ["KI-1"] * 4


def test_rulebook_collocare_i_servitori_small_melee_minions_of_one_placement_are_spread_together():
    """Step 3: "Collocate tutti i Servitori piccoli con Armi da Mischia sulle rimanenti caselle ...
    Cercate di suddividere questi Servitori ... il più equamente possibile": the spread counts every
    small melee figure of the placement, not one card's. 2 Roaches then 2 Rats on the Guard Room's
    three entrances: 2, 1 and 1, none left empty (per card it was roaches and rats both on GR-2/GR-4)."""
    state = empty_guard_room(*even())
    groups = ((ROACH, 2), (RAT, 2))
    with pytest.raises(Undecided) as tie:
        place_groups(state, groups, "guard-room", Choices())
    assert tie.value.events[-1] == DecisionRequested(
        decision="melee-minion-entrances",
        options=("GR-2+GR-4", "GR-2+GR-13", "GR-4+GR-13"),
        default="GR-2+GR-4",
    )
    with pytest.raises(Undecided) as tie:  # the rats: one on the empty GR-13, the other where the players say
        place_groups(state, groups, "guard-room", Choices(("GR-2+GR-4",)))
    assert tie.value.events[-1] == DecisionRequested(
        decision="melee-minion-entrances", options=("GR-2", "GR-4", "GR-13"), default="GR-2"
    )
    events = place_groups(state, groups, "guard-room", Choices(("GR-2+GR-4", "GR-13")))
    assert [(e.card, e.space) for e in events] == [
        (ROACH, "GR-2"),
        (ROACH, "GR-4"),
        (RAT, "GR-13"),
        (RAT, "GR-13"),
    ]
    defaults = place_groups(state, groups, "guard-room", None)
    assert [(e.card, e.space) for e in defaults] == [
        (ROACH, "GR-2"),
        (ROACH, "GR-4"),
        (RAT, "GR-13"),
        (RAT, "GR-2"),
    ]


def test_rulebook_collocare_i_servitori_a_card_that_only_fills_the_entrances_left_empty_is_not_asked():
    """2 Roaches then 1 Rat: once the players put the roaches, the rat's place is forced (the only
    entrance with fewest figures): no second question."""
    state = empty_guard_room(*even())
    events = place_groups(state, ((ROACH, 2), (RAT, 1)), "guard-room", Choices(("GR-4+GR-13",)))
    assert [(e.card, e.space) for e in events] == [(ROACH, "GR-4"), (ROACH, "GR-13"), (RAT, "GR-2")]


def test_rulebook_preparazione_a_chapter_setup_spreads_every_small_melee_card_of_a_room_together():
    """The chapter's setup is one placement per room (MM rulebook (it) §Collocare i Servitori, 3): 2 roaches
    and 2 rat warriors in the Guard Room leave no entrance empty."""
    records, game = pack_game([(ROACH, 2, "guard-room"), (RAT, 2, "guard-room")])
    asked = [
        r.payload
        for r in records
        if isinstance(r.payload, DecisionRequested) and r.payload.decision in TIE_DECISIONS
    ]
    while isinstance(game.pending, DecisionRequested) and game.pending.decision in TIE_DECISIONS:
        more = run_command_and_auto_answers_records(
            game,
            Choose(option=game.pending.default),
            seat="north",
            command_id=f"c{len(records)}",
            at=AT,
            seed=None,
        )
        records += more
        game = fold(game, more)
        asked += [
            e.payload
            for e in more
            if isinstance(e.payload, DecisionRequested) and e.payload.decision in TIE_DECISIONS
        ]
    # the roaches: GR-2 (nearest) and GR-4 or GR-13; the rats: the empty one, then GR-2 (nearest)
    assert [d.options for d in asked] == [("GR-4", "GR-13")]
    board = game.state.board
    assert {e: len(board.get(e, ())) for e in ("GR-2", "GR-4", "GR-13")} == {"GR-2": 2, "GR-4": 1, "GR-13": 1}
    assert verify(records).ok


# --- the decision through the game: summons, chapter setup, replay --------------------------------


def test_rulebook_evocazioni_a_summon_tie_is_asked_and_the_chosen_entrances_are_honoured():
    state = chapter_1_table(CheeseAddedToWheel(count=6, reason="test"), track=(*MICE, RAT))
    events = summon(state)
    assert events == [
        ChoiceDeferred(context="summon"),
        TieFound(decision="melee-minion-entrances", subject=RAT, count=2),
        DecisionRequested(decision="melee-minion-entrances", options=("GR-4", "GR-13"), default="GR-4"),
    ]
    state = fold_events(state, events)
    assert state.hourglass_page == 1 and state.cheese_wheel == 6  # nothing of the summon happened yet
    more, state = choose(state, "GR-13")
    assert more[0] == ChoicesSettled(context="summon", choices=("GR-13",))
    assert of_type(more, FigurePlaced)[:2] == [
        FigurePlaced(figure="rat-warriors-4", card=RAT, space="GR-2"),
        FigurePlaced(figure="rat-warriors-5", card=RAT, space="GR-13"),
    ]
    assert state.deferred is None and state.hourglass_page == 2 and state.cheese_wheel == 0


def test_rulebook_plancia_del_racconto_a_summon_that_loses_the_chapter_asks_nothing():
    from dicelog.domain.mice_and_mystics.events import HourglassAdvanced

    state = chapter_1_table(
        HourglassAdvanced(page=5, reason="test"), CheeseAddedToWheel(count=6, reason="test")
    )
    events = summon(state)
    assert not of_type(events, DecisionRequested) and len(of_type(events, FigurePlaced)) == 2


def pack_game(minions):
    """A chapter 1 game whose setup places ``minions`` (a content pack replacing chapter-1.json)."""
    chapter = json.loads(CHAPTER_1.read_text())
    chapter["minions"] = [{"card": c, "count": n, "tile": t} for c, n, t in minions]
    setup = {"chapter": "chapter-1", "mice": list(PARTY), "content_pack": {"chapter-1.json": chapter}}
    seats = (Seat(name="north", controls=PARTY[:2]), Seat(name="south", controls=PARTY[2:]))
    created = GameCreated(
        ruleset="mice-and-mystics",
        setup=msgspec.Raw(json.dumps(setup).encode()),
        seats=seats,
        dice_mode="manual",
        rules_revision=RULES_REVISION,  # as the service creates a new game
    )
    records = create(uuid.UUID(int=11), created, at=AT, seed=None, command_id="create")
    return records, fold(None, records)


def test_rulebook_preparazione_a_chapter_setup_placement_tie_is_asked_before_the_table_is_laid():
    """A chapter whose setup puts 2 rat warriors in the Guard Room (3 free entrances): Begin stops at
    the decision; the answer lays the table with the rats where chosen; the log replays and verifies."""
    records, game = pack_game([(RAT, 2, "guard-room")])
    payloads = [r.payload for r in records]
    assert payloads[-3:] == [
        ChoiceDeferred(context="begin"),
        TieFound(decision="melee-minion-entrances", subject=RAT, count=2),
        DecisionRequested(decision="melee-minion-entrances", options=("GR-4", "GR-13"), default="GR-4"),
    ]
    assert game.state.tiles == () and game.state.deferred.context == "begin"
    more = run_command_and_auto_answers_records(
        game, Choose(option="GR-13"), seat="south", command_id="c1", at=AT, seed=None
    )
    records += more
    game = fold(game, more)
    events = [r.payload for r in more]
    assert DecisionMade(decision="melee-minion-entrances", option="GR-13", by="south") in events
    assert of_type(events, ChoicesSettled) == [ChoicesSettled(context="begin", choices=("GR-13",))]
    assert game.state.board["GR-2"] == ("rat-warriors-1",) and game.state.board["GR-13"] == (
        "rat-warriors-2",
    )
    assert "GR-4" not in game.state.board and game.state.deferred is None and game.state.tiles
    assert isinstance(game.pending, (DecisionRequested, ShuffleRequested))  # the setup goes on as before
    assert verify(records).ok
    folded = fold(None, records).state
    assert msgspec.json.encode(folded) == msgspec.json.encode(game.state)


def test_rulebook_preparazione_without_a_tie_the_chapter_setup_asks_nothing_new():
    records, game = pack_game([(RAT, 3, "guard-room")])
    assert not of_type([r.payload for r in records], ChoiceDeferred)
    assert sorted(game.state.board["GR-2"] + game.state.board["GR-4"] + game.state.board["GR-13"]) == [
        "rat-warriors-1",
        "rat-warriors-2",
        "rat-warriors-3",
    ]


def test_rulebook_evocazioni_replay_folding_the_recorded_events_reproduces_the_state():
    """Each event of a deferred summon, its answers and the settled events folded one by one give the
    state the answers left (the record of choices included, then cleared)."""
    state = chapter_1_table(CheeseAddedToWheel(count=6, reason="test"), track=(*MICE, RAT))
    first = summon(state)
    waiting = fold_events(state, first)
    answer = DecisionMade(decision="melee-minion-entrances", option="GR-13", by="north")
    after_answer = RULESET.evolve(waiting, answer)
    assert after_answer.deferred.choices == ("GR-13",) and after_answer.awaiting is None
    rest = RULESET.resolve(after_answer, answer)
    final = fold_events(after_answer, rest)
    replayed = fold_events(state, [*first, answer, *rest])
    assert msgspec.json.encode(replayed) == msgspec.json.encode(final)
    assert RULESET.resolve(after_answer, answer) == rest  # re-deciding gives the same events


def test_rulebook_collocare_i_servitori_an_answer_no_placement_waits_for_is_refused():
    """A tie decision answers a deferred placement or chase only (``choice.nothing-deferred``); an
    answer that is not one of the tie's options is ``choice.stale``."""
    from dicelog.domain.core.errors import RuleBroken

    state = empty_guard_room()
    with pytest.raises(RuleBroken, match="choice.nothing-deferred"):
        RULESET.resolve(state, DecisionMade(decision="melee-minion-entrances", option="GR-2", by="north"))
    with pytest.raises(RuleBroken, match="choice.stale"):
        place_minions(state, RAT, 2, "guard-room", Choices(("GR-2",)))  # GR-2 is taken anyway: GR-4 or GR-13


def test_rulebook_collocare_i_servitori_chapter_setup_places_ranged_then_large_then_melee():
    """Steps 1-3 order every placement, the chapter's setup included: a chapter file listing roaches,
    a spider and elite rats places the elite rats first (farthest entrance), then the spider (nearest
    free entrance), then the roaches on what is left."""
    records, game = pack_game(
        [("roaches", 2, "guard-room"), ("spider", 1, "guard-room"), ("elite-rat-warriors", 2, "guard-room")]
    )
    while isinstance(game.pending, DecisionRequested) and game.pending.decision in TIE_DECISIONS:
        more = run_command_and_auto_answers_records(
            game,
            Choose(option=game.pending.default),
            seat="north",
            command_id=f"c{len(records)}",
            at=AT,
            seed=None,
        )
        records += more
        game = fold(game, more)
    placed = [e.card for e in of_type([r.payload for r in records], FigurePlaced) if e.card not in PARTY]
    assert placed == ["elite-rat-warriors", "elite-rat-warriors", "spider", "roaches", "roaches"]
