"""Content check: is the content consistent? (docs/architecture.md, Content is data.)

Pure: ``check(library)`` returns a list of ``Finding`` (empty when all is well); ``dicelog content
check`` prints them and exits 1 on any. Rules, by ``rule`` id prefix:

- ``tile.*``: each room tile's space graph (ids, centres inside the tile, edges between existing
  spaces of the tile, no pair twice, yellow arrows on an endpoint, every space reachable), its exits
  (spaces on their side, the side's colour, the sides of docs/mice-and-mystics/facts.md §8), minion entrances,
  mousetraps, water and special flip spaces as docs/mice-and-mystics/facts.md §8 counts them, special areas
  unlimited (MM rulebook (it) §Aree Speciali), and its walls (inside the tile, outlines closed, no space
  centre inside a black area); the boards' pairing (odd orange face, even blue face, each the other's reverse;
  a flip space on one face needs one on the other, MM rulebook (it) §Esplorare).
- ``chapter.*``: every tile, mouse, minion, encounter, search card and room rule a chapter names exists; the
  start space is a start space on a placed tile; the goal's tile is on the table and has the feature.
- ``encounter.*``, ``mouse.*``, ``ability.*``, ``search-card.*``: minions, equipment, classes and
  requirements named exist (an ability may be for ``any`` class); search cards agree with
  ``equipment.json``; ``provisional.*``: a provisional record says why, and only provisional ones do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Protocol

from msgspec import Struct

from dicelog.domain.mice_and_mystics.content import Chapter, Library, ReadAloud, RoomRule, RoomTile
from dicelog.domain.mice_and_mystics.rules.room_rule_hooks import PLAYED_ROOM_RULES as ROOM_RULES

# docs/mice-and-mystics/facts.md §8 (exits: GH-RM paths.js, verified; the counts read by eye from the scans,
# uncertain).
EXIT_SIDES = {
    1: "",
    2: "NES",
    3: "ESW",
    4: "NESW",
    5: "EW",
    6: "NS",
    7: "NES",
    8: "EW",
    9: "ES",
    10: "NSW",
    11: "W",
    12: "ES",
    13: "NW",
    14: "N",
    15: "NS",
    16: "NS",
}
MINION_ENTRANCES = {
    1: (3, 3),
    2: (3, 3),
    3: (3, 3),
    4: (3, 3),
    5: (3, 3),
    6: (4, 4),
    7: (4, 4),
    8: (3, 3),
    9: (2, 3),
    10: (3, 3),
    11: (3, 3),
    12: (3, 3),
    13: (3, 3),
    14: (3, 3),
    15: (4, 4),
    16: (4, 4),
}
MOUSETRAPS = {2: 2, 4: 1, 8: 2, 10: 1, 12: 1, 15: 2}
WATER_CURRENT = {6: "W", 12: None, 16: "W"}  # tiles with water; the channel's current where one is read
FLIP_ITEM = {6: "fishhook-and-thread"}  # docs/mice-and-mystics/facts.md §8: special flip spaces
FLIP_CLASSES = {15: ("scamp", "tinkerer")}
ANY_CLASS = "any"


class Finding(Struct, frozen=True, kw_only=True):
    """One inconsistency: a stable rule id, the record it is about, and what is wrong."""

    rule: str
    where: str
    detail: str

    def __str__(self) -> str:
        return f"{self.where}: {self.detail} [{self.rule}]"


def check(lib: Library) -> list[Finding]:
    """Every finding about ``lib`` (empty: consistent)."""
    out: list[Finding] = []
    for tile in lib.tiles.values():
        out += check_tile(lib, tile)
    out += _pairs(lib) + _chapters(lib) + _cards(lib) + _provisional(lib)
    return out


def check_tile(lib: Library, tile: RoomTile) -> list[Finding]:
    """Findings about one tile's graph, exits, features and walls."""
    out: list[Finding] = []

    def bad(rule: str, detail: str) -> None:
        out.append(Finding(rule=f"tile.{rule}", where=f"tile {tile.id}", detail=detail))

    ids = [s.id for s in tile.spaces]
    spaces = {s.id: s for s in tile.spaces}
    for sid, n in Counter(ids).items():
        if n > 1:
            bad("duplicate-space", f"space {sid} is listed {n} times")
    for s in tile.spaces:
        if not s.id.startswith(tile.code + "-"):
            bad("space-id", f"space {s.id} does not start with the tile code {tile.code}-")
        if not (0 <= s.centre[0] <= tile.width and 0 <= s.centre[1] <= tile.height):
            bad(
                "centre-outside",
                f"space {s.id} centre {list(s.centre)} is outside {tile.width}x{tile.height}",
            )
        if s.kind != "flip" and (s.flip_requires or s.flip_classes):
            bad("flip-requirement", f"space {s.id} is not a flip space but has a flip requirement")
        if s.current and not s.water:
            bad("current-without-water", f"space {s.id} has a current but no water")
        if s.area and s.capacity != "unlimited":
            bad("area-capacity", f"space {s.id} is in special area {s.area} but its capacity is {s.capacity}")
    pairs: Counter[frozenset[str]] = Counter()
    for e in tile.edges:
        name = f"edge {e.a}/{e.b}"
        missing = [x for x in (e.a, e.b) if x not in spaces]
        if missing:
            bad("edge-unknown-space", f"{name}: {', '.join(missing)} is not a space of this tile")
        if e.a == e.b:
            bad("edge-loop", f"{name} joins a space to itself")
        pairs[frozenset((e.a, e.b))] += 1
        if e.line == "yellow" and e.arrow_to not in (e.a, e.b):
            bad(
                "yellow-arrow",
                f"{name}: a yellow line's arrow must point to one of its spaces, not {e.arrow_to}",
            )
        if e.line != "yellow" and e.arrow_to is not None:
            bad("arrow-without-yellow", f"{name}: only a yellow line has an arrow")
    for pair, n in pairs.items():
        if n > 1:
            bad("edge-twice", f"spaces {' and '.join(sorted(pair))} are joined {n} times")
    out += [Finding(rule="tile.disconnected", where=f"tile {tile.id}", detail=d) for d in _unreachable(tile)]
    _exits(tile, spaces, bad)
    _features(tile, bad)
    _walls(tile, bad)
    return out


