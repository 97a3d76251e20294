"""The content a game plays with travels with the game (docs/event-model.md, Stored names are forever:
"content a game was created with travels with the game (never through process-global state)").

Rules read the library of the game's own state (``packs.library_of``); pack libraries are kept
in a bounded cache keyed by the pack's digest, and derived values (graph edges, line of sight)
live with their library. Here a content pack turns the Guard Room's GR-6 | GR-7 border red and
puts a black area between GR-7 and GR-8, so a mouse on GR-6 can neither step to GR-7 nor see GR-8.
"""

from __future__ import annotations

import ast
import gc
import json
import uuid
from importlib.resources import files
from pathlib import Path

import msgspec
import pytest

from dicelog.domain.core.commands import Roll, Shuffle
from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.game import GameSnapshot, create, fold
from dicelog.domain.mice_and_mystics import content, packs
from dicelog.domain.mice_and_mystics.commands import Move, MoveTo
from dicelog.domain.mice_and_mystics.content import shipped_library
from dicelog.domain.mice_and_mystics.events import MouseMoved
from dicelog.domain.mice_and_mystics.packs import MAX_PACK_BYTES, PackTooLarge, library_of
from dicelog.domain.mice_and_mystics.rules.graph import mouse_neighbours
from dicelog.domain.mice_and_mystics.rules.sight import sees
from dicelog.domain.mice_and_mystics.ruleset import RULESET
from dicelog.domain.mice_and_mystics.state import State
from tests.unit.mice_and_mystics.scenario import AT, PARTY, Table, created, of_type

TRACK = ("collin", "tilda", "filch", "maginos", "rat-warriors")


def shipped_document(name: str) -> dict:
    return json.loads(files("dicelog.domain.mice_and_mystics").joinpath(f"content/{name}").read_text())


def walled_guard_room(reason: str | None = None) -> dict:
    """The Guard Room with GR-6 | GR-7 a red line and a thin black area between GR-7 and GR-8 (x = 3)."""
    tile = shipped_document("tile-05-guard-room.json")
    for edge in tile["edges"]:
        if {edge["a"], edge["b"]} == {"GR-6", "GR-7"}:
            edge["line"] = "red"
    corners = [[2.9, 1.1], [3.1, 1.1], [3.1, 1.9], [2.9, 1.9]]
    tile["walls"] = [{"a": corners[i], "b": corners[(i + 1) % 4]} for i in range(4)]
    if reason is not None:
        tile["provisional"], tile["provisional_reason"] = True, reason
    return tile


def walled_pack(reason: str | None = None) -> dict:
    return {"tile-05-guard-room.json": walled_guard_room(reason)}


def collin_to_gr7(content_pack: dict | None) -> list:
    """Chapter 1, Collin's turn: he rolls 3 movement and walks GR-6 -> GR-7 (the events, or the refusal)."""
    table = Table(content_pack=content_pack)
    table.play(Shuffle(order=TRACK))
    table.play(Move(mouse="collin"))
    table.play(Roll(faces=(1,)))
    return table.play(MoveTo(mouse="collin", path=("GR-7",)))


def plain_game_walks_gr6_to_gr7() -> None:
    moved = MouseMoved(mouse="collin", origin="GR-6", path=("GR-7",), cost=1)
    assert of_type(collin_to_gr7(None), MouseMoved) == [moved]


def pack_game_is_refused_gr6_to_gr7() -> None:
    with pytest.raises(RuleBroken, match="move.not-adjacent") as refused:
        collin_to_gr7(walled_pack())
    assert "Linee Rosse" in refused.value.section


def test_a_pack_game_then_a_plain_game_in_one_process_each_plays_its_own_board():
    pack_game_is_refused_gr6_to_gr7()
    plain_game_walks_gr6_to_gr7()


def test_a_plain_game_then_a_pack_game_in_one_process_each_plays_its_own_board():
    plain_game_walks_gr6_to_gr7()
    pack_game_is_refused_gr6_to_gr7()
    plain_game_walks_gr6_to_gr7()


