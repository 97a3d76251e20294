"""The Goblins' Secrets hand on ``/initiative`` (Vast rulebook §I Goblin): the Goblins read their cards, every
other reader as many face-down cards; once the game has ended everything is public (the core's
``Lens(reveal=True)``, docs/who-sees-what.md), so every reader reads them, as the other roles' hands."""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.visibility import Lens, Viewer
from dicelog.domain.vast.read_models import initiative_view
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import DragonRole, GoblinsRole
from tests.rulesets.vast.support import goblin_table

HAND = ("hex", "leader", "trap")
GOBLINS = Viewer(kind="seat", seat="horde", pieces=frozenset({"goblins"}))
KNIGHT = Viewer(kind="seat", seat="sir", pieces=frozenset({"knight"}))
SPECTATOR = Viewer(kind="spectator")


def _table():
    state = goblin_table(gob=GoblinsRole(phase="activate", hand=HAND))
    return replace(state, roles=(*state.roles, "dragon"), dragon=DragonRole(hand=("claw", "swat")))


def test_the_goblins_read_their_secrets_and_the_others_as_many_face_down_cards() -> None:
    state = _table()
    for viewer, seen in ((GOBLINS, HAND), (KNIGHT, ("?",) * 3), (SPECTATOR, ("?",) * 3)):
        track = initiative_view(Lens(RULESET, viewer).state(state)).goblins
        assert track is not None
        assert (track.hand, track.secrets) == (3, seen), viewer


def test_at_the_end_every_reader_reads_the_secrets_hand_as_the_dragons_power_hand() -> None:
    state = replace(_table(), phase="ended", winner="goblins")
    for viewer in (KNIGHT, SPECTATOR):
        hidden = initiative_view(Lens(RULESET, viewer).state(state))
        assert hidden.goblins is not None and hidden.dragon is not None
        assert hidden.goblins.secrets == ("?",) * 3 and hidden.dragon.hand == ("?", "?")  # a running game
        shown = initiative_view(Lens(RULESET, viewer, reveal=True).state(state))
        assert shown.goblins is not None and shown.dragon is not None
        assert shown.goblins.secrets == HAND and shown.dragon.hand == ("claw", "swat"), viewer
