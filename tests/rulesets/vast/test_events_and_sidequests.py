"""Vast rulebook §Eventi and docs/vast/facts.md §2 Event cards; Vast rulebook §Missioni Secondarie and
docs/vast/facts.md §2 Sidequests (Flare: test_flare.py)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.rules.flow import play_event
from dicelog.domain.vast.state import KnightRole
from tests.rulesets.vast.support import Play, dark, table


def played(card: str, knight: KnightRole, *cells) -> Play:
    p = Play(table(*cells, knight=knight))
    p._take(play_event(p.state, card, ()))
    return p


def test_light_may_discard_a_cube_to_heal_2__vf_2_event_cards():
    p = played("light", KnightRole(grit=5, health=4))
    assert isinstance(p.pending, DecisionRequested) and p.pending.default == "discard-cube"
    p.choose("discard-cube")
    assert p.state.knight.health == 6 and p.state.knight.discarded == 1


def test_light_needs_a_cube_beyond_the_last_two__rulebook_consigli_rapidi_il_cavaliere():
    p = played("light", KnightRole(grit=0, health=4))
    assert p.pending is None and p.state.knight.health == 4


def test_fresh_air_spends_a_cube_until_next_turn_to_heal_1__vf_2_event_cards():
    p = played("fresh-air", KnightRole(health=5))
    p.choose("spend-cube")
    assert p.state.knight.health == 6 and p.state.knight.placed == {"spent": 1}


def test_cave_bread_gives_back_a_discarded_cube__vf_2_event_cards():
    p = played("cave-bread", KnightRole(grit=5, discarded=1))
    assert p.state.knight.discarded == 0


def test_rats_take_2_grit__vf_2_event_cards():
    assert played("rats-2", KnightRole(grit=7)).state.knight.grit == 5


def test_vantage_point_reveals_the_dark_tiles_around_her_for_grit__vf_2_event_cards():
    p = played("vantage-point", KnightRole(), dark(1, 1, "crystal-01"), dark(-1, -1, "treasure-room-01"))
    reveals = p.of(ev.EventPlayed)[0].reveals  # every Dark tile of the 8 around (0, 0), the seal's included
    assert (1, 1) in reveals and (-1, -1) in reveals and len(reveals) == 6
    from dicelog.domain.vast.rules.flow import advance

    p._take(advance(p.state))
    while p.pending is not None:
        if isinstance(p.pending, DecisionRequested):
            p.default()
        else:
            p.draw(p.pending.cards[0])
    assert all(c.lit for c in p.state.cells if (c.x, c.y) in reveals)
    assert p.state.knight.grit == 6  # +1 each, as normal reveals
    assert next(c for c in p.state.cells if (c.x, c.y) == (1, 1)).crystal


@pytest.mark.parametrize(
    "card,knight,state_kw,done",
    [
        ("swift", KnightRole(spaces=tuple((i, 0) for i in range(7))), {}, True),
        ("swift", KnightRole(spaces=tuple((i, 0) for i in range(6))), {}, False),
        ("adventurous", KnightRole(encounter_spaces=((1, 0), (2, 0), (3, 0))), {}, True),
        ("intrepid", KnightRole(), {"revealed": 10}, True),
        ("intrepid", KnightRole(), {"revealed": 9}, False),
        ("persistent", KnightRole(), {"smashed_total": 3}, True),
        ("bedecked", KnightRole(face_up=("elven-sword", "heroic-boots")), {}, True),
        ("cunning", KnightRole(tokens_taken=2), {}, True),
        ("stalwart", KnightRole(ambushes=2), {}, True),
        ("fearless", KnightRole(unhurt_ambushes=1), {}, True),
        ("fearless", KnightRole(ambushes=1), {}, False),
    ],
)
def test_a_fulfilled_sidequest_gives_its_grit_and_a_new_card__rulebook_missioni_secondarie(
    card, knight, state_kw, done
):
    state = replace(table(knight=replace(knight, sidequests=(card,))), sidequest_deck=("daring",), **state_kw)
    if not done:
        with pytest.raises(RuleBroken) as info:
            Play(state).do(cmd.CompleteSidequest(card=card))
        assert info.value.rule == "vast.sidequest.not-fulfilled"
        return
    p = Play(state)
    p.do(cmd.CompleteSidequest(card=card))
    from dicelog.domain.vast.content import cards

    assert p.state.knight.grit == cards()[card].grit and p.state.knight.completed == (card,)
    assert p.pending.deck == "sidequests" and p.pending.piece == "knight"
