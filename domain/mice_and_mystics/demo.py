"""``dicelog demo`` (``--game mice-and-mystics``, the default): Chapter 1 played by one bot per mouse
(``dicelog.domain.mice_and_mystics.bot``: fight minions in reach, explore toward the Courtyard, walk to
the tree entrance, search when nothing else helps), rolling nothing itself: the dice are the server's,
committed at creation. The board is printed after every round, the initiative track at the end.
The ruleset's ``demo`` (``dicelog.domain.core.ruleset.Demo``)."""

from __future__ import annotations

from typing import Any

from dicelog.domain.core.ruleset import DemoOption, DemoTable

MICE = ("collin", "filch", "maginos", "nez")
"""The four mice seated when ``--mice`` is not given."""


class MiceAndMysticsDemo:
    title = "playing Chapter 1"
    options = (
        DemoOption(
            "--mice",
            "mice",
            "mice-and-mystics: the four mice seated (default: collin filch maginos nez)",
            metavar="MOUSE",
            nargs=4,
        ),
    )
    table_every = len(MICE)

    def game(self, options: dict[str, Any]) -> dict[str, Any]:
        mice = list(options.get("mice") or MICE)
        return {
            "ruleset": "mice-and-mystics",
            "setup": {"chapter": "chapter-1", "mice": mice},
            "seats": [{"name": f"seat-{m}", "controls": [m]} for m in mice],
        }

    def ends_turn(self, command: dict[str, Any]) -> bool:
        return command.get("type") == "EndTurn"

    def tables(self, board: dict[str, Any], initiative: dict[str, Any]) -> list[DemoTable]:
        view = board.get("board", {})
        spaces = tuple(
            (tile.get("name", ""), space["id"], ", ".join(space["figures"]))
            for tile in view.get("tiles", [])
            for space in tile.get("spaces", [])
            if space.get("figures")
        )
        track = initiative.get("initiative", {})
        cards = tuple(
            (
                str(card.get("slot")),
                f"{card.get('name')}{' <' if card.get('current') else ''}",
                ", ".join(card.get("figures", [])),
            )
            for card in track.get("cards", [])
        )
        return [
            DemoTable(
                f"Board - hourglass page {view.get('hourglass_page')} "
                f"(end marker {view.get('end_marker_page')}), minion cheese wheel {view.get('cheese_wheel')}",
                ("room tile", "space", "figures"),
                spaces,
            ),
            DemoTable(f"Initiative track - round {track.get('round')}", ("slot", "card", "figures"), cards),
        ]

    def secrets(self, state: dict[str, Any], seat: str) -> set[str]:
        return set()  # all public (docs/architecture.md, Who sees what)


DEMO = MiceAndMysticsDemo()
