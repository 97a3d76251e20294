"""``secret-hand``: a small card game with secrets, played through the core, and who sees what.

The visibility tests do not trust the ruleset's own masking: the cards secret from a seat are
computed here from the full state (other players' hands and face-down discards, the deck), minus
what the event in hand legitimately tells that seat, and no view may contain one of them.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from uuid import uuid4

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.commands import Choose, Draw, RequestUndo
from dicelog.domain.core.dice import commitment, draw_cards
from dicelog.domain.core.errors import GameOver, NotYourTurn, PendingFirst, RuleBroken
from dicelog.domain.core.events import (
    CardsDrawn,
    CommandAccepted,
    DecisionMade,
    DecisionRequested,
    DrawRequested,
    GameCreated,
    GameEnded,
    Seat,
    UndoApplied,
)
from dicelog.domain.core.game import (
    ListHistory,
    create,
    fold,
    run_command_and_auto_answers_records,
    run_command_records,
)
from dicelog.domain.core.ruleset import Begin
from dicelog.domain.core.verify import verify
from dicelog.domain.core.visibility import AUDITOR_VIEWER, SPECTATOR_VIEWER, Lens, seat_viewer
from dicelog_secret_hand import bot as secret_hand_bot
from dicelog_secret_hand.ruleset import (
    CARDS,
    SECRET_HAND,
    CardDiscarded,
    CardPassed,
    CardPlayed,
    Discard,
    Pass,
    Play,
    RoundStarted,
    TurnEnded,
    TurnStarted,
    register,
    value,
)

register()

AT = datetime(2026, 11, 22, tzinfo=UTC)
SEED = bytes(range(32))
TWO_SEATS = (Seat(name="one", controls=("ann",)), Seat(name="two", controls=("bob",)))
CARD = re.compile(r"card-\d\d")


def new_game(
    players=("ann", "bob"), seats=TWO_SEATS, *, mode="manual", seed=None, policy="ask", undo="none", **setup
):
    created = GameCreated(
        ruleset="secret-hand",
        setup=msgspec.Raw(msgspec.json.encode({"players": list(players), **setup})),
        seats=seats,
        dice_mode=mode,
        decision_policy=policy,
        undo_policy=undo,
        dice_commitment=commitment(seed) if seed else None,
    )
    records = create(uuid4(), created, at=AT, seed=seed, command_id="c0")
    return records, fold(None, records)


def run(records, game, command, seat="one", seed=None, history=False):
    new = run_command_and_auto_answers_records(
        game,
        command,
        seat=seat,
        command_id=f"c{game.version}",
        at=AT,
        seed=seed,
        history=ListHistory(records) if history else None,
    )
    return records + new, fold(game, new)


def refused(game, command, seat="one"):
    return run_command_records(game, command, seat=seat, command_id="x", at=AT, seed=None)


def payloads(records):
    return [r.payload for r in records]


def dealt(hand_ann=("card-09", "card-01", "card-05"), hand_bob=("card-24", "card-02", "card-13"), **kw):
    """A manual-mode game dealt with the given hands."""
    records, game = new_game(**kw)
    records, game = run(records, game, Draw(cards=hand_ann), seat="one")
    records, game = run(records, game, Draw(cards=hand_bob), seat="two")
    return records, game


# --- setup and deal ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "setup",
    [
        {"players": ["ann"]},
        {"players": ["a", "b", "c", "d", "e"]},
        {"players": ["ann", "ann"]},
        {"players": ["ann", "bob"], "jokers": 2},
        {"players": ["ann", "bob"], "hand_size": 3, "rounds": 4},
        {"players": ["ann", "bob"], "hand_size": 0},
        {"players": ["a", "b", "c", "d"], "hand_size": 7},
        {"players": ["ann", "card-01"]},
        {"players": ["ann", "b:c"]},
        {"players": "ann,bob"},
    ],
)
def test_an_invalid_setup_is_refused(setup):
    raw = msgspec.Raw(msgspec.json.encode(setup))
    created = GameCreated(ruleset="secret-hand", setup=raw, seats=TWO_SEATS)
    with pytest.raises(RuleBroken, match="setup.invalid"):
        create(uuid4(), created, at=AT, seed=None, command_id="c0")


def test_begin_deals_hand_size_cards_to_each_player_in_turn_in_manual_mode():
    records, game = new_game()
    names = [type(p).__name__ for p in payloads(records)]
    assert names == ["GameCreated", "CommandAccepted", "DrawRequested"]
    assert game.pending == DrawRequested(reason="deal:ann", deck="deck", cards=CARDS, count=3, piece="ann")
    assert SECRET_HAND.legal_commands(game.state) == []
    with pytest.raises(PendingFirst):
        refused(game, Play(player="ann", card="card-01"))
    records, game = run(records, game, Draw(cards=("card-09", "card-01", "card-05")), seat="one")
    rest = tuple(c for c in CARDS if c not in ("card-01", "card-05", "card-09"))
    assert game.pending == DrawRequested(reason="deal:bob", deck="deck", cards=rest, count=3, piece="bob")
    assert game.state.hands == {"ann": ("card-01", "card-05", "card-09"), "bob": ()}
    with pytest.raises(RuleBroken, match="draw.not-in-deck"):
        refused(game, Draw(cards=("card-01", "card-02", "card-03")), seat="two")
    records, game = run(records, game, Draw(cards=("card-24", "card-02", "card-13")), seat="two")
    assert payloads(records)[-2:] == [RoundStarted(round=1), TurnStarted(player="ann", round=1)]
    assert game.pending is None and game.state.phase == "play" and game.state.round == 1
    assert game.state.hands["bob"] == ("card-02", "card-13", "card-24")
    assert len(game.state.deck) == 18 and list(game.state.deck) == sorted(game.state.deck)
    assert SECRET_HAND.turn_piece(game.state) == "ann"
    with pytest.raises(RuleBroken, match="hand.already-begun"):
        refused(game, Begin())


def test_server_mode_deals_from_the_seed():
    players = ("ann", "bob", "cyd")
    seats = (Seat(name="one", controls=("ann", "cyd")), Seat(name="two", controls=("bob",)))
    records, game = new_game(players, seats, mode="server", seed=SEED, hand_size=4, rounds=2)
    assert game.pending is None and game.state.phase == "play"
    deck, k = CARDS, 0
    for player in players:
        cards = draw_cards(SEED, k, deck, 4)
        assert game.state.hands[player] == tuple(sorted(cards))
        deck, k = tuple(c for c in deck if c not in cards), k + 1
    assert game.state.deck == deck and len(deck) == 24 - 12
    drawn = [p for p in payloads(records) if isinstance(p, CardsDrawn)]
    assert [d.reason for d in drawn] == ["deal:ann", "deal:bob", "deal:cyd"]


# --- a turn ---------------------------------------------------------------------------------------


def test_play_scores_the_card_draws_a_replacement_and_passes_the_turn():
    records, game = dealt()
    records, game = run(records, game, Play(player="ann", card="card-09"))
    assert payloads(records)[-2:] == [
        CardPlayed(player="ann", card="card-09", points=9),
        DrawRequested(reason="draw:ann", deck="deck", cards=game.state.deck, count=1, piece="ann"),
    ]
    assert game.state.scores == {"ann": 9, "bob": 0} and game.state.played == ("card-09",)
    assert SECRET_HAND.turn_piece(game.state) == "ann" and SECRET_HAND.legal_commands(game.state) == []
    records, game = run(records, game, Draw(cards=("card-03",)), seat="one")
    assert game.state.hands["ann"] == ("card-01", "card-03", "card-05") and len(game.state.deck) == 17
    assert payloads(records)[-2:] == [TurnEnded(player="ann"), TurnStarted(player="bob", round=1)]
    assert SECRET_HAND.turn_piece(game.state) == "bob"


def test_play_from_an_empty_deck_draws_nothing():
    players = ("ann", "bob", "cyd", "dee")
    seats = tuple(Seat(name=f"s{i}", controls=(p,)) for i, p in enumerate(players))
    records, game = new_game(players, seats, mode="server", seed=SEED, hand_size=6, rounds=1)
    assert game.state.deck == () and all(len(h) == 6 for h in game.state.hands.values())
    card = game.state.hands["ann"][0]
    records, game = run(records, game, Play(player="ann", card=card), seat="s0", seed=SEED)
    assert payloads(records)[-3:] == [
        CardPlayed(player="ann", card=card, points=value(card)),
        TurnEnded(player="ann"),
        TurnStarted(player="bob", round=1),
    ]
    assert len(game.state.hands["ann"]) == 5


def test_pass_gives_the_card_face_down_to_another_player():
    records, game = dealt()
    records, game = run(records, game, Pass(player="ann", card="card-05", to="bob"))
    assert payloads(records)[-3:] == [
        CardPassed(player="ann", to="bob", card="card-05"),
        TurnEnded(player="ann"),
        TurnStarted(player="bob", round=1),
    ]
    assert game.state.hands == {
        "ann": ("card-01", "card-09"),
        "bob": ("card-02", "card-05", "card-13", "card-24"),
    }
    assert game.state.scores == {"ann": 0, "bob": 0} and len(game.state.deck) == 18


def test_discard_asks_which_card_and_discards_it_face_down():
    records, game = dealt()
    records, game = run(records, game, Discard(player="ann"))
    options = ("card-01", "card-05", "card-09")
    asked = DecisionRequested(decision="discard:ann", options=options, piece="ann", default="card-01")
    assert game.pending == asked
    assert SECRET_HAND.legal_commands(game.state) == []
    with pytest.raises(RuleBroken, match="choose.not-an-option"):
        refused(game, Choose(option="card-24"))
    records, game = run(records, game, Choose(option="card-05"))
    assert payloads(records)[-4:] == [
        DecisionMade(decision="discard:ann", option="card-05", by="one"),
        CardDiscarded(player="ann", card="card-05"),
        TurnEnded(player="ann"),
        TurnStarted(player="bob", round=1),
    ]
    assert game.state.hands["ann"] == ("card-01", "card-09") and game.state.discards["ann"] == ("card-05",)


def test_the_default_policy_discards_the_lowest_card():
    records, game = dealt(policy="default")
    records, game = run(records, game, Discard(player="ann"))
    assert game.state.discards["ann"] == ("card-01",) and payloads(records)[-4].by == "policy"


@pytest.mark.parametrize(
    ("command", "seat", "rule", "error", "section"),
    [
        (Play(player="bob", card="card-02"), "two", "hand.not-your-turn", NotYourTurn, "§Turn"),
        (Discard(player="bob"), "two", "hand.not-your-turn", NotYourTurn, "§Turn"),
        (Play(player="zed", card="card-01"), "one", "hand.unknown-player", RuleBroken, "§Turn"),
        (Play(player="ann", card="card-02"), "one", "hand.not-in-hand", RuleBroken, "§Play"),
        (Play(player="ann", card="card-99"), "one", "hand.not-in-hand", RuleBroken, "§Play"),
        (Pass(player="ann", card="card-13", to="bob"), "one", "hand.not-in-hand", RuleBroken, "§Pass"),
        (Pass(player="ann", card="card-01", to="zed"), "one", "hand.unknown-player", RuleBroken, "§Pass"),
        (Pass(player="ann", card="card-01", to="ann"), "one", "hand.pass-to-self", RuleBroken, "§Pass"),
    ],
)
def test_refusals_name_the_rule_and_the_section(command, seat, rule, error, section):
    _, game = dealt()
    with pytest.raises(error, match=rule) as caught:
        refused(game, command, seat)
    assert caught.value.section == f"secret-hand {section}" and type(caught.value) is error


def test_the_game_ends_after_the_rounds_and_the_highest_score_wins():
    records, game = dealt(
        hand_size=2, rounds=2, hand_ann=("card-01", "card-02"), hand_bob=("card-03", "card-04")
    )
    records, game = run(records, game, Play(player="ann", card="card-02"))
    records, game = run(records, game, Draw(cards=("card-20",)))
    records, game = run(records, game, Pass(player="bob", card="card-04", to="ann"), seat="two")
    assert payloads(records)[-2:] == [RoundStarted(round=2), TurnStarted(player="ann", round=2)]
    assert game.state.round == 2 and game.result is None
    records, game = run(records, game, Play(player="ann", card="card-20"))
    records, game = run(records, game, Draw(cards=("card-05",)))
    assert payloads(records)[-2:] == [TurnEnded(player="ann"), TurnStarted(player="bob", round=2)]
    records, game = run(records, game, Play(player="bob", card="card-03"), seat="two")
    assert game.pending is not None and game.result is None
    records, game = run(records, game, Draw(cards=("card-24",)), seat="two")
    assert payloads(records)[-2:] == [TurnEnded(player="bob"), GameEnded(result="won:ann")]
    assert game.result == "won:ann" and game.state.scores == {"ann": 22, "bob": 3}
    assert SECRET_HAND.legal_commands(game.state) == [] and SECRET_HAND.turn_piece(game.state) is None
    with pytest.raises(GameOver):
        refused(game, Play(player="ann", card="card-01"))
    assert verify(records).ok


def test_a_tie_goes_to_the_first_player_in_order():
    _, game = dealt()
    state = replace(game.state, phase="ended", scores={"ann": 7, "bob": 7})
    assert SECRET_HAND.outcome(state) == "won:ann"
    assert SECRET_HAND.outcome(replace(state, scores={"ann": 6, "bob": 7})) == "won:bob"


def test_views_and_log_lines():
    records, game = dealt()
    board = SECRET_HAND.board_view(game.state)
    assert board.hand_counts == {"ann": 3, "bob": 3} and board.deck_count == 18
    assert SECRET_HAND.initiative_view(game.state).turn == "ann"
    records, game = run(records, game, Pass(player="ann", card="card-05", to="bob"))
    shown = Lens(SECRET_HAND, SPECTATOR_VIEWER).event(records[-3].payload)
    assert SECRET_HAND.describe(game.state, shown) == "ann passes a card face down to bob"
    assert SECRET_HAND.describe(game.state, records[-3].payload) == "ann passes card-05 face down to bob"


def test_a_secret_hand_game_survives_its_own_encoding():
    _, game = dealt()
    raw = msgspec.json.encode(game.state)
    assert msgspec.json.decode(raw, type=SECRET_HAND.state_type) == game.state
    decode = msgspec.json.Decoder(SECRET_HAND.command_type).decode
    for command in (
        Play(player="ann", card="card-01"),
        Pass(player="ann", card="card-01", to="bob"),
        Discard(player="ann"),
    ):
        encoded = msgspec.json.encode(command)
        assert encoded.startswith(b'{"type":"hand.') and decode(encoded) == command


# --- random games ---------------------------------------------------------------------------------

PLAYERS = ("ann", "bob", "cyd", "dee")


def random_table(rng: random.Random):
    players = PLAYERS[: rng.randint(2, 4)]
    names = ["one", "two", "three", "four"][: rng.randint(1, len(players))]
    owner = {p: names[i] if i < len(names) else rng.choice(names) for i, p in enumerate(players)}
    seats = tuple(Seat(name=n, controls=tuple(p for p in players if owner[p] == n)) for n in names)
    hand_size = rng.randint(1, 24 // len(players))
    return players, seats, {"hand_size": hand_size, "rounds": rng.randint(1, min(hand_size, 4))}


def controller(game, piece):
    return next(s.name for s in game.created.seats if piece in s.controls)


def random_game(n: int):
    """One whole random game (its records); a seat plays its players with the bot."""
    rng = random.Random(n)
    players, seats, setup = random_table(rng)
    mode = rng.choice(("server", "manual"))
    seed = rng.randbytes(32) if mode == "server" else None
    policy = rng.choice(("ask", "default"))
    records, game = new_game(players, seats, mode=mode, seed=seed, policy=policy, **setup)
    for _ in range(1000):
        if game.result is not None:
            return records, game
        pending = game.pending
        if isinstance(pending, DrawRequested):
            cards = tuple(rng.sample(pending.cards, min(pending.count, len(pending.cards))))
            command, seat = Draw(cards=cards), controller(game, pending.piece)
        elif isinstance(pending, DecisionRequested):
            command, seat = Choose(option=rng.choice(pending.options)), controller(game, pending.piece)
        else:
            assert pending is None
            command = secret_hand_bot.choose(SECRET_HAND.legal_commands(game.state), rng)
            seat = controller(game, SECRET_HAND.piece_of(command))
        records, game = run(records, game, command, seat=seat, seed=seed)
    raise AssertionError("the game did not end")


GAMES = [random_game(n) for n in range(50)]


@pytest.mark.parametrize("n", range(50))
def test_random_legal_games_end_with_the_best_score_winning_and_verify(n):
    records, game = GAMES[n]
    state = game.state
    best = max(state.scores.values())
    assert game.result == f"won:{next(p for p in state.players if state.scores[p] == best)}"
    turns = [p for p in payloads(records) if isinstance(p, TurnStarted)]
    assert len(turns) == len(state.players) * state.rounds
    assert sum(isinstance(p, RoundStarted) for p in payloads(records)) == state.rounds
    every = [c for h in state.hands.values() for c in h] + [c for d in state.discards.values() for c in d]
    assert sorted(every + list(state.played) + list(state.deck)) == list(CARDS)
    report = verify(records)
    assert report.ok, report.divergence


def all_commands(players):
    yield Begin()
    for p in players:
        yield Discard(player=p)
        for card in CARDS:
            yield Play(player=p, card=card)
            for to in players:
                yield Pass(player=p, card=card, to=to)


@pytest.mark.parametrize("n", range(6))
def test_legal_commands_are_exactly_what_decide_accepts(n):
    records, _ = GAMES[n]
    game = None
    for record in records:
        game = fold(game, [record])
        state = game.state
        legal = SECRET_HAND.legal_commands(state)
        if game.pending is not None:
            assert legal == []
        accepted = []
        for command in all_commands(state.players):
            try:
                SECRET_HAND.decide(state, command)
            except RuleBroken:
                continue
            accepted.append(command)
        if game.pending is None:
            assert sorted(map(msgspec.json.encode, accepted)) == sorted(map(msgspec.json.encode, legal))


# --- who sees what --------------------------------------------------------------------------------


def cards_in(value) -> set[str]:
    return set(CARD.findall(msgspec.json.encode(value).decode())) if value is not None else set()


def secret_from(state, pieces) -> set[str]:
    """Every card a reader controlling ``pieces`` may not know: the deck, the hands and face-down
    discards of the other players."""
    hidden = set(state.deck)
    for p in state.players:
        if p not in pieces:
            hidden |= set(state.hands[p]) | set(state.discards[p])
    return hidden


def told(payload, pending, pieces, sender_is_reader, decode) -> set[str]:
    """The cards ``payload`` may tell a reader controlling ``pieces`` (its own commands whole)."""
    if isinstance(payload, CommandAccepted):
        command = decode(payload.command)
        if sender_is_reader or isinstance(command, Play):
            return cards_in(command)
        if isinstance(command, Pass) and {command.player, command.to} & pieces:
            return {command.card}
        return set()
    if isinstance(payload, CardPlayed):
        return {payload.card}
    if isinstance(payload, CardPassed):
        return {payload.card} if {payload.player, payload.to} & pieces else set()
    if isinstance(payload, CardDiscarded):
        return {payload.card} if payload.player in pieces else set()
    if isinstance(payload, (CardsDrawn, DecisionMade, DecisionRequested)):
        piece = payload.piece if isinstance(payload, DecisionRequested) else pending.piece
        return cards_in(payload) if piece in pieces else set()
    return set()


def readers(game):
    seats = game.created.seats
    return [(seat_viewer(seats, s.name), set(s.controls)) for s in seats] + [(SPECTATOR_VIEWER, set())]


@pytest.mark.parametrize("n", range(50))
def test_no_view_of_a_seat_or_spectator_shows_a_card_secret_from_it(n):
    records, _ = GAMES[n]
    decode = msgspec.json.Decoder(SECRET_HAND.command_type).decode
    game = None
    hidden_somewhere = 0
    for record in records:
        pending = game.pending if game is not None else None
        game = fold(game, [record])
        state = game.state
        for viewer, pieces in readers(game):
            lens = Lens(SECRET_HAND, viewer)
            secret = secret_from(state, pieces)
            event = lens.event(record.payload, seat=record.seat)
            allowed = told(record.payload, pending, pieces, record.seat == viewer.seat, decode)
            leaked = cards_in(event) & (secret - allowed)
            assert not leaked, (viewer.audience, record.payload, event)
            seen = lens.state(state)
            board, initiative = SECRET_HAND.board_view(seen), SECRET_HAND.initiative_view(seen)
            views = [seen, board, initiative, lens.event(game.pending)]
            assert not cards_in(views) & secret, (viewer.audience, state)
            if event is not None:
                assert not cards_in(SECRET_HAND.describe(seen, event)) & (secret - allowed)
            # what the reader may see is there, and every count is kept
            assert {p: h for p, h in seen.hands.items() if p in pieces} == {p: state.hands[p] for p in pieces}
            assert {p: len(h) for p, h in seen.hands.items()} == {p: len(h) for p, h in state.hands.items()}
            counts = {p: len(d) for p, d in state.discards.items()}
            assert {p: len(d) for p, d in seen.discards.items()} == counts
            assert len(seen.deck) == len(state.deck) and seen.played == state.played
            assert seen.scores == state.scores
            hidden_somewhere += event != record.payload
    assert hidden_somewhere > 0


@pytest.mark.parametrize("n", range(0, 50, 5))
def test_the_auditor_and_an_ended_game_show_everything(n):
    records, game = GAMES[n]
    seats = game.created.seats
    lenses = [
        Lens(SECRET_HAND, AUDITOR_VIEWER),
        Lens(SECRET_HAND, seat_viewer(seats, seats[0].name), reveal=True),
        Lens(SECRET_HAND, SPECTATOR_VIEWER, reveal=True),
    ]
    game = None
    for record in records:
        game = fold(game, [record])
        for lens in lenses:
            assert lens.event(record.payload) is record.payload
            assert lens.state(game.state) is game.state
        # the ruleset's own functions, asked directly for the auditor, mask nothing either
        assert SECRET_HAND.view_event(record.payload, AUDITOR_VIEWER) == record.payload
        assert SECRET_HAND.view_state(game.state, AUDITOR_VIEWER) == game.state


def test_each_secret_is_shown_to_its_seats_and_masked_for_the_others():
    seats = (
        Seat(name="one", controls=("ann",)),
        Seat(name="two", controls=("bob",)),
        Seat(name="three", controls=("cyd",)),
    )
    records, game = new_game(("ann", "bob", "cyd"), seats)
    one, two, three = (Lens(SECRET_HAND, seat_viewer(seats, s.name)) for s in seats)
    deal = game.pending
    for lens in (one, two, three):  # the remaining deck is secret even to the drawing player
        assert lens.event(deal).cards == ("?",) * 24 and lens.event(deal).count == 3
    records, game = run(records, game, Draw(cards=("card-09", "card-01", "card-05")))
    drawn = records[-2].payload
    assert one.event(drawn) == drawn and two.event(drawn).cards == ("?", "?", "?")
    records, game = run(records, game, Draw(cards=("card-02", "card-13", "card-24")), seat="two")
    records, game = run(records, game, Draw(cards=("card-03", "card-04", "card-06")), seat="three")
    assert two.state(game.state).hands == {
        "ann": ("?",) * 3,
        "bob": ("card-02", "card-13", "card-24"),
        "cyd": ("?",) * 3,
    }
    assert two.state(game.state).deck == ("?",) * 15
    records, game = run(records, game, Pass(player="ann", card="card-05", to="bob"))
    accepted, passed = records[-4].payload, records[-3].payload
    assert two.event(passed) == passed and three.event(passed).card == "?"
    assert b"card-05" in bytes(two.event(accepted, seat="one").command)
    assert b"card-05" not in bytes(three.event(accepted, seat="one").command)
    masked = three.command(Pass(player="ann", card="card-05", to="bob"))
    assert masked == Pass(player="ann", card="?", to="bob")
    records, game = run(records, game, Discard(player="bob"), seat="two")
    asked = game.pending
    assert two.event(asked) == asked
    assert one.event(asked).options == ("?",) * 4 and one.event(asked).default == "?"
    records, game = run(records, game, Choose(option="card-13"), seat="two")
    made, discarded = records[-4].payload, records[-3].payload
    assert isinstance(made, DecisionMade) and one.event(made).option == "?" and two.event(made) == made
    assert one.event(discarded) is None and three.event(discarded) is None
    assert two.event(discarded) == discarded
    assert bytes(one.event(records[-5].payload, seat="two").command) == b'{"type":"Choose"}'
    assert one.state(game.state).discards == {"ann": (), "bob": ("?",), "cyd": ()}
    records, game = run(records, game, Play(player="cyd", card="card-06"), seat="three")
    assert one.event(records[-2].payload) == records[-2].payload  # CardPlayed is public
    assert one.event(records[-1].payload).cards == ("?",) * 15  # the replacement draw is pending


def test_an_undo_shows_the_restored_state_and_pending_draw_masked():
    seats = (Seat(name="one", controls=("ann",)), Seat(name="two", controls=("bob",)))
    records, game = new_game(undo="host")
    records, game = run(records, game, Draw(cards=("card-09", "card-01", "card-05")), seat="one")
    before_bob = game.version
    records, game = run(records, game, Draw(cards=("card-24", "card-02", "card-13")), seat="two")
    records, game = run(records, game, RequestUndo(to_version=before_bob), seat="one", history=True)
    applied = records[-1].payload
    assert isinstance(applied, UndoApplied) and game.pending is not None and game.state.hands["bob"] == ()
    for name, pieces in (("one", {"ann"}), ("two", {"bob"})):
        shown = Lens(SECRET_HAND, seat_viewer(seats, name)).event(applied)
        state = msgspec.json.decode(shown.state, type=SECRET_HAND.state_type)
        assert not cards_in(state) & secret_from(game.state, pieces)
        assert not cards_in(msgspec.json.decode(shown.game)["pending"])
    auditor = Lens(SECRET_HAND, AUDITOR_VIEWER).event(applied)
    assert auditor is applied
    assert verify(records).ok
