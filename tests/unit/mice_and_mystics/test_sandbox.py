"""Sandbox setup (docs/architecture.md, Content is data; rules/sandbox.py): an explicit table instead of the
chapter's setup, validated with ``setup.*`` rules, then a normal event-sourced game."""

import json

import msgspec
import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import GameCreated, Seat, ShuffleRequested
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.mice_and_mystics.chapter_events import RoomsMarkedExplored
from dicelog.domain.mice_and_mystics.events import (
    CheeseAddedToWheel,
    FigurePlaced,
    InitiativeTrackLaid,
    MinionWounded,
    RoomTilePlaced,
    RoundStarted,
    StoryBoardPrepared,
    TurnStarted,
)
from dicelog.domain.mice_and_mystics.ruleset import RULESET

MICE = ("filch", "collin")


def created(sandbox, mice=MICE):
    setup = {"chapter": "chapter-1", "mice": list(mice), "sandbox": sandbox}
    return GameCreated(
        ruleset="mice-and-mystics",
        setup=msgspec.Raw(json.dumps(setup).encode()),
        seats=(Seat(name="north", controls=tuple(mice)),),
        dice_mode="manual",
    )


def courtyard(**more):
    return {
        "tiles": [{"tile": 1, "column": 0, "row": 0}],
        "figures": [
            {"mouse": "filch", "space": "CY-13"},
            {"mouse": "collin", "space": "CY-6"},
            {"card": "rat-warriors", "space": "CY-20", "wounds": 0},
        ],
        "track": ["rat-warriors", "filch", "collin"],
        "cheese_wheel": 2,
        "hourglass_page": 3,
        "end_marker_page": 6,
        **more,
    }


def test_sandbox_begin_emits_the_setup_events_and_the_given_track__design_content_is_data():
    state = RULESET.initial_state(created(courtyard()))
    events = RULESET.decide(state, Begin())
    assert events[:4] == [
        RoomTilePlaced(tile="courtyard", column=0, row=0),
        FigurePlaced(figure="filch", card="filch", space="CY-13"),
        FigurePlaced(figure="collin", card="collin", space="CY-6"),
        FigurePlaced(figure="rat-warriors-1", card="rat-warriors", space="CY-20"),
    ]
    assert StoryBoardPrepared(hourglass_page=3, end_marker_page=6) in events
    assert CheeseAddedToWheel(count=2, reason="sandbox") in events
    assert RoomsMarkedExplored(tiles=("courtyard",)) in events
    assert InitiativeTrackLaid(cards=("rat-warriors", "filch", "collin")) in events
    assert RoundStarted(round=1) in events and TurnStarted(card="rat-warriors", slot=0) in events


def test_sandbox_without_a_track_asks_for_the_initiative_shuffle__determinare_l_ordine_di_iniziativa():
    state = RULESET.initial_state(created(courtyard(track=None)))
    events = RULESET.decide(state, Begin())
    assert events[-1] == ShuffleRequested(reason="initiative", cards=("filch", "collin", "rat-warriors"))


