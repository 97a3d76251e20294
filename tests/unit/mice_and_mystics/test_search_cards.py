"""Search-card rules: a rat throwing the grapes, Bow of Precision, Cloak of Displacement, scrolls,
events and tricks (MM rulebook (it) §Carte Ricerca; MM rulebook (it) §Ricerca; MM rulebook (it) §Oggetti del
Gruppo, Uva come Arma; MM rulebook (it) §Linee Rosse; docs/mice-and-mystics/facts.md §5)."""

import pytest

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import CardsDrawn, DecisionMade, DecisionRequested, RollRequested
from dicelog.domain.mice_and_mystics.chapter_events import SearchDeckShuffled
from dicelog.domain.mice_and_mystics.commands import Battle, EndTurn, Move, MoveTo, Search, Share, UseScroll
from dicelog.domain.mice_and_mystics.events import (
    AttackDeclared,
    AttackResolved,
    AttackRolled,
    DecksPrepared,
    EffectAdded,
    FigurePlaced,
    FigureStoodUp,
    MinionActivated,
    MinionAttackSkipped,
    MinionDefeated,
    MinionMoved,
    RoomTilePlaced,
    SearchCardKept,
)
from dicelog.domain.mice_and_mystics.item_events import (
    EventCardResolved,
    MouseDisplaced,
    PartyItemGained,
    PartyItemLost,
    PartyItemPlaced,
    ScrollUsed,
    SearchCardEquipped,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import grapes, scrolls
from dicelog.domain.mice_and_mystics.rules.cards import pack_load
from dicelog.domain.mice_and_mystics.rules.combat import mouse_defense_dice
from dicelog.domain.mice_and_mystics.rules.flow import proceed
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from tests.unit.mice_and_mystics.scenario import act, answer, chapter_1_table, fold_events, roll

RATS_FIRST = ("rat-warriors", "filch", "collin", "tilda", "maginos")
SQUASHED, WHOLE = 1, 2
CHEESE, SWORD_STAR, SWORD_SHIELD, BOW, BOW_STAR = 1, 2, 3, 4, 5


# --- A rat throwing the grapes (MM rulebook (it) §Oggetti del Gruppo, Uva come Arma)
# ----------------------------


def rat_on_grapes(*events, grapes_on="GR-13"):
    """Only rat-warriors-3 left (on GR-13); Collin and Tilda on GR-7, Filch and Maginos on GR-6; the
    grapes on ``grapes_on``; the Rat Warriors' turn is open."""
    return chapter_1_table(
        MinionDefeated(figure="rat-warriors-1", card="rat-warriors"),
        MinionDefeated(figure="rat-warriors-2", card="rat-warriors"),
        *(FigurePlaced(figure=m, card=m, space="GR-7") for m in ("collin", "tilda")),
        PartyItemGained(mouse="filch", card="grapes"),
        PartyItemPlaced(mouse="filch", item="grapes", spaces=(grapes_on,)),
        *events,
        track=RATS_FIRST,
    )


def test_rulebook_uva_come_arma_a_rat_starting_on_the_grapes_throws_them_instead_of_moving_and_attacking():
    """MM rulebook (it) §Uva come Arma: "Se un Ratto inizia il suo Turno sulla stessa casella dell'Uva, non
    muoverà. Al posto di eseguire il suo normale Attacco farà invece un Attacco a Distanza verso la casella
    contenente il maggior numero di Topi. Se c'è più di 1 casella con lo stesso numero di Topi, scegliete
    quella contenente il Topo più in alto sulla Colonna dell'Iniziativa." Two mice on GR-6 and two on GR-7:
    Filch, highest on the track, is on GR-6."""
    events = proceed(rat_on_grapes())
    assert events[-4:] == [
        MinionActivated(figure="rat-warriors-3"),
        MinionMoved(figure="rat-warriors-3", origin="GR-13", path=(), reason="on the grapes"),
        AttackDeclared(attacker="rat-warriors-3", target="filch", ranged=True, dice=0, others=("maginos",)),
        RollRequested(reason="grapes", dice=1, sides=2),
    ]


def test_rulebook_uva_come_arma_the_rat_throws_at_the_space_with_the_most_mice():
    """MM rulebook (it) §Uva come Arma: the space holding the most mice wins over the mouse highest on the
    track."""
    state = rat_on_grapes(FigurePlaced(figure="maginos", card="maginos", space="GR-7"))
    declared = [e for e in proceed(state) if isinstance(e, AttackDeclared)]
    assert declared == [
        AttackDeclared(
            attacker="rat-warriors-3", target="collin", ranged=True, dice=0, others=("tilda", "maginos")
        )
    ]


def test_uva_come_arma_squashed_grapes_thrown_by_a_rat_hit_every_mouse_there_then_go_back_in_the_deck():
    """MM rulebook (it) §Uva come Arma: squashed, every figure on the space takes an automatic hit and
    defends; the grapes are discarded and their card shuffled back into the search deck."""
    state = rat_on_grapes()
    state = fold_events(state, proceed(state))
    events, state = roll(state, SQUASHED)
    assert events == [
        PartyItemLost(item="grapes", reason="squashed"),
        SearchDeckShuffled(added=("grapes",), reason="squashed"),
        AttackRolled(attacker="rat-warriors-3", target="filch", hits=1),
        RollRequested(reason="mouse-defense", dice=mouse_defense_dice("filch", state), piece="filch"),
    ]
    events, state = roll(state, *([BOW] * mouse_defense_dice("filch", state)))
    assert events[-1] == RollRequested(
        reason="mouse-defense", dice=mouse_defense_dice("maginos", state), piece="maginos"
    )
    assert state.wounds["filch"] == 1 and "grapes" in state.search_deck and "grapes" not in state.tokens


def test_rulebook_uva_come_arma_whole_grapes_thrown_by_a_rat_knock_the_mice_down_and_stay_there():
    """MM rulebook (it) §Uva come Arma: whole, the figures there are knocked down and the grapes lie on their
    space."""
    state = rat_on_grapes()
    state = fold_events(state, proceed(state))
    events, state = roll(state, WHOLE)
    assert events[:4] == [
        EffectAdded(mouse="filch", effect="knocked-down"),
        EffectAdded(mouse="maginos", effect="knocked-down"),
        AttackResolved(attacker="rat-warriors-3", target="filch", hits=0, blocks=0, wounds=0),
        PartyItemPlaced(mouse="rat-warriors-3", item="grapes", spaces=("GR-6",)),
    ]
    assert state.tokens["grapes"] == ("GR-6",)


def test_rulebook_uva_come_arma_a_knocked_down_rat_on_the_grapes_stands_up_then_throws():
    """MM rulebook (it) §Atterrato: standing up takes the move; the rat still started on the grapes and
    throws."""
    events = proceed(rat_on_grapes(EffectAdded(mouse="rat-warriors-3", effect="knocked-down")))
    assert events[-5:-1] == [
        MinionActivated(figure="rat-warriors-3"),
        FigureStoodUp(figure="rat-warriors-3"),
        MinionMoved(figure="rat-warriors-3", origin="GR-13", path=(), reason="on the grapes"),
        AttackDeclared(attacker="rat-warriors-3", target="filch", ranged=True, dice=0, others=("maginos",)),
    ]


def test_rulebook_uva_come_arma_a_rat_sharing_the_grapes_with_a_mouse_attacks_normally():
    """MM rulebook (it) §Uva come Arma: "Un Ratto non può usare l'Uva come Arma se sulla casella sono presenti
    anche uno o più Topi"."""
    state = rat_on_grapes(
        FigurePlaced(figure="rat-warriors-3", card="rat-warriors", space="GR-6"), grapes_on="GR-6"
    )
    events = proceed(state)
    assert events[-3:] == [
        MinionMoved(figure="rat-warriors-3", origin="GR-6", path=(), reason="starts on a mouse's space"),
        AttackDeclared(attacker="rat-warriors-3", target="filch", ranged=False, dice=2),
        RollRequested(reason="minion-attack", dice=2),
    ]


def test_rulebook_uva_come_arma_a_rat_on_the_grapes_with_no_mouse_in_its_room_neither_moves_nor_attacks():
    """The throw reaches the rat's room only (as a mouse's throw: docs/mice-and-mystics/rulings.md); it still
    does not move."""
    away = [FigurePlaced(figure=m, card=m, space="KT-2") for m in ("collin", "tilda", "filch", "maginos")]
    events = proceed(rat_on_grapes(*away))
    assert events[1:3] == [
        MinionMoved(figure="rat-warriors-3", origin="GR-13", path=(), reason="on the grapes"),
        MinionAttackSkipped(figure="rat-warriors-3", reason="no mouse in the room to throw the grapes at"),
    ]


def test_rulebook_uva_come_arma_roaches_on_the_grapes_do_not_throw_them():
    """Only rats throw the grapes: a roach on them eats them (MM rulebook (it) §Uva come Esca per Blatte)."""
    state = rat_on_grapes(FigurePlaced(figure="roaches-1", card="roaches", space="GR-13"))
    assert grapes.rat_on_grapes(state, "rat-warriors-3") and not grapes.rat_on_grapes(state, "roaches-1")


# --- Bow of Precision (MM rulebook (it) §Carte Ricerca, Arco di Precisione)
# ----------------------------------


def with_bow(*events):
    bow = SearchCardEquipped(
        mouse="filch",
        card="bow-of-precision",
        slot="paw",
        unequipped=("dagger",),
        loadout=(("bow-of-precision", "paw"),),
    )
    return chapter_1_table(SearchCardKept(mouse="filch", card="bow-of-precision"), bow, *events)


def test_rulebook_carte_ricerca_bow_of_precision_counts_each_bow_star_as_two_hits():
    """MM rulebook (it) §Carte Ricerca, Arco di Precisione: "tutti i risultati [·] contano come 2 successi
    invece di 1" — the bow-star face (provisional, docs/mice-and-mystics/rulings.md). Bow 1 hit, bow-star 2, a
    plain sword none."""
    _, state = act(with_bow(), Battle(mouse="filch", target="rat-warriors-1"))
    assert state.attack.ranged and state.attack.dice == 3  # Filch's battle 2, the bow +1
    events, _ = roll(state, BOW_STAR, BOW, SWORD_STAR)
    assert events[0] == AttackRolled(attacker="filch", target="rat-warriors-1", hits=3)


def test_rulebook_carte_ricerca_without_the_bow_a_bow_star_is_one_hit():
    """The double count belongs to the Bow of Precision only (Filch with his Dagger, Maginos' Staff)."""
    state = chapter_1_table(track=("maginos", "filch", "collin", "tilda", "rat-warriors"))
    _, state = act(state, Battle(mouse="maginos", target="rat-warriors-1"))
    events, _ = roll(state, BOW_STAR, BOW)
    assert events[0] == AttackRolled(attacker="maginos", target="rat-warriors-1", hits=2)


# --- Cloak of Displacement (MM rulebook (it) §Carte Ricerca, Mantello del Mutamento)
# --------------------------

CLOAK = "cloak-of-displacement"
GR_NORMAL = ("GR-1", "GR-3", "GR-5", "GR-7", "GR-8", "GR-9", "GR-10", "GR-12", "GR-14", "GR-15", "GR-16")


def cloaked_maginos_attacked():
    """Maginos wears the cloak; rat-warriors-1 walks onto GR-6 and attacks him with 2 hits."""
    cloak = SearchCardEquipped(
        mouse="maginos", card=CLOAK, slot="body", loadout=(("maginos-staff", "paw"), (CLOAK, "body"))
    )
    state = chapter_1_table(
        SearchCardKept(mouse="maginos", card=CLOAK),
        cloak,
        track=("rat-warriors", "maginos", "filch", "collin", "tilda"),
    )
    state = fold_events(state, proceed(state))
    _, state = roll(state, 1)  # rat-warriors-1 moves 1: GR-2 -> GR-6
    assert state.attack is not None and state.attack.target == "maginos"
    _, state = roll(state, SWORD_STAR, SWORD_STAR)
    assert state.awaiting == "mouse-defense" and mouse_defense_dice("maginos", state) == 2  # 1 + cloak
    return state


def test_rulebook_carte_ricerca_cloak_of_displacement_offers_a_normal_space_after_blocking_every_hit():
    """MM rulebook (it) §Carte Ricerca, Mantello del Mutamento: "Dopo aver bloccato tutti i colpi dell'Attacco
    di un Servitore, il Topo che indossa questo Mantello può muoversi immediatamente in una qualsiasi altra
    casella normale, nella stessa Stanza." Entrances, the flip space, his own space are not normal."""
    events, state = roll(cloaked_maginos_attacked(), SWORD_SHIELD, SWORD_SHIELD)
    assert events[-2:] == [
        AttackResolved(attacker="rat-warriors-1", target="maginos", hits=2, blocks=2, wounds=0),
        DecisionRequested(decision=CLOAK, options=(*GR_NORMAL, "stay"), piece="maginos", default="stay"),
    ]
    events, state = answer(state, DecisionMade(decision=CLOAK, option="GR-16", by="south"))
    assert events[0] == MouseDisplaced(mouse="maginos", origin="GR-6", space="GR-16")
    assert "maginos" in state.board["GR-16"] and "maginos" not in state.board["GR-6"]


def test_rulebook_carte_ricerca_cloak_of_displacement_the_wearer_may_stay():
    events, state = roll(cloaked_maginos_attacked(), SWORD_SHIELD, SWORD_SHIELD)
    events, state = answer(state, DecisionMade(decision=CLOAK, option="stay", by="south"))
    assert not [e for e in events if isinstance(e, MouseDisplaced)] and "maginos" in state.board["GR-6"]


def test_rulebook_carte_ricerca_cloak_of_displacement_not_after_a_wound():
    """One hit unblocked: no move."""
    events, state = roll(cloaked_maginos_attacked(), SWORD_SHIELD, BOW)
    assert not [e for e in events if isinstance(e, DecisionRequested) and e.decision == CLOAK]
    assert state.wounds["maginos"] == 1


# --- Scrolls (MM rulebook (it) §Carte Ricerca: Pergamena; MM rulebook (it) §Linee Rosse)
# -------------------------------------

LEVITATION = "scroll-of-levitation"


def filch_with_scroll_on_gr14(*events):
    return chapter_1_table(
        FigurePlaced(figure="filch", card="filch", space="GR-14"),
        SearchCardKept(mouse="filch", card=LEVITATION),
        *events,
    )


def test_rulebook_carte_ricerca_a_scroll_is_used_as_a_free_action_then_discarded():
    """docs/mice-and-mystics/facts.md §5: scrolls are one-use items used as a free action, then discarded (MM
    rulebook (pt): "O pergaminho deve ser descartado pelo rato depois do uso"); the free action is once a
    turn."""
    state = filch_with_scroll_on_gr14(SearchCardKept(mouse="filch", card=LEVITATION))
    assert UseScroll(mouse="filch", card=LEVITATION) in RULESET.legal_commands(state)
    events, state = act(state, UseScroll(mouse="filch", card=LEVITATION))
    assert events == [ScrollUsed(mouse="filch", card=LEVITATION, effect="levitation")]
    assert state.pack["filch"] == (LEVITATION,) and state.mouse_turn.action is None
    with pytest.raises(RuleBroken, match="free-action.once-per-turn"):
        RULESET.decide(state, UseScroll(mouse="filch", card=LEVITATION))
    assert UseScroll(mouse="filch", card=LEVITATION) not in RULESET.legal_commands(state)


def test_rulebook_carte_ricerca_only_scrolls_in_the_pack_can_be_used():
    with pytest.raises(RuleBroken, match="scroll.not-in-pack"):
        RULESET.decide(chapter_1_table(), UseScroll(mouse="filch", card=LEVITATION))
    with pytest.raises(RuleBroken, match="scroll.not-a-scroll"):
        RULESET.decide(
            chapter_1_table(SearchCardKept(mouse="filch", card="grapes")),
            UseScroll(mouse="filch", card="grapes"),
        )


def test_rulebook_linee_rosse_a_scroll_of_levitation_lets_the_mouse_cross_red_lines_this_turn():
    """MM rulebook (it) §Aree Nere e Muri: red lines are crossed only with items "che permettono ai Topi di
    attraversare le Linee Rosse, come Amo e Lenza o la Pergamena di Levitazione". GR-14 | GR-15 is red."""
    _, state = act(filch_with_scroll_on_gr14(), Move(mouse="filch"))
    _, state = roll(state, 1)
    with pytest.raises(RuleBroken, match="move.not-adjacent"):
        RULESET.decide(state, MoveTo(mouse="filch", path=("GR-15",)))
    _, state = act(state, UseScroll(mouse="filch", card=LEVITATION))
    assert MoveTo(mouse="filch", path=("GR-15",)) in RULESET.legal_commands(state)
    _, state = act(state, MoveTo(mouse="filch", path=("GR-15",)))
    assert "filch" in state.board["GR-15"]


def test_rulebook_linee_rosse_levitation_ends_with_the_turn():
    _, state = act(filch_with_scroll_on_gr14(), UseScroll(mouse="filch", card=LEVITATION))
    assert scrolls.in_force(state, "filch", scrolls.LEVITATION)
    _, state = act(state, EndTurn(mouse="filch"))
    assert not scrolls.in_force(state, "filch", scrolls.LEVITATION)


def test_rulebook_azioni_gratuite_no_scroll_in_water():
    """MM rulebook (it) §Muoversi nell'Acqua: "i Topi su caselle d'acqua non possono usare Azioni
    Gratuite"."""
    from dicelog.domain.mice_and_mystics.events import RoomTilePlaced

    state = chapter_1_table(
        RoomTilePlaced(tile="sewer", column=5, row=5),
        FigurePlaced(figure="filch", card="filch", space="SW-7"),
        SearchCardKept(mouse="filch", card=LEVITATION),
    )
    with pytest.raises(RuleBroken, match="free-action.in-water"):
        RULESET.decide(state, UseScroll(mouse="filch", card=LEVITATION))


# --- Events and tricks (MM rulebook (it) §Carte Ricerca; MM rulebook (it) §Ricerca)
# ------------------------------------------

PROVISIONAL = {
    "provisional": True,
    "provisional_reason": "test fixture only: no event, trick or unknown scroll text is known "
    "(docs/mice-and-mystics/facts.md §5)",
}
FIXTURE = {
    "search-cards.json": {
        "search_cards": [
            {"id": "search-card-54", "name": "Test trick", "type": "trick", **PROVISIONAL},
            {"id": "search-card-55", "name": "Test event", "type": "event", **PROVISIONAL},
            {"id": "search-card-56", "name": "Test scroll", "type": "scroll", **PROVISIONAL},
        ]
    }
}


def fixture_table(*events):
    """Chapter 1 on the table in a game created with a content pack adding three placeholder cards
    typed as a trick, an event and a scroll of unknown text."""
    return chapter_1_table(*events, content_pack=FIXTURE)


def searched(state, card):
    _, state = act(state, Search(mouse="filch"))
    _, state = roll(state, 5)
    return answer(state, CardsDrawn(reason="search", deck="search", cards=(card,), source="manual"))


def test_rulebook_ricerca_a_drawn_event_resolves_at_once_and_is_never_kept():
    """MM rulebook (it) §Ricerca: "Se invece pescate un Evento, seguite le istruzioni sulla carta" — no keep
    or discard-for-cheese choice; the card leaves the deck and never enters the pack."""
    state = fixture_table(DecksPrepared(encounter_deck=(), search_deck=("search-card-55", "search-card-01")))
    events, state = searched(state, "search-card-55")
    assert events[0] == EventCardResolved(mouse="filch", card="search-card-55")
    assert not [e for e in events if isinstance(e, DecisionRequested)]
    assert "search-card-55" not in state.pack.get("filch", ()) and "search-card-55" not in state.search_deck
    assert state.cheese.get("filch", 0) == 0


def test_rulebook_carte_ricerca_a_trick_takes_no_pack_room():
    """MM rulebook (it) §Carte Ricerca: "Gli Stratagemmi non occupano nessuno spazio, nemmeno nella sacca del
    Topo" — with 3 items in the pack a trick may still be kept, and the pack still counts 3."""
    full = [SearchCardKept(mouse="filch", card=f"search-card-0{n}") for n in (1, 2, 3)]
    state = fixture_table(DecksPrepared(encounter_deck=(), search_deck=("search-card-54",)), *full)
    events, state = searched(state, "search-card-54")
    assert events == [
        DecisionRequested(decision="search-keep", options=("keep", "discard"), piece="filch", default="keep")
    ]
    _, state = answer(state, DecisionMade(decision="search-keep", option="keep", by="south"))
    assert "search-card-54" in state.pack["filch"] and pack_load(library_of(state), state.pack["filch"]) == 3
    collin_full = [SearchCardKept(mouse="collin", card=f"search-card-1{n}") for n in (1, 2, 3)]
    state = fold_events(state, collin_full)
    assert Share(mouse="filch", with_mouse="collin", card="search-card-54") in RULESET.legal_commands(state)


def test_rulebook_carte_ricerca_a_scroll_whose_text_is_unknown_cannot_be_used():
    state = fixture_table(SearchCardKept(mouse="filch", card="search-card-56"))
    with pytest.raises(RuleBroken, match="scroll.effect-unknown"):
        RULESET.decide(state, UseScroll(mouse="filch", card="search-card-56"))
    assert UseScroll(mouse="filch", card="search-card-56") not in RULESET.legal_commands(state)


# --- Toothpick (docs/mice-and-mystics/facts.md §5: "takes both paws, good for defense" [uncertain])
# ------------------------


def test_rulebook_equipaggiare_the_toothpick_takes_both_paws_and_adds_no_invented_defense():
    """docs/mice-and-mystics/facts.md §5 (FAQ1): the Toothpick takes both paws; "good for defense" gives no
    number, so the catalogue records none (provisional). Equipping it puts Filch's Dagger back in his pack."""
    from dicelog.domain.mice_and_mystics.commands import Equip
    from dicelog.domain.mice_and_mystics.content import library

    state = chapter_1_table(SearchCardKept(mouse="filch", card="toothpick"))
    card = library().search_cards["toothpick"]
    assert (
        card.slot == "both-paws"
        and card.defense == 0
        and card.provisional
        and "defense" in card.provisional_reason
    )
    before = mouse_defense_dice("filch", state)
    events, state = act(state, Equip(mouse="filch", card="toothpick", slot="both-paws"))
    assert events == [
        SearchCardEquipped(
            mouse="filch",
            card="toothpick",
            slot="both-paws",
            unequipped=("dagger",),
            loadout=(("toothpick", "both-paws"),),
        )
    ]
    assert state.pack["filch"] == ("dagger",) and mouse_defense_dice("filch", state) == before
    with pytest.raises(RuleBroken, match="equip.wrong-slot"):
        RULESET.decide(
            chapter_1_table(SearchCardKept(mouse="filch", card="toothpick")),
            Equip(mouse="filch", card="toothpick", slot="paw"),
        )


def test_rulebook_aree_nere_e_muri_levitation_crosses_the_black_gaps_of_the_pipes():
    """MM rulebook (it) §Aree Nere e Muri: "Nella Stanza delle Tubature, le zone nere rappresentano gli
    interstizi tra le varie sezioni di tubo: possono essere attraversate solamente usando quegli Oggetti che
    permettono ai Topi di attraversare le Linee Rosse". PI-2 | PI-3 is such a gap (the Pipes' provisional
    layout); minions never cross it."""
    from dicelog.domain.mice_and_mystics.content import shipped_library
    from dicelog.domain.mice_and_mystics.rules.graph import minion_neighbours, mouse_neighbours

    lib = shipped_library()
    assert "PI-3" not in dict(mouse_neighbours(lib, "PI-2")) and "PI-3" not in minion_neighbours(lib, "PI-2")
    on_pipes = chapter_1_table(
        RoomTilePlaced(tile="pipes", column=4, row=4),
        FigurePlaced(figure="filch", card="filch", space="PI-2"),
        SearchCardKept(mouse="filch", card=LEVITATION),
    )
    _, state = act(on_pipes, Move(mouse="filch"))
    _, state = roll(state, 1)
    with pytest.raises(RuleBroken, match="move.not-adjacent") as refused:
        RULESET.decide(state, MoveTo(mouse="filch", path=("PI-3",)))
    assert refused.value.section == "MM rulebook (it) §Aree Nere e Muri"
    _, state = act(state, UseScroll(mouse="filch", card=LEVITATION))
    assert MoveTo(mouse="filch", path=("PI-3",)) in RULESET.legal_commands(state)
    _, state = act(state, MoveTo(mouse="filch", path=("PI-3",)))
    assert "filch" in state.board["PI-3"]