def test_graph_and_sight_are_read_from_the_library_of_each_game_in_any_order():
    plain = RULESET.initial_state(created())
    walled = RULESET.initial_state(created(content_pack=walled_pack()))
    for first, second in ((plain, walled), (walled, plain), (plain, walled)):
        for state in (first, second):
            lib = library_of(state)
            steps = dict(mouse_neighbours(lib, "GR-6"))
            if state is walled:
                assert "GR-7" not in steps and not sees(lib, "GR-6", "GR-8")
            else:
                assert steps["GR-7"] == 1 and sees(lib, "GR-6", "GR-8")
    assert library_of(plain) is shipped_library() and library_of(walled) is not shipped_library()


def test_a_pack_game_replays_from_its_own_events_after_its_library_left_the_cache():
    table = Table(content_pack=walled_pack())
    table.play(Shuffle(order=TRACK))
    content.PACK_LIBRARIES.clear()
    replayed = fold(None, table.records)
    assert replayed.state == table.state
    assert "GR-7" not in dict(mouse_neighbours(library_of(replayed.state), "GR-6"))


def test_a_snapshot_of_a_pack_game_restores_it_with_its_content():
    table = Table(content_pack=walled_pack())
    table.play(Shuffle(order=TRACK))
    stored = msgspec.json.encode(GameSnapshot.take(table.game))
    content.PACK_LIBRARIES.clear()
    restored = msgspec.json.decode(stored, type=GameSnapshot).restore()
    assert restored.state == table.state
    assert not sees(library_of(restored.state), "GR-6", "GR-8")


def test_the_state_encodes_its_pack_as_earlier_releases_did_and_decodes_their_snapshots():
    """Earlier releases kept the pack documents as decoded JSON in the state: the same bytes."""
    pack = walled_pack()
    state = RULESET.initial_state(created(content_pack=pack))
    assert all(isinstance(doc, msgspec.Raw) for doc in state.content_pack.values())
    earlier = msgspec.json.encode(msgspec.structs.replace(state, content_pack=pack))
    assert msgspec.json.encode(state) == earlier
    decoded = msgspec.json.decode(earlier, type=State)
    assert decoded == state and msgspec.json.encode(decoded) == earlier
    assert state.content_pack_digest == packs.pack_digest(pack)


def test_pack_libraries_are_bounded_after_20_distinct_packs():
    content.PACK_LIBRARIES.clear()
    mice = shipped_document("mice.json")
    states = []
    for n in range(20):
        for mouse in mice["mice"]:
            if mouse["id"] == "filch":
                mouse["name"] = f"Filch {n}"
        states.append(RULESET.initial_state(created(content_pack={"mice.json": mice})))
        assert len(content.PACK_LIBRARIES) <= content.PACK_LIBRARIES_KEPT
    assert len({s.content_pack_digest for s in states}) == 20
    assert len(content.PACK_LIBRARIES) == content.PACK_LIBRARIES_KEPT
    # an evicted game still reads its own content (rebuilt from its state's pack)
    assert states[0].content_pack_digest not in content.PACK_LIBRARIES
    assert library_of(states[0]).mice["filch"].name == "Filch 0"
    assert library_of(states[19]).mice["filch"].name == "Filch 19"


def test_an_oversize_content_pack_is_refused_with_413():
    reason = "x" * MAX_PACK_BYTES
    with pytest.raises(PackTooLarge) as refused:
        packs.pack_library(walled_pack(reason))
    assert refused.value.status == 413 and refused.value.rule == "setup.content-pack-too-large"
    assert isinstance(refused.value, RuleBroken)
    with pytest.raises(PackTooLarge):
        RULESET.initial_state(created(content_pack=walled_pack(reason)))


def test_a_pack_of_exactly_the_cap_is_accepted():
    bare = len(packs.canonical(walled_pack("")))
    pack = walled_pack("x" * (MAX_PACK_BYTES - bare))
    assert len(packs.canonical(pack)) == MAX_PACK_BYTES
    assert RULESET.initial_state(created(content_pack=pack)).content_pack_digest == packs.pack_digest(pack)


def _rss_bytes() -> int:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    pytest.skip("no /proc/self/status VmRSS")


