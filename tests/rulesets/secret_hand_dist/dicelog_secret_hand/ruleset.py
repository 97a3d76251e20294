"""``secret-hand``: a tiny card game with hidden hands, to test who sees what (docs/who-sees-what.md, Hidden
information).

Rules
-----
§Setup. 2-4 players (pieces; a seat controls one or more of them), ``hand_size`` (default 3) and
``rounds`` (default 3, at most ``hand_size``, so a hand is never empty on its owner's turn). The
deck is 24 cards ``card-01`` ... ``card-24``; a card is worth its number. ``players * hand_size``
may not exceed 24.

§Deal. ``Begin`` deals ``hand_size`` cards to each player in turn, one draw per player.

§Turn. Players take turns in the setup's order; a round is one turn of every player. On its
turn a player does exactly one of:

- §Play: ``hand.Play(player, card)``: the card goes face up on the table and the player scores
  its value, then draws one card if the deck is not empty;
- §Pass: ``hand.Pass(player, card, to)``: the card goes face down to another player's hand;
- §Discard: ``hand.Discard(player)``: the player chooses (a pending ``discard`` decision, default
  the lowest card) a card of its hand and discards it face down.

§End. After ``rounds`` rounds the highest score wins (a tie goes to the first in player order).

Who sees what
-------------
A player's hand, its face-down discards, the cards it draws, the cards it gives or receives by
Pass and the options of its discard decision are secret to every seat but those controlling that
player. The deck's remaining cards are secret to everyone but the auditor (their count is
public). Played cards and scores are public. Masked cards read ``"?"``.

``CardsDrawn`` and ``DecisionMade`` carry no piece, and ``view_event`` sees one event alone, so
the player is written in the pending node the core copies into them: draws have reason
``deal:<player>`` / ``draw:<player>`` and discard decisions are ``discard:<player>``.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct
from msgspec.structs import replace

from dicelog.domain.core import registry
from dicelog.domain.core.commands import Choose, Command, Draw, Roll, Shuffle
from dicelog.domain.core.errors import NotYourTurn, RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DrawRequested,
    Event,
    GameCreated,
)
from dicelog.domain.core.ruleset import Answer, Begin
from dicelog.domain.core.visibility import Viewer
from dicelog_secret_hand.bot import BOT
from dicelog_secret_hand.catalogue import CONTENT
from dicelog_secret_hand.demo import DEMO

NAME = "secret-hand"
DECK = "deck"
CARDS: tuple[str, ...] = tuple(f"card-{n:02d}" for n in range(1, 25))
HIDDEN = "?"
"""What a masked card reads."""

PlayerName = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")]
CardId = Annotated[str, Meta(min_length=1, max_length=16)]


def value(card: str) -> int:
    """A card's value: its number (``card-07`` is worth 7)."""
    return int(card.removeprefix("card-"))


def _section(name: str) -> str:
    return f"{NAME} §{name}"


# --- setup, state ----------------------------------------------------------------------------


class Setup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    players: tuple[PlayerName, ...]
    hand_size: int = 3
    rounds: int = 3


Phase = Literal["setup", "deal", "play", "ended"]


class State(Struct, frozen=True, kw_only=True):
    """The whole table. ``deck`` holds the remaining cards, sorted (their order is never stored);
    ``drawing`` / ``discarding`` name the player a pending draw / discard decision is for."""

    players: tuple[str, ...]
    hand_size: int
    rounds: int
    hands: dict[str, tuple[str, ...]]
    deck: tuple[str, ...]
    scores: dict[str, int]
    discards: dict[str, tuple[str, ...]]
    played: tuple[str, ...] = ()
    turn: int = 0
    round: int = 0
    phase: Phase = "setup"
    dealt: int = 0
    drawing: str | None = None
    discarding: str | None = None


# --- commands --------------------------------------------------------------------------------


class Play(Command, kw_only=True, tag="hand.Play"):
    """Play ``card`` face up: score its value, then draw one card if the deck is not empty."""

    player: PlayerName
    card: CardId


class Pass(Command, kw_only=True, tag="hand.Pass"):
    """Give ``card`` face down to player ``to``."""

    player: PlayerName
    card: CardId
    to: PlayerName


class Discard(Command, kw_only=True, tag="hand.Discard"):
    """Discard a card of the hand face down (chosen by the pending ``discard`` decision)."""

    player: PlayerName


AnyCommand = Begin | Play | Pass | Discard | Roll | Shuffle | Draw | Choose
PLAYER_COMMANDS = (Play, Pass, Discard)


# --- events ----------------------------------------------------------------------------------


class RoundStarted(Event, kw_only=True):
    round: int


class TurnStarted(Event, kw_only=True):
    player: str
    round: int


