"""Vast rules revision 7: a Tribe's right to enter the Knight's or the surfaced Dragon's tile, and to pass
through the Dragon's, is checked with the Strength it has as it enters that tile, the discs it lost on the way
gone. Vast rulebook, I Goblin, 5. Attiva le Tribù: «una Tribù perde 1 disco Goblin ogni due tessere
Illuminate che percorre nello stesso turno, anche non consecutive (rimuovi il disco quando la Tribù lascia la
seconda tessera)»; §Attaccare: «Per entrare in una tessera occupata dal Cavaliere o dal Drago, la Tribù deve
avere Forza maggiore della Forza del Cavaliere o della Corazza del Drago». Games created before revision 7
keep the Strength the Tribe had as its move began (docs/vast/index.md, Rules revisions), so each test plays
the same table at revision 6 too; the legal commands (what bots and the web table offer) follow ``decide``
at both. Dice and cards are explicit."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules import goblins as rules
from dicelog.domain.vast.rules.common import dragon_armor
from dicelog.domain.vast.ruleset import RULES_REVISION, RULESET
from dicelog.domain.vast.state import DragonRole, GoblinsRole, KnightRole
from tests.rulesets.vast.support import Play, dark, goblin_table, lit, refused, tribes
from tests.rulesets.vast.test_dragon import HAND, OPEN, dragon_table
from tests.rulesets.vast.test_rules_revision_6 import rev


def legal(state) -> list:
    return RULESET.legal_commands(state)


def test_new_games_are_played_by_revision_7_or_later():
    assert RULES_REVISION >= 7


# --- the Knight's tile ---------------------------------------------------------------------------


def knight_table(*, population: int = 2, lit_way: bool = True):
    """The Bones (no Fangs' disc, Rage 1: no Malaise) on (1, 0), one straight row east over (2, 0) to the
    Knight on (3, 0), Strength 1 off her turn (the open edges left open: no way round). With ``lit_way`` the
    Tribe leaves two Lit tiles, (1, 0) and (2, 0), on the way: one disc lost as it leaves the second, before
    it enters her tile."""
    way = lit if lit_way else (lambda x, y, tile: dark(x, y, tile, symbol="bones"))
    gob = GoblinsRole(phase="activate", tribes=tribes(bones={"population": population, "x": 1, "y": 0}))
    cells = (way(1, 0, OPEN), way(2, 0, "treasure-room-02"), lit(3, 0, "treasure-room-03"))
    return goblin_table(*cells, gob=gob, knight=KnightRole(x=3, y=0), sealed=False, begun=True)


ATTACK = cmd.ActivateTribe(tribe="bones", action="attack", x=3, y=0)


def test_a_tribe_that_loses_a_disc_on_the_way_enters_the_knights_tile_only_if_still_stronger__i_goblin_5():
    """Vast rulebook, I Goblin, 5. Attiva le Tribù: «rimuovi il disco quando la Tribù lascia la seconda
    tessera»; §Attaccare: «la Tribù deve avere Forza maggiore della Forza del Cavaliere». A Tribe of Strength
    2 leaves its second Lit tile, loses a disc and is Strength 1 at her tile: she has Strength 1, so it cannot
    enter. At revision 6 it entered, and attacked her at Strength 1 against her 1 (as a bot game logged)."""
    state = knight_table()
    bones = state.goblins.tribes[1]
    assert rules.tribe_strength(state, bones) == 2 and rules.knight_strength_off_turn(state) == 1
    assert rules.paths(rev(state, 7), bones)[(3, 0)] == 2  # two Lit tiles left on the way
    assert rules.entry_strength(rev(state, 7), bones, 2) == 1
    assert refused(rev(state, 7), ATTACK) == "vast.goblins.too-weak"
    assert ATTACK not in legal(rev(state, 7))
    old = Play(rev(state, 6))  # revision 6: the Strength as the move began
    assert ATTACK in legal(old.state)
    old.do(ATTACK)
    assert old.of(ev.TribeAttackedKnight) == [
        ev.TribeAttackedKnight(tribe="bones", strength=1, knight_strength=1, ambush=False)
    ]
    assert old.state.knight.health == 6


def test_a_tribe_still_stronger_after_its_losses_or_losing_none_enters_the_knights_tile__i_goblin_5():
    """Vast rulebook, I Goblin, §Attaccare: a Tribe of Strength 3 that loses a disc on the way is Strength 2
    at her tile, above her 1; a Tribe of Strength 2 that leaves only Dark tiles loses none (§5: «ogni due
    tessere Illuminate»). Both enter and attack her."""
    for state in (knight_table(population=3), knight_table(lit_way=False)):
        p = Play(rev(state, 7))
        assert ATTACK in legal(p.state)
        p.do(ATTACK)
        (attack,) = p.of(ev.TribeAttackedKnight)
        assert attack.strength == 2 and attack.knight_strength == 1 and p.state.knight.health == 6


def test_a_tribe_may_still_stop_short_of_the_knights_tile_after_losing_a_disc__i_goblin_5():
    """Vast rulebook, I Goblin, 5. Attiva le Tribù: the move itself is any distance; only her tile asks for
    Strength. The Tribe that cannot enter her tile still moves next to it."""
    p = Play(rev(knight_table(), 7))
    p.do(cmd.ActivateTribe(tribe="bones", action="none", x=2, y=0))
    assert p.state.goblins.tribes[1].x == 2


# --- the surfaced Dragon's tile ------------------------------------------------------------------


def surfaced_table(*, population: int = 2):
    """The Bones of Strength ``population`` on (1, 0), a straight way east over the Lit (2, 0) to the surfaced
    Dragon on (3, 0) (Armor 1: no Sloth cube on Wakefulness), and (4, 0) beyond it; the open edges left open,
    the only way there passes through the Dragon's tile."""
    gob = GoblinsRole(phase="activate", tribes=tribes(bones={"population": population, "x": 1, "y": 0}))
    cells = tuple(lit(x, 0, OPEN) for x in range(1, 5))
    d = DragonRole(x=3, y=0, hand=HAND, awake=True, surfaced=True)
    return dragon_table(
        *cells, turn="goblins", gob=gob, dragon=d, knight=KnightRole(x=0, y=0), sealed=False, begun=True
    )


ENTER = cmd.ActivateTribe(tribe="bones", action="none", x=3, y=0)
THROUGH = cmd.ActivateTribe(tribe="bones", action="none", x=4, y=0)


def test_a_tribe_that_loses_a_disc_on_the_way_enters_the_surfaced_dragons_tile_only_above_its_armor():
    """Vast rulebook, I Goblin, 5. Attiva le Tribù: «rimuovi il disco quando la Tribù lascia la seconda
    tessera»; §Attaccare: «la Tribù deve avere Forza maggiore della ... Corazza del Drago». Strength 2 as it
    sets out, 1 as it enters the Dragon's tile after leaving two Lit tiles: not above Armor 1."""
    state = surfaced_table()
    bones = state.goblins.tribes[1]
    assert rules.tribe_strength(state, bones) == 2 and dragon_armor(state) == 1
    assert refused(rev(state, 7), ENTER) == "vast.goblins.too-weak"
    assert ENTER not in legal(rev(state, 7))
    old = Play(rev(state, 6))
    assert ENTER in legal(old.state)
    old.do(ENTER)
    assert (old.state.goblins.tribes[1].x, old.state.goblins.tribes[1].population) == (3, 1)
    strong = Play(rev(surfaced_table(population=3), 7))  # Strength 2 as it enters: above Armor 1
    assert ENTER in legal(strong.state)
    strong.do(ENTER)
    assert strong.state.goblins.tribes[1].x == 3


def test_a_tribe_passes_through_the_surfaced_dragons_tile_only_with_the_strength_to_enter_it_then():
    """Vast rulebook, I Goblin, §Attaccare (every tile passed through is entered) and 5. Attiva le Tribù
    («rimuovi il disco quando la Tribù lascia la seconda tessera»): the Tribe that is Strength 1 when it
    reaches the Dragon's tile cannot pass it; at revision 6 its Strength 2 as it set out let it through."""
    state = surfaced_table()
    bones = state.goblins.tribes[1]
    assert (4, 0) not in rules.paths(rev(state, 7), bones)
    assert refused(rev(state, 7), THROUGH) == "vast.goblins.unreachable"
    assert THROUGH not in legal(rev(state, 7))
    assert rules.paths(rev(state, 6), bones)[(4, 0)] == 3
    old = Play(rev(state, 6))
    assert THROUGH in legal(old.state)
    old.do(THROUGH)
    assert old.state.goblins.tribes[1].x == 4
    strong = Play(rev(surfaced_table(population=3), 7))
    assert THROUGH in legal(strong.state)
    strong.do(THROUGH)
    assert (strong.state.goblins.tribes[1].x, strong.state.goblins.tribes[1].population) == (4, 2)


def test_a_disc_lost_earlier_this_turn_counts_toward_the_strength_at_the_dragons_tile():
    """Vast rulebook, I Goblin, 5. Attiva le Tribù: the Lit tiles count «nello stesso turno, anche non
    consecutive». A Tribe that has left one Lit tile this turn already loses its disc leaving its first on
    this move, so it is Strength 1 as it enters the Dragon's tile next door."""
    state = surfaced_table()
    gob = replace(state.goblins, tribes=tribes(bones={"population": 2, "x": 2, "y": 0, "lit_left": 1}))
    state = replace(state, goblins=gob)
    assert refused(rev(state, 7), ENTER) == "vast.goblins.too-weak"
    Play(rev(state, 6)).do(ENTER)


# --- a new game laid on the sandbox ----------------------------------------------------------------


def test_a_new_game_laid_on_the_sandbox_plays_revision_7_or_later():
    """A game created now (``POST /games`` stamps ``RULES_REVISION``) on a sandbox table: the Tribe that is
    Strength 1 at the Knight's tile after leaving two Lit tiles cannot enter it (Vast rulebook, I Goblin, 5.
    Attiva le Tribù; §Attaccare)."""
    sandbox = {
        "cells": [
            {"x": 0, "y": 0, "tile": "entrance"},
            {"x": 1, "y": 0, "tile": "treasure-room-01", "lit": True},
            {"x": 2, "y": 0, "tile": "treasure-room-02", "lit": True},
            {"x": 3, "y": 0, "tile": "treasure-room-03", "lit": True},
        ],
        "knight": {"x": 3, "y": 0},
        "goblins": {
            "tribes": [{"name": "bones", "population": 2, "x": 1, "y": 0}],
            "phase": "activate",
            "war": "consumption",
        },
        "turn": "goblins",
        "fill_open_edges": False,
    }
    roles = ("knight", "goblins", "cave")
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"roles": roles, "sandbox": sandbox})),
        seats=tuple(Seat(name=r, controls=(r,)) for r in roles),
        rules_revision=RULES_REVISION,
    )
    RULESET.check_new_game(created)
    p = Play(RULESET.initial_state(created))
    p.do(Begin())
    p.settle()
    assert p.state.rules_revision == RULES_REVISION >= 7 and p.state.turn == "goblins"
    assert refused(p.state, ATTACK) == "vast.goblins.too-weak"
    assert ATTACK not in legal(p.state)
    assert cmd.ActivateTribe(tribe="bones", action="none", x=2, y=0) in legal(p.state)