def _unreachable(tile: RoomTile) -> list[str]:
    if not tile.spaces:
        return ["the tile has no spaces"]
    near: dict[str, set[str]] = {s.id: set() for s in tile.spaces}
    for e in tile.edges:
        if e.a in near and e.b in near:
            near[e.a].add(e.b)
            near[e.b].add(e.a)
    seen, todo = {tile.spaces[0].id}, [tile.spaces[0].id]
    while todo:
        for other in near[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    lost = [s.id for s in tile.spaces if s.id not in seen]
    return [f"{', '.join(lost)} cannot be reached from {tile.spaces[0].id}"] if lost else []


def _exits(tile: RoomTile, spaces: dict, bad) -> None:
    sides = [x.side for x in tile.exits]
    for x in tile.exits:
        if x.colour != tile.side:
            bad("exit-colour", f"exit {x.side} is {x.colour} on the {tile.side} side")
        if not x.spaces:
            bad("exit-empty", f"exit {x.side} has no spaces next to it")
        for sid in x.spaces:
            s = spaces.get(sid)
            if s is None:
                bad("exit-unknown-space", f"exit {x.side}: {sid} is not a space of this tile")
                continue
            cx, cy = s.centre
            near = {"N": cy <= 1, "S": cy >= tile.height - 1, "W": cx <= 1, "E": cx >= tile.width - 1}[x.side]
            if not near:
                bad("exit-off-side", f"exit {x.side}: space {sid} is not on the {x.side} side")
    expected = EXIT_SIDES.get(tile.number)
    if len(set(sides)) != len(sides) or (expected is not None and sorted(sides) != sorted(expected)):
        bad(
            "exit-sides",
            f"exits on {''.join(sides) or 'no side'}; "
            f"docs/mice-and-mystics/facts.md §8 has {expected or 'none'}",
        )


def _features(tile: RoomTile, bad) -> None:
    kinds = Counter(s.kind for s in tile.spaces)
    low, high = MINION_ENTRANCES.get(tile.number, (1, 99))
    if not low <= kinds["minion-entrance"] <= high:
        bad(
            "minion-entrances",
            f"{kinds['minion-entrance']} minion entrances; docs/mice-and-mystics/facts.md §8: {low}-{high}",
        )
    if tile.number in MOUSETRAPS and kinds["mousetrap"] != MOUSETRAPS[tile.number]:
        bad(
            "mousetraps",
            f"{kinds['mousetrap']} mousetrap spaces; "
            f"docs/mice-and-mystics/facts.md §8: {MOUSETRAPS[tile.number]}",
        )
    water = [s for s in tile.spaces if s.water]
    if tile.number in WATER_CURRENT:
        current = WATER_CURRENT[tile.number]
        if not water or (current and any(s.current != current for s in water)):
            bad(
                "water",
                "docs/mice-and-mystics/facts.md §8 has a water channel"
                f"{f' with a {current} current' if current else ''}",
            )
    flips = [s for s in tile.spaces if s.kind == "flip"]
    if tile.number in FLIP_ITEM and not any(s.flip_requires == FLIP_ITEM[tile.number] for s in flips):
        bad(
            "special-flip",
            f"no flip space needs {FLIP_ITEM[tile.number]} (docs/mice-and-mystics/facts.md §8)",
        )
    if tile.number in FLIP_CLASSES and not any(
        tuple(sorted(s.flip_classes)) == FLIP_CLASSES[tile.number] for s in flips
    ):
        bad(
            "special-flip",
            f"no flip space is only for {' or '.join(FLIP_CLASSES[tile.number])} "
            "(docs/mice-and-mystics/facts.md §8)",
        )


def _walls(tile: RoomTile, bad) -> None:
    w, h = tile.width, tile.height
    degree: Counter[tuple[float, float]] = Counter()
    for wall in tile.walls:
        if wall.a == wall.b:
            bad("wall-degenerate", f"wall {list(wall.a)}-{list(wall.b)} has no length")
        for p in (wall.a, wall.b):
            degree[p] += 1
            if not (0 <= p[0] <= w and 0 <= p[1] <= h):
                bad("wall-outside", f"wall end {list(p)} is outside {w}x{h}")
    open_ = [p for p, n in degree.items() if n % 2 and 0 < p[0] < w and 0 < p[1] < h]
    if open_:
        bad("wall-open", f"wall outline not closed at {', '.join(str(list(p)) for p in sorted(open_))}")
        return
    for s in tile.spaces:
        px, py = s.centre
        crossings = sum(
            1
            for wall in tile.walls
            if (wall.a[1] > py) != (wall.b[1] > py)
            and px < wall.a[0] + (py - wall.a[1]) * (wall.b[0] - wall.a[0]) / (wall.b[1] - wall.a[1])
        )
        if crossings % 2:
            bad("space-in-black-area", f"space {s.id} centre {list(s.centre)} is inside a black area")


class _Findings(list):
    def add(self, rule: str, where: str, detail: str) -> None:
        self.append(Finding(rule=rule, where=where, detail=detail))


def _pairs(lib: Library) -> list[Finding]:
    out = _Findings()
    tiles = lib.tiles.values()
    for field, values in (("code", [t.code for t in tiles]), ("number", [t.number for t in tiles])):
        for v, n in Counter(values).items():
            if n > 1:
                out.add(f"tile.duplicate-{field}", "tiles", f"{field} {v} is used by {n} tiles")
    for sid, n in Counter(s.id for t in tiles for s in t.spaces).items():
        if n > 1:
            out.add("tile.space-on-two-tiles", "tiles", f"space {sid} is on {n} tiles")
    for tile in tiles:
        where, other = f"tile {tile.id}", lib.tiles.get(tile.reverse)
        if (tile.side == "orange") != (tile.number % 2 == 1):
            out.add(
                "tile.side", where, f"tile {tile.number} is {tile.side}; odd numbers are orange, even blue"
            )
        if other is None:
            out.add("tile.reverse-unknown", where, f"reverse {tile.reverse} is not a tile")
            continue
        low = min(tile.number, other.number)
        if other.reverse != tile.id or abs(tile.number - other.number) != 1 or low % 2 != 1:
            out.add(
                "tile.pairing",
                where,
                f"reverse {other.id} (tile {other.number}) is not this board's other face",
            )
        if any(s.kind == "flip" for s in tile.spaces) and not any(s.kind == "flip" for s in other.spaces):
            out.add(
                "tile.flip-reverse", where, f"has a flip space but its reverse {other.id} has none to land on"
            )
    return out


def _chapters(lib: Library) -> list[Finding]:
    out = _Findings()
    for ch in lib.chapters.values():
        where = f"chapter {ch.id}"
        placed = [t.tile for t in ch.tiles]
        faces = set(placed) | {lib.tiles[t].reverse for t in placed if t in lib.tiles}
        _chapter_table(out, lib, ch, where, placed)
        _chapter_party(out, lib, ch, where)
        _chapter_figures(out, lib, ch, where, placed, faces)
        _chapter_decks(out, lib, ch, where)
        _chapter_goal(out, lib, ch, where, faces)
        _chapter_special_searches(out, lib, ch, where, faces)
        _chapter_rooms_and_pages(out, lib, ch, where, faces)
    return out


def _chapter_table(out: _Findings, lib: Library, ch: Chapter, where: str, placed: list[str]) -> None:
    """Its tiles: each exists, no board twice, no two at one place, the start space on a placed tile."""
    for t in placed:
        if t not in lib.tiles:
            out.add("chapter.unknown-tile", where, f"tile {t} does not exist")
    for board, n in Counter(frozenset((t, lib.tiles[t].reverse)) for t in placed if t in lib.tiles).items():
        if n > 1:
            out.add("chapter.board-twice", where, f"board {'/'.join(sorted(board))} is placed {n} times")
    for (c, r), n in Counter((t.column, t.row) for t in ch.tiles).items():
        if n > 1:
            out.add("chapter.tiles-overlap", where, f"{n} tiles at column {c}, row {r}")
    start = lib.spaces.get(ch.start_space)
    if start is None or lib.space_tile[ch.start_space] not in placed:
        out.add("chapter.start-space", where, f"start space {ch.start_space} is not a space of a placed tile")
    elif start.kind != "start":
        out.add("chapter.start-space", where, f"start space {ch.start_space} is a {start.kind} space")


def _chapter_party(out: _Findings, lib: Library, ch: Chapter, where: str) -> None:
    """Its mice: each not allowed exists, and enough are left for the party."""
    for m in ch.mice_not_allowed:
        if m not in lib.mice:
            out.add("chapter.unknown-mouse", where, f"mouse {m} does not exist")
    if ch.party_size > len(set(lib.mice) - set(ch.mice_not_allowed)):
        out.add("chapter.party-size", where, f"a party of {ch.party_size} needs more mice than are allowed")


def _chapter_figures(
    out: _Findings, lib: Library, ch: Chapter, where: str, placed: list[str], faces: set[str]
) -> None:
    """Its minions, summons and room rules: each exists (a room rule: one this release plays), on the
    table."""
    for g in ch.minions:
        if g.card not in lib.minions:
            out.add("chapter.unknown-minion", where, f"minion card {g.card} does not exist")
        if g.tile not in placed:
            out.add(
                "chapter.minions-off-table",
                where,
                f"{g.card} are placed on {g.tile}, which is not placed",
            )
    for summon in ch.summons:
        if summon.card not in lib.minions:
            out.add("chapter.unknown-minion", where, f"summon card {summon.card} does not exist")
        if summon.tile not in faces:
            out.add(
                "chapter.summon-off-table",
                where,
                f"the summon for {summon.tile} is for a tile not on the table",
            )
    for room_rule in ch.room_rules:
        if room_rule.rule not in ROOM_RULES:
            out.add(
                "chapter.unknown-room-rule",
                where,
                f"room rule {room_rule.rule} is not one this release plays ({', '.join(sorted(ROOM_RULES))})",
            )


def _chapter_decks(out: _Findings, lib: Library, ch: Chapter, where: str) -> None:
    """Its encounter and search decks: each card exists (a search card: of the search deck)."""
    for e in ch.encounter_deck:
        if e not in lib.encounters:
            out.add("chapter.unknown-encounter", where, f"encounter card {e} does not exist")
    for card_id in ch.search_deck:
        card = lib.search_cards.get(card_id)
        if card is None or card.where != "search-deck":
            out.add("chapter.unknown-search-card", where, f"search card {card_id} is not a search-deck card")


def _chapter_goal(out: _Findings, lib: Library, ch: Chapter, where: str, faces: set[str]) -> None:
    """Its goal: a tile on the table with a space of the feature."""
    goal = ch.goal
    if goal is not None and goal.tile not in faces:
        out.add("chapter.goal-tile", where, f"goal tile {goal.tile} is not on the table")
    elif goal is not None and not any(s.feature == goal.feature for s in lib.tiles[goal.tile].spaces):
        out.add(
            "chapter.goal-feature",
            where,
            f"goal tile {goal.tile} has no space with feature {goal.feature}",
        )


def _chapter_special_searches(out: _Findings, lib: Library, ch: Chapter, where: str, faces: set[str]) -> None:
    """Its special searches: on the table, of a search card, for mouse classes that exist."""
    for found in ch.special_searches:
        if found.tile not in faces:
            out.add(
                "chapter.special-search-off-table",
                where,
                f"special search in {found.tile}, not on the table",
            )
        if found.item not in lib.search_cards:
            out.add(
                "chapter.unknown-search-card",
                where,
                f"special search item {found.item} is no search card",
            )
        for mouse_class in found.classes:
            if mouse_class not in {k for m in lib.mice.values() for k in m.classes}:
                out.add(
                    "chapter.unknown-class",
                    where,
                    f"special search class {mouse_class} is no mouse's class",
                )


def _chapter_rooms_and_pages(out: _Findings, lib: Library, ch: Chapter, where: str, faces: set[str]) -> None:
    """Its stories and room rules on the table, and the hourglass page before the end marker."""
    rooms: tuple[ReadAloud | RoomRule, ...] = (*ch.read_aloud, *ch.room_rules)
    for room in rooms:
        if room.tile not in faces:
            out.add(
                "chapter.room-off-table",
                where,
                f"a room rule or story names {room.tile}, not on the table",
            )
    if not ch.hourglass_page < ch.end_marker_page:
        out.add("chapter.pages", where, f"hourglass page {ch.hourglass_page} is not before the end marker")


def _cards(lib: Library) -> list[Finding]:
    out = _Findings()
    classes = {c for m in lib.mice.values() for c in m.classes}
    for card in lib.encounters.values():
        where, page = f"encounter {card.id}", 1
        for band in card.bands:
            for m, _ in band.minions:
                if m not in lib.minions:
                    out.add("encounter.unknown-minion", where, f"minion card {m} does not exist")
            if band.first != page or band.last < band.first:
                out.add(
                    "encounter.bands", where, f"band {band.first}-{band.last} does not start at page {page}"
                )
            page = band.last + 1
    for mouse in lib.mice.values():
        for i in mouse.starting_equipment:
            if i not in lib.items:
                out.add(
                    "mouse.unknown-equipment", f"mouse {mouse.id}", f"starting equipment {i} is not an item"
                )
    for ab in lib.abilities.values():
        where = f"ability {ab.id}"
        if not ab.classes:
            out.add("ability.no-class", where, "names no class (use any)")
        for c in ab.classes:
            if c != ANY_CLASS and c not in classes:
                out.add("ability.unknown-class", where, f"class {c} is no mouse's class")
        for m in ab.mice:
            if m not in lib.mice:
                out.add("ability.unknown-mouse", where, f"mouse {m} does not exist")
    for search_card in lib.search_cards.values():
        where = f"search card {search_card.id}"
        for r in search_card.requires:
            if r not in classes and r not in lib.mice:
                out.add(
                    "search-card.unknown-requirement",
                    where,
                    f"requirement {r} is neither a class nor a mouse",
                )
        item = lib.items.get(search_card.id)
        stats = (
            search_card.type,
            search_card.attack,
            search_card.battle,
            search_card.defense,
            search_card.special,
        )
        if item is not None and (item.kind, item.attack, item.battle, item.defense, item.special) != stats:
            out.add("search-card.equipment-mismatch", where, "its stats differ from the equipment item's")
    for tile in lib.tiles.values():
        for s in tile.spaces:
            need = s.flip_requires
            if need and need not in lib.search_cards and need not in lib.items:
                out.add(
                    "tile.flip-requires-unknown",
                    f"tile {tile.id}",
                    f"flip space {s.id} needs {need}, no card",
                )
            for c in s.flip_classes:
                if c not in classes:
                    out.add(
                        "tile.flip-class-unknown", f"tile {tile.id}", f"flip space {s.id}: {c} is no class"
                    )
    return out


class _Provisional(Protocol):
    """A content record that may be provisional (its values not verified in the rule sources)."""

    @property
    def id(self) -> str: ...

    @property
    def provisional(self) -> bool: ...

    @property
    def provisional_reason(self) -> str: ...


def _provisional(lib: Library) -> list[Finding]:
    out = _Findings()
    groups: dict[str, Mapping[str, _Provisional]] = {
        "mouse": lib.mice,
        "minion": lib.minions,
        "tile": lib.tiles,
        "chapter": lib.chapters,
        "item": lib.items,
        "encounter": lib.encounters,
        "ability": lib.abilities,
        "search card": lib.search_cards,
    }
    for kind, records in groups.items():
        for r in records.values():
            if r.provisional and not r.provisional_reason.strip():
                out.add("provisional.reason-missing", f"{kind} {r.id}", "provisional without a reason")
            if not r.provisional and r.provisional_reason:
                out.add("provisional.reason-without-flag", f"{kind} {r.id}", "a reason but not provisional")
    return out