class TurnEnded(Event, kw_only=True):
    player: str


class CardPlayed(Event, kw_only=True):
    """Public: the card is face up, ``points`` are scored."""

    player: str
    card: str
    points: int


class CardPassed(Event, kw_only=True):
    """Secret card: only the giver's and the receiver's seats see ``card``."""

    player: str
    to: str
    card: str


class CardDiscarded(Event, kw_only=True):
    """Face down: hidden altogether from every seat but the player's."""

    player: str
    card: str


EVENT_TYPES = (RoundStarted, TurnStarted, TurnEnded, CardPlayed, CardPassed, CardDiscarded)


# --- views -----------------------------------------------------------------------------------


class Initiative(Struct, frozen=True, kw_only=True):
    order: tuple[str, ...]
    turn: str | None
    round: int
    rounds: int
    phase: str


class Board(Struct, frozen=True, kw_only=True):
    hands: dict[str, tuple[str, ...]]
    hand_counts: dict[str, int]
    discards: dict[str, tuple[str, ...]]
    scores: dict[str, int]
    played: tuple[str, ...]
    deck_count: int


# --- helpers ---------------------------------------------------------------------------------


def _for(label: str) -> tuple[str, str | None]:
    """``("deal", "ann")`` from ``"deal:ann"`` (a pending node's reason or decision)."""
    kind, sep, player = label.partition(":")
    return kind, (player if sep else None)


