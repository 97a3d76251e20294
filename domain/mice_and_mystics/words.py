"""Players' words for the game log (``read_models.describe``): figures, spaces, cards and dice faces by
the names printed on the components, never by their content ids. Pure: a ``Words`` reads one content
``Library``.

- A figure: a mouse's name (``Prince Collin``), a minion figure as its card's name in the singular and its
  number (``rat-warriors-1`` -> ``Rat Warrior 1``), a boss by its card's or figure's name (``Brodie``).
- A space: its room's name and its number on the tile (``KT-5`` -> ``Kitchen Tunnels · space 5``).
- A card: the printed name of a search card, equipment card or ability card (``collins-sword`` ->
  ``Collin's Sword``).
- A die face: the action die's symbols and the move number printed beside them
  (docs/mice-and-mystics/facts.md §1: face 4 is ``bow · 2``); a two-sided throw by its number.
- A read-aloud text without its source line (the content keeps ``Paraphrase of …`` for reference; a player
  reads the story only).
"""

from __future__ import annotations

import re

from dicelog.domain.mice_and_mystics.content import Library
from dicelog.domain.mice_and_mystics.rules.dice import DIE_FACES, MOVE_NUMBER

SYMBOLS: dict[str, str] = {
    "cheese": "cheese",
    "sword-star": "sword + star",
    "sword-shield": "sword/shield",
    "bow": "bow",
    "bow-star": "bow + star",
    "sword-shield-star": "sword/shield + star",
}
"""The printed symbols of each action-die face, by the face's name in ``DIE_FACES``."""

FACE_SYMBOLS: dict[int, str] = {number: SYMBOLS[name] for name, number in DIE_FACES.items()}
"""The printed symbols of each action-die face, by face number (1-6)."""

TWO_SIDED = frozenset({"grapes"})
"""Roll reasons whose die has two sides (the Grapes' throw, a coin flip): their faces are plain numbers."""

REASONS: dict[str, str] = {
    "move": "movement",
    "minion-move": "the minions' movement",
    "minion-attack": "the minions' attack",
    "minion-defense": "the minion's defence",
    "defense": "defence",
    "search-discard": "a search (discard)",
    "special-search": "a special search",
    "time-passes": "time passing",
    "kitchen-counter": "the Kitchen counter",
    "born-to-lead": "Born to Lead",
    "grapes": "the Grapes' throw",
}
"""A roll's, shuffle's or draw's ``reason`` in words, where the id does not read as English already."""

_SOURCE_LINE = re.compile(r"^Paraphrase of .*?[»)]\.\s+")
_NUMBERED = re.compile(r"^(?P<card>.+)-(?P<n>\d+)$")


def face_text(face: int, *, sides: int = 6) -> str:
    """One die face in words: the action die's symbols and printed move number (``bow · 2``), or the number
    of a die of other ``sides``."""
    if sides == 6 and face in FACE_SYMBOLS:
        return f"{FACE_SYMBOLS[face]} · {MOVE_NUMBER[face]}"
    return str(face)


def reason_text(reason: str) -> str:
    """A roll's, shuffle's or draw's reason in words (``minion-move`` -> ``the minions' movement``)."""
    return REASONS.get(reason, reason.replace("-", " "))


def story_text(text: str) -> str:
    """A read-aloud text as the players read it: without its leading ``Paraphrase of …`` source line."""
    return _SOURCE_LINE.sub("", text, count=1)


def singular(name: str) -> str:
    """A minion card's name for one of its figures: ``Rat Warriors`` -> ``Rat Warrior``, ``Roaches`` ->
    ``Roach``; a name not in the plural stays."""
    if name.endswith("ches"):
        return name[:-2]
    if name.endswith("s") and not name.endswith("'s"):
        return name[:-1]
    return name


class Words:
    """Names for ids of one content library (see the module docstring)."""

    def __init__(self, lib: Library, figures: dict[str, str] | None = None) -> None:
        self.lib = lib
        self.figures = figures or {}

    def card(self, card: str) -> str:
        """An initiative card, mouse, search card, equipment card or ability card by its printed name; the id
        if the content has none."""
        lib = self.lib
        for table in (lib.mice, lib.minions, lib.search_cards, lib.items, lib.abilities):
            found = table.get(card)
            if found is not None:
                return found.name
        return card

    def figure(self, figure: str) -> str:
        """A figure on the board: a mouse's name, ``Rat Warrior 1`` for ``rat-warriors-1``, a boss's name."""
        lib = self.lib
        if figure in lib.mice or figure in lib.minions:
            return self.card(figure)
        match = _NUMBERED.match(figure)
        if match and match["card"] in lib.minions:
            return f"{singular(lib.minions[match['card']].name)} {match['n']}"
        card = self.figures.get(figure)
        if card in lib.minions and lib.minions[card].rank == "minion":
            return singular(lib.minions[card].name)
        return figure.replace("-", " ").title()  # a boss's figure (``brodie`` -> ``Brodie``)

    def space(self, space: str) -> str:
        """A space as ``<room name> · space <n>`` (``Guard Room · space 6`` for ``GR-6``); the id if
        unknown."""
        tile = self.lib.space_tile.get(space)
        if tile is None:
            return space
        number = space.rsplit("-", 1)[-1]
        return f"{self.lib.tiles[tile].name} · space {number}"

    def thing(self, value: str) -> str:
        """Any id a decision may offer or a log may name: a space, a figure or a card, in words; words
        stay."""
        if value in self.lib.space_tile:
            return self.space(value)
        named = self.card(value)
        if named != value:
            return named
        if value in self.figures or _NUMBERED.match(value):
            return self.figure(value)
        return value.replace("-", " ")

    def cards(self, cards: tuple[str, ...] | list[str]) -> str:
        """Cards in words, joined by commas."""
        return ", ".join(self.card(c) for c in cards)