def test_sandbox_figures_keep_their_wounds__design_content_is_data():
    sandbox = courtyard()
    sandbox["figures"][2]["card"] = "spider"
    sandbox["figures"][2]["wounds"] = 2
    sandbox["track"] = ["spider", "filch", "collin"]
    events = RULESET.decide(RULESET.initial_state(created(sandbox)), Begin())
    assert MinionWounded(figure="spider-1", wounds=2) in events


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"tiles": [{"tile": 99, "column": 0, "row": 0}]}, "setup.unknown-tile"),
        ({"tiles": [{"tile": "attic", "column": 0, "row": 0}]}, "setup.unknown-tile"),
        (
            {"tiles": [{"tile": 1, "column": 0, "row": 0}, {"tile": 2, "column": 1, "row": 0}]},
            "setup.tile-overlap",
        ),
        (
            {"tiles": [{"tile": 1, "column": 0, "row": 0}, {"tile": 3, "column": 0, "row": 0}]},
            "setup.tile-overlap",
        ),
        (
            {"figures": [{"mouse": "filch", "space": "CY-99"}, {"mouse": "collin", "space": "CY-6"}]},
            "setup.unknown-space",
        ),
        (
            {"figures": [{"mouse": "filch", "space": "GR-1"}, {"mouse": "collin", "space": "CY-6"}]},
            "setup.space-not-on-table",
        ),
        (
            {"figures": [{"mouse": "lily", "space": "CY-2"}, {"mouse": "collin", "space": "CY-6"}]},
            "setup.mouse-not-in-party",
        ),
        ({"figures": [{"mouse": "ghost", "space": "CY-2"}]}, "setup.unknown-mouse"),
        ({"figures": [{"mouse": "filch", "space": "CY-2"}]}, "setup.mouse-not-placed"),
        (
            {
                "figures": [
                    {"mouse": "filch", "space": "CY-2"},
                    {"mouse": "collin", "space": "CY-2"},
                    {"card": "dragon", "space": "CY-3"},
                ]
            },
            "setup.unknown-card",
        ),
        (
            {
                "figures": [
                    {"mouse": "filch", "space": "CY-2"},
                    {"mouse": "collin", "space": "CY-3"},
                    {"card": "spider", "space": "CY-2"},
                ],
                "track": None,
            },
            "setup.space-full",
        ),
        (
            {
                "figures": [
                    {"mouse": "filch", "space": "CY-2"},
                    {"mouse": "collin", "space": "CY-2"},
                    {"card": "rat-warriors", "space": "CY-1"},
                ],
                "track": None,
            },
            "setup.minion-on-tree-entrance",
        ),
        (
            {
                "figures": [
                    {"mouse": "filch", "space": "CY-2", "wounds": 5},
                    {"mouse": "collin", "space": "CY-2"},
                ],
                "track": None,
            },
            "setup.wounds",
        ),
        ({"track": ["filch", "collin"]}, "setup.track"),
        ({"hourglass_page": 6}, "setup.hourglass"),
        ({"search_deck": ["golden-cheese"]}, "setup.unknown-card"),
        ({"cheese_wheel": 6}, "setup.invalid"),
    ],
)
def test_sandbox_refuses_a_table_that_cannot_be__design_content_is_data(change, rule):
    with pytest.raises(RuleBroken, match=rule.replace(".", r"\.")):
        state = RULESET.initial_state(created(courtyard(**change)))
        RULESET.decide(state, Begin())


def test_sandbox_game_plays_on_from_its_table__design_content_is_data():
    from tests.unit.mice_and_mystics.scenario import fold_events

    state = RULESET.initial_state(created(courtyard()))
    state = fold_events(state, RULESET.decide(state, Begin()))
    assert state.phase == "playing" and state.cheese_wheel == 2 and state.awaiting == "minion-move"


def tunnel_entrance(**more):
    return {
        "tiles": [{"tile": "tunnel-entrance", "column": 0, "row": 0}],
        "figures": [
            {"mouse": "filch", "space": "TE-1", "effects": ["webbed", "knocked-down"]},
            {"mouse": "collin", "space": "TE-2", "effects": ["charmed"]},
            {"card": "roaches", "space": "TE-3", "effects": ["knocked-down"]},
        ],
        "track": ["filch", "collin", "roaches"],
        **more,
    }


def test_sandbox_sets_armed_mousetraps_and_negative_effects__effetti_negativi_trappole_per_topi():
    """A referee's table may hold armed mousetrap tokens (MM rulebook (it) §Trappole per Topi) and figures
    already webbed, stunned, knocked down or charmed (MM rulebook (it) §Effetti Negativi)."""
    from dicelog.domain.mice_and_mystics.events import EffectAdded, MousetrapsSet

    state = RULESET.initial_state(created(tunnel_entrance(mousetraps=["TE-7", "TE-12"])))
    events = RULESET.decide(state, Begin())
    assert MousetrapsSet(spaces=("TE-7", "TE-12")) in events
    assert [e for e in events if isinstance(e, EffectAdded)] == [
        EffectAdded(mouse="filch", effect="webbed"),
        EffectAdded(mouse="filch", effect="knocked-down"),
        EffectAdded(mouse="collin", effect="charmed"),
        EffectAdded(mouse="roaches-1", effect="knocked-down"),
    ]
    for event in events:
        state = RULESET.evolve(state, event)
    assert state.effects["filch"] == ("webbed", "knocked-down") and state.effects["roaches-1"] == (
        "knocked-down",
    )
    assert set(state.traps) == {"TE-7", "TE-12"}


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"mousetraps": ["TE-1"]}, "setup.mousetrap"),  # not a red-X space
        ({"mousetraps": ["KT-4"]}, "setup.mousetrap"),  # not on the table
        ({"mousetraps": ["TE-7", "TE-7"]}, "setup.mousetrap"),
        (
            {
                "figures": [
                    {"mouse": "filch", "space": "TE-1", "effects": ["webbed", "webbed"]},
                    {"mouse": "collin", "space": "TE-2"},
                ],
                "track": None,
            },
            "setup.effect",
        ),
        (
            {
                "figures": [
                    {"mouse": "filch", "space": "TE-1"},
                    {"mouse": "collin", "space": "TE-2"},
                    {"card": "roaches", "space": "TE-3", "effects": ["webbed"]},
                ],
            },
            "setup.effect",
        ),
        ({"figures": [{"mouse": "filch", "space": "TE-1", "effects": ["poisoned"]}]}, "setup.invalid"),
    ],
)
def test_sandbox_refuses_effects_and_mousetraps_a_table_cannot_hold__design_content_is_data(change, rule):
    with pytest.raises(RuleBroken, match=rule.replace(".", r"\.")):
        state = RULESET.initial_state(created(tunnel_entrance(**change)))
        RULESET.decide(state, Begin())


