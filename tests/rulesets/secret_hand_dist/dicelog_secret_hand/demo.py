"""``dicelog demo --game secret-hand``: bots play a game of secret-hand through the HTTP API, and every
response a seat reads is scanned for the cards it may not see (the other players' hands and discards, the
deck): ``dicelog.domain.core.ruleset.Demo``."""

from __future__ import annotations

from typing import Any

from dicelog.domain.core.ruleset import DemoOption, DemoTable

PLAYERS = ("red", "blue", "green")


class SecretHandDemo:
    title = "playing secret-hand"
    options = (
        DemoOption(
            "--players",
            "players",
            "secret-hand: the players seated, comma-separated (default: red,blue,green)",
        ),
    )
    table_every = len(PLAYERS)

    def game(self, options: dict[str, Any]) -> dict[str, Any]:
        given = options.get("players")
        players = given.split(",") if isinstance(given, str) else list(given or PLAYERS)
        if not 2 <= len(players) <= 4:
            raise ValueError("secret-hand seats 2-4 players")
        return {
            "ruleset": "secret-hand",
            "setup": {"players": players},
            "seats": [{"name": p, "controls": [p]} for p in players],
        }

    def ends_turn(self, command: dict[str, Any]) -> bool:
        return command.get("type") in ("hand.Play", "hand.Pass", "hand.Discard")

    def tables(self, board: dict[str, Any], initiative: dict[str, Any]) -> list[DemoTable]:
        view = board.get("board", {})
        scores = view.get("scores", {})
        rows = tuple((p, str(s), str(view.get("hand_counts", {}).get(p, ""))) for p, s in scores.items())
        return [
            DemoTable(
                f"Scores - {view.get('deck_count')} cards in the deck", ("player", "score", "hand"), rows
            )
        ]

    def secrets(self, state: dict[str, Any], seat: str) -> set[str]:
        """The cards ``seat`` may not see now: the deck, and the other players' hands and discards (a card
        passed to it is in its own hand, so it is not among them)."""
        hidden = set(state["deck"])
        for player, hand in state["hands"].items():
            if player != seat:
                hidden |= set(hand)
        for player, discards in state["discards"].items():
            if player != seat:
                hidden |= set(discards)
        own = set(state["hands"].get(seat, ())) | set(state["discards"].get(seat, ())) | set(state["played"])
        return hidden - own - {"?"}


DEMO = SecretHandDemo()