def _masked(cards: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(cards)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    left = list(cards)
    if card in left:
        left.remove(card)
    return tuple(left)


def _fold(ruleset: SecretHand, state: State, events: list[Event]) -> State:
    for event in events:
        state = ruleset.evolve(state, event)
    return state


def _refuse(rule: str, section: str, detail: str, error: type[RuleBroken] = RuleBroken) -> RuleBroken:
    return error(f"hand.{rule}", section=_section(section), detail=detail)


# --- the ruleset -----------------------------------------------------------------------------


class SecretHand:
    name = NAME
    state_type = State
    command_type = AnyCommand
    event_types = EVENT_TYPES
    bot = BOT
    demo = DEMO
    content = CONTENT

    def initial_state(self, created: GameCreated) -> State:
        try:
            setup = msgspec.json.decode(created.setup, type=Setup)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise RuleBroken("setup.invalid", section=_section("Setup"), detail=str(e)) from None
        problems = []
        if not 2 <= len(setup.players) <= 4:
            problems.append("2 to 4 players")
        if len(set(setup.players)) != len(setup.players):
            problems.append("player names must differ")
        if any(p.lower().startswith("card") for p in setup.players):
            problems.append("a player name may not start with 'card'")
        if setup.hand_size < 1 or setup.hand_size * len(setup.players) > len(CARDS):
            problems.append(f"hand_size from 1 to {len(CARDS)} // players")
        if not 1 <= setup.rounds <= setup.hand_size:
            problems.append("rounds from 1 to hand_size")
        if problems:
            raise RuleBroken("setup.invalid", section=_section("Setup"), detail="; ".join(problems))
        players = setup.players
        return State(
            players=players,
            hand_size=setup.hand_size,
            rounds=setup.rounds,
            hands=dict.fromkeys(players, ()),
            deck=CARDS,
            scores=dict.fromkeys(players, 0),
            discards=dict.fromkeys(players, ()),
        )

    # decide / resolve ---------------------------------------------------------------------------

    def decide(self, state: State, command: Command) -> list[Event]:
        if isinstance(command, Begin):
            if state.phase != "setup":
                raise _refuse("already-begun", "Deal", "the cards have been dealt")
            return [self._deal(state, state.players[0])]
        if not isinstance(command, PLAYER_COMMANDS):
            raise RuleBroken("command.unknown", section=_section("Turn"), detail=type(command).__name__)
        if state.phase == "ended":
            raise _refuse("game-over", "End", "the game has ended")
        if state.phase != "play":
            raise _refuse("not-dealt", "Deal", "the cards are being dealt")
        if state.drawing is not None or state.discarding is not None:
            raise _refuse("pending", "Turn", "a draw or a discard decision is pending")
        player = command.player
        if player not in state.players:
            raise _refuse("unknown-player", "Turn", f"no player {player!r}")
        if player != self.turn_piece(state):
            raise _refuse("not-your-turn", "Turn", f"it is not {player}'s turn", NotYourTurn)
        hand = state.hands[player]
        match command:
            case Play(card=card):
                if card not in hand:
                    raise _refuse("not-in-hand", "Play", f"{card!r} is not in {player}'s hand")
                events: list[Event] = [CardPlayed(player=player, card=card, points=value(card))]
                if state.deck:
                    return [*events, self._draw(state, "draw", player, 1)]
                return events + self._end_turn(_fold(self, state, events))
            case Pass(card=card, to=to):
                if card not in hand:
                    raise _refuse("not-in-hand", "Pass", f"{card!r} is not in {player}'s hand")
                if to not in state.players:
                    raise _refuse("unknown-player", "Pass", f"no player {to!r}")
                if to == player:
                    raise _refuse("pass-to-self", "Pass", "pass the card to another player")
                events = [CardPassed(player=player, to=to, card=card)]
                return events + self._end_turn(_fold(self, state, events))
            case Discard():
                if not hand:
                    raise _refuse("empty-hand", "Discard", f"{player} has no card to discard")
                options = tuple(sorted(hand))
                return [
                    DecisionRequested(
                        decision=f"discard:{player}", options=options, piece=player, default=options[0]
                    )
                ]
        raise AssertionError("unreachable")  # pragma: no cover

    def resolve(self, state: State, answer: Answer) -> list[Event]:
        match answer:
            case CardsDrawn(reason=reason):
                kind, _ = _for(reason)
                if kind == "deal":
                    if state.dealt < len(state.players):
                        return [self._deal(state, state.players[state.dealt])]
                    first = state.players[0]
                    return [RoundStarted(round=1), TurnStarted(player=first, round=1)]
                return self._end_turn(state)
            case DecisionMade(decision=decision, option=option):
                kind, player = _for(decision)
                if kind == "discard" and player is not None:
                    events: list[Event] = [CardDiscarded(player=player, card=option)]
                    return events + self._end_turn(_fold(self, state, events))
        return []

    def _deal(self, state: State, player: str) -> DrawRequested:
        return self._draw(state, "deal", player, state.hand_size)

    def _draw(self, state: State, kind: str, player: str, count: int) -> DrawRequested:
        reason = f"{kind}:{player}"
        return DrawRequested(reason=reason, deck=DECK, cards=state.deck, count=count, piece=player)

    def _end_turn(self, state: State) -> list[Event]:
        player = state.players[state.turn]
        events: list[Event] = [TurnEnded(player=player)]
        if state.turn + 1 < len(state.players):
            return [*events, TurnStarted(player=state.players[state.turn + 1], round=state.round)]
        if state.round < state.rounds:
            nxt = state.round + 1
            return [*events, RoundStarted(round=nxt), TurnStarted(player=state.players[0], round=nxt)]
        return events  # the last turn: evolve ends the game

    # evolve ------------------------------------------------------------------------------------

    def evolve(self, state: State, event: Event) -> State:
        match event:
            case DrawRequested(reason=reason, piece=piece):
                kind, _ = _for(reason)
                phase = "deal" if kind == "deal" else state.phase
                return replace(state, drawing=piece, phase=phase)
            case CardsDrawn(reason=reason, cards=cards):
                kind, named = _for(reason)
                player = state.drawing or named
                deck = tuple(c for c in state.deck if c not in cards)
                hands = state.hands
                if player in hands:
                    hands = {**hands, player: tuple(sorted(hands[player] + tuple(cards)))}
                dealt = state.dealt + 1 if kind == "deal" else state.dealt
                return replace(state, deck=deck, hands=hands, drawing=None, dealt=dealt)
            case DecisionRequested(decision=decision, piece=piece):
                return replace(state, discarding=piece) if _for(decision)[0] == "discard" else state
            case RoundStarted(round=n):
                return replace(state, round=n, phase="play")
            case TurnStarted(player=player):
                turn = state.players.index(player) if player in state.players else state.turn
                return replace(state, turn=turn)
            case TurnEnded():
                last = state.turn == len(state.players) - 1 and state.round >= state.rounds
                return replace(state, phase="ended") if last else state
            case CardPlayed(player=player, card=card, points=points):
                return replace(
                    state,
                    hands={**state.hands, player: _without(state.hands.get(player, ()), card)},
                    played=(*state.played, card),
                    scores={**state.scores, player: state.scores.get(player, 0) + points},
                )
            case CardPassed(player=player, to=to, card=card):
                hands = {**state.hands, player: _without(state.hands.get(player, ()), card)}
                hands[to] = tuple(sorted((*hands.get(to, ()), card)))
                return replace(state, hands=hands)
            case CardDiscarded(player=player, card=card):
                return replace(
                    state,
                    hands={**state.hands, player: _without(state.hands.get(player, ()), card)},
                    discards={**state.discards, player: (*state.discards.get(player, ()), card)},
                    discarding=None,
                )
        return state

    # questions about the state --------------------------------------------------------------------

    def outcome(self, state: State) -> str | None:
        if state.phase != "ended":
            return None
        return f"won:{max(state.players, key=lambda p: state.scores.get(p, 0))}"

    def piece_of(self, command: Command) -> str | None:
        return command.player if isinstance(command, PLAYER_COMMANDS) else None

    def turn_piece(self, state: State) -> str | None:
        return state.players[state.turn] if state.phase == "play" else None

    def legal_commands(self, state: State) -> list[Command]:
        if state.phase == "setup":
            return [Begin()]
        player = self.turn_piece(state)
        if player is None or state.drawing is not None or state.discarding is not None:
            return []
        hand = state.hands[player]
        others = [p for p in state.players if p != player]
        return [
            *(Play(player=player, card=c) for c in hand),
            *(Pass(player=player, card=c, to=to) for c in hand for to in others),
            *([Discard(player=player)] if hand else []),
        ]

    def initiative_view(self, state: State) -> Initiative:
        return Initiative(
            order=state.players,
            turn=self.turn_piece(state),
            round=state.round,
            rounds=state.rounds,
            phase=state.phase,
        )

    def board_view(self, state: State) -> Board:
        return Board(
            hands=dict(state.hands),
            hand_counts={p: len(h) for p, h in state.hands.items()},
            discards=dict(state.discards),
            scores=dict(state.scores),
            played=state.played,
            deck_count=len(state.deck),
        )

    def describe(self, state: State, event: Event) -> str | None:
        match event:
            case RoundStarted(round=n):
                return f"Round {n} of {state.rounds} begins"
            case TurnStarted(player=player):
                return f"{player}'s turn"
            case CardPlayed(player=player, card=card, points=points):
                return f"{player} plays {card} and scores {points} (total {state.scores.get(player, 0)})"
            case CardPassed(player=player, to=to, card=card):
                return f"{player} passes {_card(card)} face down to {to}"
            case CardDiscarded(player=player, card=card):
                return f"{player} discards {_card(card)} face down"
            case DrawRequested(reason=reason, count=count, piece=piece):
                kind, _ = _for(reason)
                verb = "is dealt" if kind == "deal" else "draws"
                return f"{piece} {verb} {count} card{'s' if count != 1 else ''}"
            case CardsDrawn(reason=reason, cards=cards):
                _, player = _for(reason)
                shown = [c for c in cards if c != HIDDEN]
                return f"{player} gets {', '.join(shown)}" if shown else None
            case DecisionRequested(decision=decision):
                kind, player = _for(decision)
                return f"{player} chooses a card to discard" if kind == "discard" else None
        return None

    # who sees what -----------------------------------------------------------------------------

    def view_event(self, event: Event, viewer: Viewer) -> Event | None:
        if viewer.kind == "auditor":
            return event
        match event:
            case DrawRequested(cards=cards):  # the remaining deck: secret even to the drawing player
                return replace(event, cards=_masked(cards))
            case CardsDrawn(reason=reason, cards=cards):
                owner = getattr(event, "piece", None) or _for(reason)[1]
                return event if viewer.sees_piece(owner) else replace(event, cards=_masked(cards))
            case DecisionRequested(decision=decision, options=options, piece=piece):
                if _for(decision)[0] != "discard" or viewer.sees_piece(piece):
                    return event
                return replace(event, options=_masked(options), default=HIDDEN if event.default else None)
            case DecisionMade(decision=decision):
                kind, player = _for(decision)
                if kind != "discard" or viewer.sees_piece(player):
                    return event
                return replace(event, option=HIDDEN)
            case CardPassed(player=player, to=to):
                seen = viewer.sees_piece(player) or viewer.sees_piece(to)
                return event if seen else replace(event, card=HIDDEN)
            case CardDiscarded(player=player):
                return event if viewer.sees_piece(player) else None
        return event

    def view_state(self, state: State, viewer: Viewer) -> State:
        if viewer.kind == "auditor":
            return state
        return replace(
            state,
            hands={p: h if viewer.sees_piece(p) else _masked(h) for p, h in state.hands.items()},
            discards={p: d if viewer.sees_piece(p) else _masked(d) for p, d in state.discards.items()},
            deck=_masked(state.deck),
        )

    def view_command(self, command: Command, viewer: Viewer) -> Command | None:
        if viewer.kind == "auditor":
            return command
        if isinstance(command, Pass):
            seen = viewer.sees_piece(command.player) or viewer.sees_piece(command.to)
            return command if seen else replace(command, card=HIDDEN)
        if isinstance(command, (Draw, Choose)):  # answers: the event that follows tells what may be known
            return None
        return command


def _card(card: str) -> str:
    return "a card" if card == HIDDEN else card


SECRET_HAND = SecretHand()


def register() -> SecretHand:
    """Make ``secret-hand`` known to ``dicelog.domain.core.registry`` (idempotent; the registry finds it
    by its entry point anyway, once this distribution is installed)."""
    registry.register(SECRET_HAND)
    return SECRET_HAND
