"""The game log in players' words (issue 32, item 3): figures, spaces, cards and dice faces by what is printed
on the components (Rat Warrior 1, Collin's Sword, Kitchen Tunnels · space 5, the action die's symbols and
move number), never by content ids; the read-aloud text without its source line."""

import re

from dicelog.domain.core.events import DecisionMade, DiceRolled
from dicelog.domain.core.game import fold
from dicelog.domain.mice_and_mystics.chapter_events import ChapterStoryRead
from dicelog.domain.mice_and_mystics.content import library
from dicelog.domain.mice_and_mystics.events import (
    AttackDeclared,
    AttackRolled,
    MinionMoved,
    SearchCardKept,
)
from dicelog.domain.mice_and_mystics.item_events import SearchCardUnequipped
from dicelog.domain.mice_and_mystics.read_models import describe
from dicelog.domain.mice_and_mystics.words import Words, face_text
from tests.unit.mice_and_mystics.scenario import chapter_1_table
from tests.unit.mice_and_mystics.test_random_play import play_chapter

SPACE_ID = re.compile(r"\b[A-Z]{2,3}-\d+\b")
FIGURE_ID = re.compile(r"\b[a-z]+(?:-[a-z]+)*-\d+\b")


def test_the_examples_of_the_issue_read_as_players_say_them():
    state = chapter_1_table()
    assert (
        describe(state, AttackDeclared(attacker="collin", target="rat-warriors-1", ranged=False, dice=2))
        == "Prince Collin attacks Rat Warrior 1 (melee, 2 dice)"
    )
    assert describe(state, SearchCardUnequipped(mouse="collin", card="collins-sword")) == (
        "Prince Collin puts Collin's Sword in the pack"
    )
    assert describe(state, MinionMoved(figure="rat-warriors-1", origin="GR-2", path=("GR-4", "GR-5"))) == (
        "Rat Warrior 1 moves to Guard Room · space 5"
    )
    assert describe(state, SearchCardKept(mouse="filch", card="toothpick")) == "Filch keeps Toothpick"
    missed = AttackRolled(attacker="collin", target="rat-warriors-1", hits=0)
    assert describe(state, missed) == "Prince Collin scores 0 hits"
    assert (
        describe(state, AttackRolled(attacker="roaches-2", target="filch", hits=1)) == "Roach 2 scores 1 hit"
    )


def test_dice_read_by_their_symbols_and_the_move_number_printed_on_the_die():
    """docs/mice-and-mystics/facts.md §1: faces 2 and 4 both print the move number 2 (sword + star, bow);
    the log names the symbols, so the face is never ambiguous."""
    state = chapter_1_table()
    line = describe(state, DiceRolled(reason="move", faces=(4, 5, 4)))
    assert line == "Rolled bow · 2, bow + star · 1, bow · 2 for movement"
    assert [face_text(f) for f in range(1, 7)] == [
        "cheese · 1",
        "sword + star · 2",
        "sword/shield · 3",
        "bow · 2",
        "bow + star · 1",
        "sword/shield + star · 3",
    ]
    assert describe(state, DiceRolled(reason="grapes", faces=(2,))) == "Rolled 2 for the Grapes' throw"


def test_a_decision_names_what_was_chosen():
    state = chapter_1_table()
    made = DecisionMade(decision="starting-ability", option="first-aid", by="north")
    assert describe(state, made) == "Seat north chooses: First Aid (starting ability)"
    by_policy = DecisionMade(decision="starting-ability", option="backslash", by="policy")
    assert describe(state, by_policy) == "The default choice: Backslash (starting ability)"
    words = Words(library(), state.figures)
    assert words.thing("KT-5") == "Kitchen Tunnels · space 5"


def test_the_read_aloud_text_has_no_source_line():
    chapter = library().chapters["chapter-1"]
    line = describe(chapter_1_table(), ChapterStoryRead(part="opening", text=chapter.opening)) or ""
    assert line.startswith("Read aloud: Shrunk to mice") and "Paraphrase" not in line
    story = chapter.story_continues or ""
    line = describe(chapter_1_table(), ChapterStoryRead(part="story-continues", text=story)) or ""
    assert line.startswith("The story continues: At the dark root") and "Paraphrase" not in line


def test_no_log_line_of_a_whole_chapter_names_a_space_or_figure_by_its_id():
    """Every event of two whole chapters (server dice, random legal play) is described without a space id
    (``GR-5``), a minion figure id (``rat-warriors-1``), a ``hit(s)`` or a source line."""
    for seed in (1, 2):
        _game, records, _ = play_chapter(seed, limit=3_000)
        state = None
        for record in records:
            state = fold(state, [record])
            line = describe(state.state, record.payload)
            if line is None:
                continue
            assert not SPACE_ID.search(line), line
            assert not FIGURE_ID.search(line.replace("search card ", "")), line
            assert "(s)" not in line and "Paraphrase" not in line, line