def test_sandbox_sets_the_face_up_encounter_card__rulebook_evocazioni():
    """The face-up encounter card sets the next summon (MM rulebook (it) §Evocazioni); it is out of the
    deck."""
    from dicelog.domain.mice_and_mystics.events import EncounterRevealed

    deck = [f"standard-{n}" for n in range(1, 9)]
    state = RULESET.initial_state(created(courtyard(encounter_face_up="standard-9", encounter_deck=deck)))
    events = RULESET.decide(state, Begin())
    assert EncounterRevealed(card="standard-9", page=3) in events
    for event in events:
        state = RULESET.evolve(state, event)
    assert state.encounter_face_up == "standard-9"
    for face_up in ("standard-1", "golden-cheese"):  # still in the deck; not an encounter card
        with pytest.raises(RuleBroken, match=r"setup\.encounter-face-up"):
            bad = RULESET.initial_state(created(courtyard(encounter_face_up=face_up, encounter_deck=deck)))
            RULESET.decide(bad, Begin())


def _state_after(sandbox):
    from tests.unit.mice_and_mystics.scenario import fold_events

    state = RULESET.initial_state(created(sandbox))
    return fold_events(state, RULESET.decide(state, Begin()))


def test_sandbox_sets_poison_wounds_rooms_searched_packs_and_equipment__ricerca_equipaggiare():
    """A reconstructed table holds what the mice carry: cards in packs and equipped (the card displaced,
    Filch's starting dagger here, goes to the pack: MM rulebook (it) §Equipaggiare), the rooms each mouse has
    searched (MM rulebook (it) §Ricerca: not again) and poison among a mouse's wounds (MM rulebook (it)
    §Avvelenato)."""
    sandbox = courtyard(
        searched={"filch": ["courtyard", "guard-room"]},
        packs={"collin": ["search-card-07"]},
        equipped={"filch": [{"card": "toothpick", "slot": "both-paws"}]},
    )
    sandbox["figures"][0] = {"mouse": "filch", "space": "CY-13", "wounds": 2, "poison": 1}
    state = _state_after(sandbox)
    assert state.searched == {"filch": ("courtyard", "guard-room")}
    assert state.pack == {"collin": ("search-card-07",), "filch": ("dagger",)}
    assert state.equipped["filch"] == (("toothpick", "both-paws"),)
    assert "toothpick" not in state.search_deck and "search-card-07" not in state.search_deck
    assert state.wounds["filch"] == 2 and state.poison_wounds == {"filch": 1}


def test_a_mouse_may_not_search_a_room_the_sandbox_says_it_searched__rulebook_ricerca():
    from dicelog.domain.mice_and_mystics.commands import Search

    state = _state_after(
        courtyard(searched={"filch": ["courtyard"]}, track=["filch", "collin", "rat-warriors"])
    )
    with pytest.raises(RuleBroken, match=r"search\.same-room"):
        RULESET.decide(state, Search(mouse="filch"))
    # Collin, whose room it is not on record, may search there
    other = _state_after(
        courtyard(searched={"filch": ["courtyard"]}, track=["collin", "filch", "rat-warriors"])
    )
    assert RULESET.decide(other, Search(mouse="collin"))


@pytest.mark.parametrize(
    "change,rule",
    [
        ({"packs": {"nez": ["toothpick"]}}, "setup.mouse-not-in-party"),
        ({"searched": {"filch": ["no-such-room"]}}, "setup.unknown-tile"),
        ({"packs": {"filch": ["no-such-card"]}}, "setup.unknown-card"),
        ({"packs": {"filch": ["toothpick"], "collin": ["toothpick"]}}, "setup.card-twice"),
        ({"equipped": {"filch": [{"card": "toothpick", "slot": "body"}]}}, "setup.equipped"),
        ({"equipped": {"filch": [{"card": "leather-breastplate", "slot": "body"}]}}, "setup.equipped"),
        (
            {"packs": {"filch": ["toothpick", "bow-of-precision", "cloak-of-displacement", "tildas-mace"]}},
            "setup.pack-limit",
        ),
    ],
)
def test_sandbox_refuses_belongings_a_table_cannot_hold__rulebook_equipaggiare(change, rule):
    with pytest.raises(RuleBroken, match=rule.replace(".", r"\.")):
        _state_after(courtyard(**change))


