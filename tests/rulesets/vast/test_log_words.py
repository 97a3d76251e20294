"""Vast log lines in players' words (issue 32, item 3 of "What to build"): a tile is named by what is printed
on it (its room on the Lit side, its Tribe symbol on the Dark side), never by its content id (``ambush-13``);
Omen tokens by their symbol, Power cards by suit and value, Monsters and Secrets by their printed names
(docs/vast/facts.md §1 Cave tiles and Tokens, §3 Monster and Secrets cards, §4 Power cards)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dicelog.domain.core.events import CardsDrawn, DiceRolled, GameEnded
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.content import goblin_file, tiles
from dicelog.domain.vast.read_models import describe
from dicelog.domain.vast.state import HIDDEN, POWER_CARDS
from tests.rulesets.vast.support import table

ROOM = {
    "ambush": "an Ambush tile",
    "event": "an Event tile",
    "treasure-room": "a Treasure Room tile",
    "crystal": "a Crystal tile",
    "vault": "a Vault tile",
    "entrance": "the Entrance",
}
TILE_IDS = sorted(tiles())
ID = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)+\b")
"""A content id as the events carry it: lower case words joined by dashes (``ambush-13``, ``flame-4``)."""
RULES = Path(__file__).resolve().parents[3] / "domain" / "vast"
CAUSE = re.compile(
    r'why="([a-z][a-z-]*)"'
    r'|(?:rage|grit_change|pride|forced_discards)\([^()]*(?:\([^()]*\)[^()]*)*,\s*"([a-z][a-z-]*)"'
    r'|"grit:\d+:([a-z-]+)"'
)
"""A cause word as the rules write it: ``why="spores"``, ``rage(1, "attacked")``,
``grit_change(s, -5, "hex")``, ``pride(s, "pride-gem", "gem")``, ``forced_discards(s, n, "bow")``, the step
``"grit:1:reveal"``."""


def cause_words() -> set[str]:
    """Every cause the rules give a ``GritChanged``, ``HealthChanged``, ``RageChanged``, ``PopulationLost``,
    ``SlothCubeMoved`` or ``PowerCardsDiscarded``: the ones written in the rules' source, and those that come
    from a name (Fresh Air and Fresh Water heal by their card's id), a default (``replace``) or a helper's
    argument (the Dragon's ``claw``)."""
    source = "\n".join(p.read_text() for p in sorted((RULES / "rules").glob("*.py")))
    source += (RULES / "evolve.py").read_text()
    found = {next(g for g in m.groups() if g) for m in CAUSE.finditer(source)}
    return found | {"fresh-air", "fresh-water", "replace", "claw"}


def tile_lines(tile: str, turn: str = "knight") -> list[str | None]:
    state = table(turn=turn)
    symbol = tiles()[tile].symbol or "fangs"
    return [
        describe(state, ev.DarkTilePlaced(x=1, y=0, tile=tile, symbol=symbol, by="cave")),
        describe(state, ev.TileRevealed(x=1, y=0, tile=tile, by=turn)),
        describe(state, ev.TileRevealed(x=1, y=0, tile=tile, by="thief", mode="thief")),
        describe(state, ev.TilePeeked(x=1, y=0, tile=tile)),
        describe(state, ev.TileRemoved(x=1, y=0, tile=tile, crystal_tile=False)),
        describe(state, ev.TileCollapsed(x=1, y=0, tile=tile, crystal_tile=False)),
    ]


@pytest.mark.parametrize("tile", TILE_IDS)
def test_every_tile_is_named_by_its_room_and_never_by_its_id(tile: str) -> None:
    lines = tile_lines(tile)
    assert all(lines)
    for line in lines:
        assert line is not None
        assert tile not in line and ROOM[tiles()[tile].kind] in line, line


def test_the_tile_lines_read_as_a_player_says_them() -> None:
    state = table(turn="dragon")
    placed = ev.DarkTilePlaced(x=-1, y=1, tile="ambush-13", symbol="eye", by="cave")
    assert describe(state, placed) == "The Cave places an Ambush tile Dark side up (Eye) at -1,1"
    hidden = ev.DarkTilePlaced(x=-1, y=1, tile=HIDDEN, symbol="bones", by="goblins")
    assert describe(state, hidden) == "The Goblins place a Dark tile (Bones) at -1,1"
    revealed = ev.TileRevealed(x=2, y=0, tile="treasure-room-02", by="dragon")
    assert describe(state, revealed) == "The Dragon reveals a Treasure Room tile at 2,0"
    by_goblins = describe(table(turn="goblins"), ev.TileRevealed(x=2, y=0, tile="crystal-04", by="goblins"))
    assert by_goblins == "The Goblins reveal a Crystal tile at 2,0"
    collapsed = ev.TileRemoved(x=0, y=-4, tile="event-03", crystal_tile=False)
    assert describe(state, collapsed) == "The tile at 0,-4 collapses (an Event tile)"
    resolved = ev.TileResolved(x=1, y=0, kind="ambush", step="")
    assert describe(state, resolved) == "The Ambush tile at 1,0 takes effect"
    ending = describe(state, ev.TurnEnding(role="goblins", steps=("place",)))
    assert ending == "No Cave player: the Goblins place a Dark tile"


def test_tokens_and_cards_are_named_as_printed() -> None:
    state = table()
    omens = CardsDrawn(reason="omens", deck="omens", cards=("bat-1", "mushroom-3", "chasm-6"))
    assert describe(state, omens) == "The Cave draws Omens: Bat, Mushroom, Chasm"
    used = ev.OmenUsed(omen="giant-bats", paid=("bat-2",))
    assert describe(state, used) == "The Cave uses the Omen Giant Bats (1 token)"
    assert describe(state, ev.OmenDiscarded(token="trail-4")) == "Hex: the Cave discards the Omen token Trail"
    power = ev.PowerUsed(power="flame-wall", cards=("flame-2", "flame-6"), gems=("flame",))
    assert describe(state, power) == "The Dragon uses Flame Wall (Flame 2, Flame 6, the Flame Gem)"
    monster = ev.MonsterAssigned(card="bright-beetles", tribe="fangs")
    assert describe(state, monster) == "The Fangs Tribe gets the Monster Bright Beetles"
    secret = ev.SecretPlayed(card="hiding-spots", tribe="bones")
    assert describe(state, secret) == "The Goblins play the Secret Hiding Spots on the Bones Tribe"


def test_no_line_about_a_tile_token_or_card_shows_a_content_id() -> None:
    """Every tile, Omen token, Power, Monster and Secrets card through the lines that name one."""
    state = table()
    omens = {f"{s}-{n}" for s in ("bat", "boulder", "quartz", "mushroom") for n in (1, 6)}
    ids = {*TILE_IDS, *POWER_CARDS, *omens}
    ids |= {m.id for m in goblin_file().monsters} | {c.id for c in goblin_file().secrets}
    lines = [line for tile in TILE_IDS for line in tile_lines(tile, "dragon")]
    lines += [describe(state, ev.PowerUsed(power="claw", cards=(card,))) for card in POWER_CARDS]
    lines += [describe(state, ev.MonsterAssigned(card=m.id, tribe="eye")) for m in goblin_file().monsters]
    lines += [describe(state, ev.SecretPlayed(card=c.id)) for c in goblin_file().secrets]
    lines.append(describe(state, CardsDrawn(reason="omens", deck="omens", cards=("boulder-6", "quartz-1"))))
    assert len(lines) > 300
    for line in lines:
        assert line is not None
        assert not set(ID.findall(line)) & ids, line


def test_no_line_shows_a_cause_as_its_lowercase_word() -> None:
    """Every cause the rules give, through every line that names one: by its printed name (Soporific
    Spores, Hex, Blob, Flame Wall) or in words (a tile revealed), never ``(spores)``, ``(hex)``."""
    state = table()
    causes = cause_words()
    assert len(causes) > 35 and {"spores", "hex", "movement", "replace"} <= causes
    for why in sorted(causes):
        lines = [
            describe(state, ev.GritChanged(delta=-1, why=why)),
            describe(state, ev.GritChanged(delta=0, why=why)),
            describe(state, ev.HealthChanged(delta=-1, why=why)),
            describe(state, ev.RageChanged(delta=1, why=why)),
            describe(state, ev.PopulationLost(tribe="eye", count=1, why=why)),
            describe(state, ev.SlothCubeMoved(source="greed", target="wakefulness", why=why)),
            describe(state, ev.PowerCardsDiscarded(cards=("flame-2",), why=why)),
        ]
        for line in lines:
            assert line is not None
            raw = re.search(rf"\((?:{re.escape(why)}|{re.escape(why.replace('-', ' '))})\)", line)
            assert raw is None and why not in ID.findall(line), line


def test_tracks_and_causes_are_named_in_words() -> None:
    state = table()
    sloth = describe(state, ev.SlothCubeMoved(source="pride-events", target="wakefulness", why="event-tile"))
    assert sloth is not None and sloth.startswith(
        "A Sloth cube moves from Pride (Events) to Wakefulness (an Event tile)"
    )
    healed = describe(state, ev.HealthChanged(delta=1, why="fresh-water"))
    assert healed is not None and healed.startswith("The Knight heals 1 Health (Fresh Water)")
    lost = describe(state, ev.GritChanged(delta=-1, why="rats"))
    assert lost is not None and lost.startswith("The Knight loses 1 Grit (Rats)")
    spores = describe(state, ev.GritChanged(delta=-5, why="spores"))
    assert spores is not None and spores.startswith("The Knight loses 5 Grit (Soporific Spores)")
    hexed = describe(state, ev.PowerCardsDiscarded(cards=("flame-2",), why="hex"))
    assert hexed == "The Dragon discards 1 Power card(s) (Hex)"
    moved = describe(state, ev.PopulationLost(tribe="fangs", count=1, why="movement"))
    assert moved == "The Fangs Tribe loses 1 (Lit tiles crossed)"


def test_dragon_die_rolls_and_the_end_are_told_in_words() -> None:
    """A Dragon die roll names what it is for and the face as the table labels it; the end names the
    winner (Vast rulebook, Il Dado del Drago; Vittoria), never a raw reason or result (``flare:-2,0``,
    ``won:goblins``)."""
    state = table()

    def rolled(reason: str, face: int) -> str | None:
        return describe(state, DiceRolled(reason=reason, faces=(face,)))

    assert rolled("flare:-2,0", 1) == "Dragon die (the Flare at -2,0): centre"
    assert rolled("goblin-flare:1,1", 6) == "Dragon die (the Goblins' Flare at 1,1): all around"
    assert rolled("power:wrath:0,2", 3) == "Dragon die (Wrath at 0,2): cross"
    assert rolled("gem:knight:fire:1,0", 5) == "Dragon die (the Fire Gem's trap at 1,0): saltire"
    assert (
        rolled("dragon-attack:3:1", 2)
        == "Dragon die (an attack on the Dragon at Strength 3 with a Bomb): diamond"
    )
    assert rolled("ambush:reroll", 4) == "Dragon die (an ambush, rolled again): corners"
    assert describe(state, GameEnded(result="won:goblins", seed="00ff")) == (
        "The game ends: the Goblins win; dice seed revealed: 00ff"
    )
    assert describe(state, GameEnded(result="won:knight")) == "The game ends: the Knight wins"
    assert describe(state, GameEnded(result="lost:everyone")) == "The game ends: everyone loses"
    won = describe(state, ev.GameWon(winner="goblins", reason="the Tribes smashed 5 Crystals"))
    assert won == "The Goblins win: the Tribes smashed 5 Crystals"
