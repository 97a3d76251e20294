"""Tables for Vast's rule tests: a state built by hand, commands and answers applied through the ruleset's own
``decide`` / ``resolve`` / ``evolve`` (no store, no service), with explicit dice and cards."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    Event,
    RollRequested,
)
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import CaveCell, CaveRole, GoblinsRole, KnightRole, Tribe, VastState

PENDING = (RollRequested, DrawRequested, DecisionRequested)


def lit(x: int, y: int, tile: str, rotation: int = 0, **kw: Any) -> CaveCell:
    return CaveCell(x=x, y=y, tile=tile, lit=True, rotation=rotation, **kw)


def dark(x: int, y: int, tile: str, symbol: str = "fangs", **kw: Any) -> CaveCell:
    return CaveCell(x=x, y=y, tile=tile, symbol=symbol, **kw)


ENTRANCE = CaveCell(x=0, y=0, tile="entrance", lit=True)


def table(
    *cells: CaveCell,
    knight: KnightRole | None = None,
    cave: CaveRole | None = None,
    turn: str = "knight",
    sealed: bool = True,
    **kw: Any,
) -> VastState:
    """A Knight vs Cave table in play: the Entrance plus ``cells``; the Knight on the Entrance unless
    given."""
    state = VastState(
        roles=("knight", "cave"),
        phase="play",
        turn=turn,
        round=1,
        cells=(ENTRANCE, *cells),
        knight=knight or KnightRole(),
        cave=cave or CaveRole(hand=("ambush-01", "event-01", "treasure-room-01")),
        stack=("ambush-02", "ambush-03"),
        crystals=("crystal-01",),
        piles=(3,),
        pile_crystals=(1,),
        treasure_deck=("elven-sword", "heroic-boots", "javelin"),
        event_deck=("rats-1", "light", "vantage-point", "ambush-1"),
        omen_bag=tuple(
            f"{s}-{n}" for s in ("bat", "boulder", "quartz", "mushroom", "trail", "chasm") for n in (1, 2)
        ),
    )
    state = replace(state, **kw)
    return seal(state) if sealed else state


FILLER = "ambush-13"
"""The Dark tile ``seal`` puts on open edges (any Dark tile would do)."""


def seal(state: VastState) -> VastState:
    """``state`` with a Dark tile on every open edge, as the Cave keeps it before the Collapse (Vast rulebook
    §Tessere Caverna), so a test's first command does not start with the Cave's fills."""
    from dicelog.domain.vast.cave import step
    from dicelog.domain.vast.rules.common import geometry

    extra = [dark(*step(pos, side), FILLER, "bones") for pos, side in geometry(state).all_open_edges()]
    unique = {(c.x, c.y): c for c in extra}
    return replace(state, cells=(*state.cells, *unique.values()))


def fold(state: VastState, events: list[Event]) -> VastState:
    for e in events:
        state = RULESET.evolve(state, e)
    return state


class Play:
    """One table and what happened to it: ``do`` a command, ``answer`` the pending node; ``events`` holds
    every event so far, ``pending`` the open node (if any)."""

    def __init__(self, state: VastState) -> None:
        self.state = state
        self.events: list[Event] = []

    @property
    def pending(self) -> Event | None:
        return self.events[-1] if self.events and isinstance(self.events[-1], PENDING) else None

    def _take(self, events: list[Event]) -> list[Event]:
        self.state = fold(self.state, events)
        self.events += events
        return events

    def do(self, command: Any) -> list[Event]:
        assert self.pending is None, f"pending: {self.pending}"
        return self._take(RULESET.decide(self.state, command))

    def _answer(self, answer: Event) -> list[Event]:
        self.state = fold(self.state, [answer])
        self.events.append(answer)
        return self._take(RULESET.resolve(self.state, answer))

    def choose(self, option: str) -> list[Event]:
        pending = self.pending
        assert isinstance(pending, DecisionRequested), pending
        assert option in pending.options, (option, pending.options)
        return self._answer(DecisionMade(decision=pending.decision, option=option, by="test"))

    def default(self) -> list[Event]:
        pending = self.pending
        assert isinstance(pending, DecisionRequested) and pending.default is not None
        return self.choose(pending.default)

    def roll(self, *faces: int) -> list[Event]:
        pending = self.pending
        assert isinstance(pending, RollRequested), pending
        return self._answer(DiceRolled(reason=pending.reason, faces=faces, source="manual"))

    def draw(self, *cards: str) -> list[Event]:
        pending = self.pending
        assert isinstance(pending, DrawRequested), pending
        assert all(c in pending.cards for c in cards), (cards, pending.cards)
        return self._answer(
            CardsDrawn(reason=pending.reason, deck=pending.deck, cards=cards, source="manual")
        )

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def settle(self) -> None:
        """Answer every pending node the plain way: each decision's default, each draw's first cards."""
        for _ in range(200):
            pending = self.pending
            if pending is None:
                return
            if isinstance(pending, DecisionRequested):
                self.default()
            elif isinstance(pending, DrawRequested):
                self.draw(*pending.cards[: pending.count])
            else:
                self.roll(*([2] * pending.dice))
        raise AssertionError("the chain did not settle")


def refused(state: VastState, command: Any) -> str:
    """The rule ``decide`` names refusing ``command`` on ``state`` (the test fails if it is accepted)."""
    with pytest.raises(RuleBroken) as info:
        Play(state).do(command)
    return info.value.rule


def tribes(**kw: dict) -> tuple[Tribe, ...]:
    """The three Tribes, each with the fields given by name (``fangs={"population": 2}``)."""
    return tuple(Tribe(name=n, **kw.get(n, {})) for n in ("fangs", "bones", "eye"))


def goblin_table(*cells: CaveCell, gob: GoblinsRole | None = None, turn: str = "goblins", knight=None, **kw):
    """A Knight, Goblins and Cave table in play (the Goblins activating unless ``gob`` says otherwise)."""
    from dicelog.domain.vast.rules.goblins import built_monsters, built_secrets, war_deck

    state = table(*cells, knight=knight, turn=turn, **kw)
    return replace(
        state,
        roles=("knight", "goblins", "cave"),
        goblins=gob or GoblinsRole(phase="activate"),
        war_deck=war_deck(),
        monster_deck=built_monsters(state.rules_revision),
        secrets_deck=built_secrets(state.rules_revision),
    )