@pytest.mark.parametrize(
    "figure",
    [
        {"mouse": "filch", "space": "CY-13", "wounds": 1, "poison": 2},
        {"card": "rat-warriors", "space": "CY-20", "poison": 1},
    ],
)
def test_sandbox_refuses_poison_beyond_a_mouses_wounds_or_on_a_minion__rulebook_avvelenato(figure):
    sandbox = courtyard()
    sandbox["figures"] = [f for f in sandbox["figures"] if ("mouse" in f) != ("mouse" in figure)] + [figure]
    with pytest.raises(RuleBroken, match=r"setup\.poison"):
        _state_after(sandbox)


def test_a_sandbox_round_goes_on_from_the_card_whose_turn_it_is__rulebook_round_di_gioco():
    """``turn``: the cards above it on the track have played this round; the round goes on from it, and
    the next round starts from the top as any other."""
    from dicelog.domain.mice_and_mystics.commands import EndTurn
    from tests.unit.mice_and_mystics.scenario import fold_events

    state = RULESET.initial_state(created(courtyard(turn="filch")))
    events = RULESET.decide(state, Begin())
    started = [e for e in events if isinstance(e, TurnStarted)]
    assert started == [TurnStarted(card="filch", slot=1)]  # the rat warriors above have played
    state = fold_events(state, events)
    assert state.mouse_turn is not None and state.mouse_turn.mouse == "filch" and state.round == 1
    state = fold_events(state, RULESET.decide(state, EndTurn(mouse="filch")))
    assert state.mouse_turn is not None and state.mouse_turn.mouse == "collin" and state.slot == 2
    after = RULESET.decide(state, EndTurn(mouse="collin"))
    assert RoundStarted(round=2) in after
    assert next(e for e in after if isinstance(e, TurnStarted)) == TurnStarted(card="rat-warriors", slot=0)


@pytest.mark.parametrize("change", [{"turn": "nez"}, {"turn": "filch", "track": None}])
def test_a_sandbox_turn_off_the_given_track_is_refused__rulebook_round_di_gioco(change):
    with pytest.raises(RuleBroken, match=r"setup\.turn"):
        _state_after(courtyard(**change))


def _with_boss(boss: dict, track: list[str]) -> dict:
    sandbox = courtyard(track=track)
    sandbox["figures"][2] = {"space": "CY-20", **boss}
    return sandbox


def test_a_sandbox_boss_acts_on_its_two_initiative_cards__rulebook_carte_iniziativa_dei_boss():
    """One boss figure, two cards on the track: Brodie (both of his), Vanestra (the 2 drawn of her 4)."""
    from dicelog.domain.mice_and_mystics.events import BossCardsAssigned

    track = ["brodie-chases", "filch", "collin", "brodie-pounces"]
    state = RULESET.initial_state(created(_with_boss({"boss": "brodie"}, track)))
    events = RULESET.decide(state, Begin())
    assert BossCardsAssigned(figure="brodie", cards=("brodie-chases", "brodie-pounces")) in events
    after = _state_after(_with_boss({"boss": "brodie"}, track))
    assert after.boss_cards == {"brodie": ("brodie-chases", "brodie-pounces")}
    assert after.figures["brodie"] == "brodie-chases" and after.track == tuple(track)
    vanestra = {"boss": "vanestra", "boss_cards": ["vanestras-web", "vanestras-call"]}
    after = _state_after(_with_boss(vanestra, ["filch", "vanestras-call", "collin", "vanestras-web"]))
    assert after.boss_cards == {"vanestra": ("vanestras-web", "vanestras-call")}


@pytest.mark.parametrize(
    "boss,track,rule",
    [
        ({"boss": "nobody"}, ["filch", "collin"], "setup.boss"),
        (
            {"boss": "brodie", "boss_cards": ["brodie-chases"]},
            ["filch", "collin", "brodie-chases"],
            "setup.boss",
        ),
        ({"boss": "vanestra"}, ["filch", "collin"], "setup.boss"),  # which 2 of her 4 must be said
        (
            {"boss": "brodie", "wounds": 1},
            ["filch", "collin", "brodie-chases", "brodie-pounces"],
            "setup.boss",
        ),
        ({"boss": "brodie", "card": "rat-warriors"}, ["filch", "collin"], "setup.figure"),
        ({"boss": "brodie"}, ["filch", "collin", "brodie-chases"], "setup.track"),  # a card off the track
    ],
)
def test_a_sandbox_boss_the_rules_refuse_names_its_rule__carte_iniziativa_dei_boss(boss, track, rule):
    with pytest.raises(RuleBroken, match=rule.replace(".", r"\.")):
        _state_after(_with_boss(boss, track))
