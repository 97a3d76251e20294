"""A sandbox lays the Sidequest deck's order (``sidequest_top``, issue 31): the Knight's next Sidequest draws
give its cards first on top (Vast rulebook §Missioni Secondarie: she draws a new Sidequest when she completes
one), then the cards below come in an order nobody has seen; nobody sees the order laid; a bad order is
refused (``setup.sandbox-*``). Draws are answered explicitly."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import pytest
from msgspec.structs import replace

from dicelog.domain.core.dice import draw_cards
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DrawRequested
from dicelog.domain.core.game import create, fold, run_command_and_auto_answers_records
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.core.verify import verify
from dicelog.domain.core.visibility import SPECTATOR_VIEWER, Viewer
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.state import HIDDEN
from dicelog.domain.vast.visibility import view_event, view_state
from tests.rulesets.vast.support import Play
from tests.rulesets.vast.test_sandbox import TABLE, created_at, new_game

KNIGHT = {**TABLE["knight"], "sidequests": ["persistent", "bedecked"], "face_up": ["javelin", "heroic-boots"]}
"""Her hand: Persistent (3 Crystals smashed: she has 4) and Bedecked (2 Treasures face up), both fulfilled."""
ORDERED = {**TABLE, "knight": KNIGHT, "sidequest_top": ["intrepid", "swift"]}


def begun(sandbox: dict) -> Play:
    p = Play(new_game(sandbox, ["knight", "cave"], revision=7))
    p.do(Begin())
    p.settle()
    return p


def test_the_knights_sidequest_draws_give_the_laid_top_in_order__rulebook_missioni_secondarie():
    """Vast rulebook §Missioni Secondarie: a completed Sidequest is replaced by a draw from the deck. With the
    deck's top laid (Intrepid, then Swift), her two draws are those cards in that order, each a draw of that
    one card (the server's draw can give no other); the top then spent, the next draw is of the whole deck."""
    p = begun(ORDERED)
    assert p.state.sidequest_top == ("intrepid", "swift")
    assert set(p.state.sidequest_top) <= set(p.state.sidequest_deck)
    p.do(cmd.CompleteSidequest(card="persistent"))
    pending = p.pending
    assert isinstance(pending, DrawRequested) and pending.deck == "sidequests"
    assert pending.cards == ("intrepid",)
    assert draw_cards(b"any seed", 3, pending.cards, pending.count) == ("intrepid",)
    p.draw("intrepid")
    assert "intrepid" in p.state.knight.sidequests and "intrepid" not in p.state.sidequest_deck
    assert p.state.sidequest_top == ("swift",)
    p.do(cmd.CompleteSidequest(card="bedecked"))
    assert p.pending.cards == ("swift",)
    p.draw("swift")
    assert p.state.sidequest_top == () and "swift" in p.state.knight.sidequests
    left = p.state.sidequest_deck
    assert "swift" not in left and len(left) > 1
    # a third Sidequest fulfilled (Intrepid: 10 tiles revealed) draws from every card left, uniformly
    p.state = replace(p.state, revealed=10)
    p.do(cmd.CompleteSidequest(card="intrepid"))
    assert p.pending.cards == left


def test_without_a_laid_order_the_sidequest_draw_is_of_the_whole_deck_as_before():
    """A table laid without ``sidequest_top`` (every game stored before it was added): her draw is of every
    card in the deck, uniformly, as it always was."""
    p = begun({**TABLE, "knight": KNIGHT})
    assert p.state.sidequest_top == ()
    p.do(cmd.CompleteSidequest(card="persistent"))
    assert p.pending.cards == p.state.sidequest_deck and len(p.state.sidequest_deck) > 1


@pytest.mark.parametrize(
    "viewer",
    [
        Viewer(kind="seat", seat="sir", pieces=frozenset({"knight"})),
        Viewer(kind="seat", seat="deep", pieces=frozenset({"cave"})),
        SPECTATOR_VIEWER,
    ],
)
def test_nobody_sees_the_laid_order_of_the_sidequest_deck(viewer):
    """docs/who-sees-what.md: the Sidequest deck is face down; its laid top is masked for every reader, the
    Knight included, and her draw's request too."""
    p = begun(ORDERED)
    assert view_state(p.state, viewer).sidequest_top == (HIDDEN, HIDDEN)
    p.do(cmd.CompleteSidequest(card="persistent"))
    assert view_event(p.pending, viewer).cards == (HIDDEN,)


@pytest.mark.parametrize(
    "top,rule",
    [
        (["intrepid", "rich"], "setup.sandbox-card"),  # no such Sidequest
        (["intrepid", "intrepid"], "setup.sandbox-duplicate"),
        (["persistent"], "setup.sandbox-deck"),  # in her hand
        (["javelin"], "setup.sandbox-card"),  # a Treasure card
    ],
)
def test_a_sidequest_order_that_cannot_be_is_refused(top, rule):
    with pytest.raises(RuleBroken) as info:
        new_game({**TABLE, "knight": KNIGHT, "sidequest_top": top}, ["knight", "cave"], revision=7)
    assert info.value.rule == rule


def test_a_completed_sidequest_cannot_be_laid_on_the_deck():
    knight = {**KNIGHT, "completed": ["swift"]}
    with pytest.raises(RuleBroken) as info:
        new_game({**TABLE, "knight": knight, "sidequest_top": ["swift"]}, ["knight", "cave"], revision=7)
    assert info.value.rule == "setup.sandbox-deck"


def test_a_setup_that_removed_a_sidequest_refuses_it_on_the_deck():
    """Knight vs Cave removes Daring and Eagle-Eyed (their versions need another player): not in its deck."""
    with pytest.raises(RuleBroken) as info:
        new_game({**TABLE, "knight": KNIGHT, "sidequest_top": ["daring"]}, ["knight", "cave"], revision=7)
    assert info.value.rule == "setup.sandbox-card"


def test_a_game_laid_with_the_sidequest_order_draws_it_with_the_servers_dice_and_verifies():
    """Through the game's log (``dicelog.domain.core.game``): the server answers her draw under the game's
    seed with the laid top card, and the log verifies (docs/who-sees-what.md, Hidden information). The open
    edges are left open, so no Cave's fill is pending."""
    at = datetime(2026, 11, 28, tzinfo=UTC)
    records = create(
        uuid4(),
        created_at({**ORDERED, "fill_open_edges": False}, ["knight", "cave"], 7),
        at=at,
        seed=b"s",
        command_id="new",
    )
    game = fold(None, records)
    assert game.state.turn == "knight" and game.state.sidequest_top == ("intrepid", "swift")
    done = run_command_and_auto_answers_records(
        game, cmd.CompleteSidequest(card="persistent"), seat="table", command_id="c1", at=at, seed=b"s"
    )
    game = fold(game, done)
    assert "intrepid" in game.state.knight.sidequests and game.state.sidequest_top == ("swift",)
    assert verify([*records, *done]).ok
