"""secret-hand's content catalogue, served at ``/content/secret-hand/...``
(``dicelog.domain.core.ruleset.ContentRoute``)."""

from __future__ import annotations

from msgspec import Struct

from dicelog.domain.core.ruleset import ContentRoute


class CardInfo(Struct, frozen=True, kw_only=True):
    """One card of the deck."""

    id: str
    """The card's id (``card-07``), as commands name it."""
    value: int
    """What playing it scores."""


def cards() -> list[CardInfo]:
    return [CardInfo(id=f"card-{n:02d}", value=n) for n in range(1, 25)]


def card(card_id: str) -> CardInfo | None:
    return next((c for c in cards() if c.id == card_id), None)


CONTENT = (
    ContentRoute(
        "/cards", "secret-hand's cards", "The 24 cards of the deck and their values.", CardInfo, cards
    ),
    ContentRoute(
        "/cards/{card_id:str}",
        "One card",
        "One card by its id.",
        CardInfo,
        card,
        key=("card_id", str, "Card id (card-01 ... card-24)"),
        not_found="card",
    ),
)
