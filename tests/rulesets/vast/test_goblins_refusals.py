"""The Goblins' turn refuses what the rulebook does not allow, naming the rule, with nothing stored (Vast
rulebook, I Goblin: 4. Pesca le Carte Segreti, 5. Attiva le Tribù, Esplorare, Riepilogo del Turno;
docs/vast/facts.md §3 Secrets and Monster cards). Knight, Goblins and Cave tables on the Goblins' turn."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.state import CaveRole, GoblinsRole
from tests.rulesets.vast.support import dark, goblin_table, lit, refused, tribes

OPEN = "treasure-room-01"


def gob_table(phase: str = "activate", hand: tuple[str, ...] = (), cave_hand=("ambush-01",), **tribe_fields):
    """The Entrance, a Lit tile (1, 0) and a Dark Fangs tile (2, 0) with the Fangs revealed on it (3
    Goblins) unless ``tribe_fields`` say otherwise; the Goblins in ``phase`` holding ``hand``."""
    fangs = {"population": 3, "x": 2, "y": 0, **tribe_fields}
    gob = GoblinsRole(phase=phase, hand=hand, tribes=tribes(fangs=fangs, bones={"population": 2}))
    state = goblin_table(lit(1, 0, OPEN), dark(2, 0, "ambush-02", "fangs"), gob=gob)
    return replace(state, cave=CaveRole(hand=cave_hand))


def test_tribes_act_only_in_the_activation_phase_and_once_a_turn__rulebook_i_goblin_attiva_le_tribu():
    """Vast rulebook, I Goblin, 5. Attiva le Tribù: each Tribe once, in the activation phase; earlier it is
    refused (``vast.goblins.not-activating``), as is a Tribe that has acted (``vast.goblins.activated``);
    the Wisp too acts only then (docs/vast/facts.md §3 Wisp: ``vast.goblins.wisp``)."""
    early = gob_table(phase="secrets")
    assert refused(early, cmd.ActivateTribe(tribe="fangs", action="none")) == "vast.goblins.not-activating"
    assert refused(early, cmd.WispMove(tribe="fangs", x=1, y=0)) == "vast.goblins.wisp"
    acted = gob_table(activated=True)
    assert refused(acted, cmd.ActivateTribe(tribe="fangs", action="none")) == "vast.goblins.activated"


def test_the_wisp_moves_the_knight_only_for_the_tribe_holding_it__docs_vast_facts_wisp():
    """docs/vast/facts.md §3 Monster cards, Wisp: the revealed Tribe holding it moves the Knight; a Tribe
    without it is refused (``vast.goblins.wisp``)."""
    assert refused(gob_table(), cmd.WispMove(tribe="fangs", x=1, y=0)) == "vast.goblins.wisp"


def test_the_goblins_turn_ends_after_the_activation_phase__rulebook_i_goblin_riepilogo_del_turno():
    """Vast rulebook, I Goblin, Riepilogo del Turno: the turn ends after the activation phase; ending it
    before is refused (``vast.goblins.not-activating``)."""
    assert (
        refused(gob_table(phase="secrets"), cmd.VastEndTurn(role="goblins")) == "vast.goblins.not-activating"
    )


@pytest.mark.parametrize(
    "command, cave_hand",
    [
        (cmd.ActivateTribe(tribe="fangs", action="explore"), ("ambush-01",)),  # no empty space named
        (cmd.ActivateTribe(tribe="fangs", action="explore", ex=2, ey=1), ()),  # the Cave has no tile
    ],
)
def test_exploring_names_an_empty_space_and_takes_a_tile_of_the_caves_hand__rulebook_i_goblin_esplorare(
    command, cave_hand
):
    """Vast rulebook, I Goblin, Esplorare: from a Dark tile, the Cave places a tile of its hand on the empty
    space next to it the Goblins name; without the space named, or with no tile in the Cave's hand, it is
    refused (``vast.goblins.explore``)."""
    state = gob_table(cave_hand=cave_hand)
    if command.ex is not None:  # the space south of the Fangs' tile is empty
        state = replace(state, cells=tuple(c for c in state.cells if (c.x, c.y) != (2, 1)))
    assert refused(state, command) == "vast.goblins.explore"


@pytest.mark.parametrize(
    "command, rule",
    [
        (cmd.PlaySecret(card="trap"), "vast.secret.not-in-hand"),
        (cmd.PlaySecret(card="fire-bomber"), "vast.secret.tribe"),
        (cmd.PlaySecret(card="hiding-spots"), "vast.secret.tribe"),
    ],
)
def test_a_secrets_card_is_played_from_the_hand_on_the_tribe_it_names__rulebook_i_goblin_carte_segreti(
    command, rule
):
    """Vast rulebook, I Goblin, 4. Pesca le Carte Segreti; docs/vast/facts.md §3 Secrets cards: a card of the
    Goblins' hand; Fire Bomber and Hiding Spots name their Tribe."""
    state = replace(gob_table(hand=("fire-bomber", "hiding-spots")), rules_revision=3)
    assert refused(state, command) == rule