# --- a lurking Tribe stepping onto the surfaced Dragon's tile (issue 31) ---------------------------


def lurking_dragon_table(*, population: int):
    """The Bones (no Fangs' disc, Rage 1: no Malaise) of Strength ``population`` lurking on the empty space
    (2, 0), east of the surfaced Dragon on the Lit (1, 0) (Armor 1: no Sloth cube on Wakefulness); the Knight
    on the Entrance (0, 0); the open edges left open."""
    gob = GoblinsRole(
        phase="activate", tribes=tribes(bones={"population": population, "x": 2, "y": 0, "lurking": True})
    )
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True)
    knight = KnightRole(x=0, y=0)
    return dragon_table(
        lit(1, 0, OPEN), turn="goblins", gob=gob, dragon=d, knight=knight, sealed=False, begun=True
    )


STEP_ONTO_DRAGON = cmd.ActivateTribe(tribe="bones", action="none", x=1, y=0)


def test_a_lurking_tribe_steps_onto_the_surfaced_dragons_tile_only_above_its_armor__i_goblin_attaccare():
    """Vast rulebook, I Goblin, Disperdere la Tribù: «Se muovi una Tribù in agguato, puoi solo spostarla dallo
    spazio in cui si trova ad una tessera adiacente a tua scelta»; §Attaccare: «Per entrare in una tessera
    occupata dal Cavaliere o dal Drago, la Tribù deve avere Forza maggiore della Forza del Cavaliere o della
    Corazza del Drago». A lurking Tribe of Strength 1 cannot step onto the tile of the surfaced Dragon of
    Armor 1 (``vast.goblins.too-weak``), nor is it offered; of Strength 2 it can, and stops there."""
    weak = rev(lurking_dragon_table(population=1), 7)
    bones = weak.goblins.tribes[1]
    assert bones.lurking and rules.tribe_strength(weak, bones) == 1 and dragon_armor(weak) == 1
    assert refused(weak, STEP_ONTO_DRAGON) == "vast.goblins.too-weak"
    assert STEP_ONTO_DRAGON not in legal(weak)
    assert cmd.ActivateTribe(tribe="bones", action="hide") in legal(weak)  # it may still hide
    strong = Play(rev(lurking_dragon_table(population=2), 7))
    assert STEP_ONTO_DRAGON in legal(strong.state)
    strong.do(STEP_ONTO_DRAGON)
    assert ev.TribeMoved(tribe="bones", x=1, y=0) in strong.events
    moved = strong.state.goblins.tribes[1]
    assert (moved.x, moved.y, moved.lurking, moved.population) == (1, 0, False, 2)


def test_before_revision_7_a_lurking_tribe_steps_onto_the_surfaced_dragons_tile_at_any_strength():
    """Games of rules revision 6 and earlier keep what they were played by (docs/vast/index.md, Rules
    revisions): the lurking Tribe of Strength 1 stepped onto the tile of the Dragon of Armor 1, so a stored
    game that did so still verifies."""
    old = Play(rev(lurking_dragon_table(population=1), 6))
    assert STEP_ONTO_DRAGON in legal(old.state)
    old.do(STEP_ONTO_DRAGON)
    assert ev.TribeMoved(tribe="bones", x=1, y=0) in old.events
    assert (old.state.goblins.tribes[1].x, old.state.goblins.tribes[1].y) == (1, 0)
