"""The action die (docs/mice-and-mystics/facts.md §1): its six faces by number and by printed symbol, what
each face counts as (melee and ranged hits, blocks, stars, cheese) and its move number. A leaf module: combat,
movement, search, recovery, mousetraps and water all read the die through it."""

from __future__ import annotations

from dicelog.domain.mice_and_mystics.content import DieFace

MOVE_NUMBER = {1: 1, 2: 2, 3: 3, 4: 2, 5: 1, 6: 3}
"""The move number of each action-die face (docs/mice-and-mystics/facts.md §1)."""
CHEESE, SWORD_STAR, SWORD_SHIELD, BOW, BOW_STAR, SWORD_SHIELD_STAR = 1, 2, 3, 4, 5, 6
DIE_FACES: dict[str, int] = {
    "cheese": CHEESE,
    "sword-star": SWORD_STAR,
    "sword-shield": SWORD_SHIELD,
    "bow": BOW,
    "bow-star": BOW_STAR,
    "sword-shield-star": SWORD_SHIELD_STAR,
}
"""The action die's faces by their printed symbols (docs/mice-and-mystics/facts.md §1: one fan source, GH-DIE,
whose symbol counts per face agree with two others; the rulebooks name the symbols, not the faces). A ``Roll``
may name them instead of the numbers (``dicelog.domain.core.game.face_numbers``)."""
MELEE_HITS = frozenset({SWORD_STAR, SWORD_SHIELD, SWORD_SHIELD_STAR})
RANGED_HITS = frozenset({BOW, BOW_STAR})
BLOCKS = frozenset({SWORD_SHIELD, SWORD_SHIELD_STAR})
STARS = frozenset({SWORD_STAR, BOW_STAR, SWORD_SHIELD_STAR})


def action_die() -> list[DieFace]:
    """The action die as served under ``/content/mice-and-mystics/dice`` (docs/mice-and-mystics/facts.md
    §1)."""
    return [
        DieFace(
            face=number,
            name=name,
            symbol=name.removesuffix("-star").replace("sword-shield", "sword-and-shield"),
            move=MOVE_NUMBER[number],
            melee_hit=number in MELEE_HITS,
            ranged_hit=number in RANGED_HITS,
            block=number in BLOCKS,
            star=number in STARS,
            cheese=number == CHEESE,
        )
        for name, number in DIE_FACES.items()
    ]


def count(faces: tuple[int, ...], symbols: frozenset[int] | int) -> int:
    """How many of ``faces`` show one of ``symbols`` (a face number or a set of them)."""
    wanted = symbols if isinstance(symbols, frozenset) else frozenset({symbols})
    return sum(1 for face in faces if face in wanted)