def _created_like_the_service(content_pack: dict) -> GameCreated:
    setup = msgspec.json.encode({"chapter": "chapter-1", "mice": list(PARTY), "content_pack": content_pack})
    seats = (Seat(name="north", controls=PARTY[:2]), Seat(name="south", controls=PARTY[2:]))
    return GameCreated(ruleset="mice-and-mystics", setup=msgspec.Raw(setup), seats=seats, dice_mode="manual")


def padded_pack(n: int) -> dict:
    """The walled Guard Room whose provisional reason pads the pack to just under the cap."""
    bare = len(packs.canonical(walled_pack("")))
    return walled_pack((f"{n}" * MAX_PACK_BYTES)[: MAX_PACK_BYTES - bare - 64])


def crowded_pack(n: int) -> dict:
    """The walled Guard Room and ~3,000 extra mice: a pack just under the cap made of many records."""
    mice = shipped_document("mice.json")
    pack = {**walled_pack(), "mice.json": mice}

    def extra(i: int) -> dict:
        return {**mice["mice"][0], "id": f"extra-{n}-{i:05d}", "name": f"Extra mouse {i:05d}"}

    count = (MAX_PACK_BYTES - len(packs.canonical(pack)) - 64) // (len(msgspec.json.encode(extra(0))) + 1)
    mice["mice"] += [extra(i) for i in range(count)]
    return pack


@pytest.mark.parametrize("make_pack", [padded_pack, crowded_pack])
def test_eight_games_with_packs_just_under_the_cap_cost_less_than_64_mb_and_a_4_mb_pack_is_refused(make_pack):
    """Eight live games, each with its own pack just under 1 MiB (one large field, or many records),
    kept as a repository cache would keep them: the process grows by less than 64 MB."""
    create(uuid.uuid4(), _created_like_the_service(walled_pack()), at=AT, seed=None, command_id="warm-up")
    before = _rss_bytes()
    games = []
    for n in range(8):
        first = _created_like_the_service(make_pack(n))
        assert MAX_PACK_BYTES - 4096 < len(first.setup) < MAX_PACK_BYTES + 4096
        games.append(fold(None, create(uuid.uuid4(), first, at=AT, seed=None, command_id=f"g{n}")))
        del first
    grown = _rss_bytes() - before
    assert len({g.state.content_pack_digest for g in games}) == 8
    assert all(not sees(library_of(g.state), "GR-6", "GR-8") for g in games)
    print(f"RSS grew by {grown / 2**20:.1f} MiB for 8 games with ~1 MiB packs ({make_pack.__name__})")
    assert grown < 64 * 2**20
    with pytest.raises(PackTooLarge):
        create(
            uuid.uuid4(),
            _created_like_the_service(walled_pack("y" * 4 * 2**20)),
            at=AT,
            seed=None,
            command_id="too-large",
        )


def test_the_rules_read_content_only_through_the_game():
    """No rule module (nor the bot, which plays a game of any content pack) reads the shipped content
    behind the game's back (``content.library()``), holds a ``ContextVar`` or caches for the whole
    process (``functools.cache``). The catalogue is the one reader of the shipped content by
    definition: it serves ``/content/mice-and-mystics/...``, which describes the shipped box."""
    root = Path(str(files("dicelog.domain.mice_and_mystics")))
    offenders = [
        f"{path.relative_to(root)}:{line} {name}"
        for path in sorted(root.rglob("*.py"))
        if path.name not in ("content.py", "catalogue.py")
        for line, name in _names_used(ast.parse(path.read_text()))
        if name in ("library", "ContextVar", "ACTIVE_LIBRARY", "cache", "lru_cache")
    ]
    assert offenders == []


def _names_used(tree: ast.AST):
    """(line, name) of every function called, name imported and decorator in ``tree``."""
    for node in ast.walk(tree):
        used = [node.func] if isinstance(node, ast.Call) else []
        used += node.names if isinstance(node, (ast.Import, ast.ImportFrom)) else []
        used += getattr(node, "decorator_list", [])
        for n in used:
            name = getattr(n, "id", None) or getattr(n, "attr", None) or getattr(n, "name", None)
            yield getattr(node, "lineno", 0), name
