"""Audit and replay views over a game's stored events (issue: Replay, audit and undo).

Pure functions of the records (and of states the caller loads): which events were undone, the
round of each event, the events of one turn or round, and the dice proof.

The API reads only what it returns: ``Games.event_page`` / ``Games.span`` read a page or a turn
and mark it from the game's index (``dicelog.projections.game_index``), ``Games.chance_records`` decodes only
what the dice proof looks at, and ``marked_out`` renders the marked events. ``audit_events`` and
``span`` over a whole log give the same answers (``dicelog export`` uses them; the tests compare).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicelog.domain.core.describe import describe_core
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import (
    CardsDrawn,
    CardsShuffled,
    CommandAccepted,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    GameCreated,
    GameEnded,
    RollRequested,
    ShuffleRequested,
)
from dicelog.domain.core.game import Game, Recorded, fold
from dicelog.domain.core.undo import starts_round, starts_turn, undone_versions
from dicelog.domain.core.verify import chance_events, inherited_chances, rederive
from dicelog.domain.core.visibility import Lens
from dicelog.service.bodies.render import builtins, event_out
from dicelog.service.bodies.schemas import ChanceOut, DiceProof, EventOut, TurnCommand, TurnEvent


def rounds_by_version(ruleset: Any, records: Sequence[Recorded]) -> dict[int, int]:
    """Round number of every event from the first round start on."""
    current, rounds = 0, {}
    for record in records:
        if starts_round(ruleset, record.payload):
            current += 1
        if current:
            rounds[record.originator_version] = current
    return rounds


def turns_by_version(ruleset: Any, records: Sequence[Recorded]) -> dict[int, int]:
    """Turn number of every event inside a turn: from a turn's start (``starts_turn``) to the event before
    the next turn or round starts (``span``); the events outside any turn are left out."""
    current, inside, turns = 0, False, {}
    for record in records:
        if starts_turn(ruleset, record.payload):
            current, inside = current + 1, True
        elif starts_round(ruleset, record.payload):
            inside = False
        if inside:
            turns[record.originator_version] = current
    return turns


def audit_events(ruleset: Any, records: Sequence[Recorded], lens: Lens) -> list[EventOut]:
    """Every event with its ``undone`` mark, round and turn, as ``lens`` shows it."""
    undone = undone_versions(records)
    rounds = rounds_by_version(ruleset, records)
    turns = turns_by_version(ruleset, records)
    return [
        event_out(
            r,
            lens,
            undone=r.originator_version in undone,
            round_=rounds.get(r.originator_version),
            turn=turns.get(r.originator_version),
        )
        for r in records
    ]


def marked_out(marked: Sequence[Any], lens: Lens) -> list[EventOut]:
    """Events marked by ``Games.marked`` (record, undone, round, turn), as ``lens`` shows them."""
    return [event_out(m.record, lens, undone=m.undone, round_=m.round, turn=m.turn) for m in marked]


def span(ruleset: Any, records: Sequence[Recorded], kind: str, number: int) -> tuple[int, int] | None:
    """(first, last) version of turn/round ``number`` (1-based), or ``None`` if there is none.

    A turn runs from the event that starts it to the event before the next turn (or round)
    starts; a round, from its start to the event before the next round starts.
    """
    starts = starts_turn if kind == "turn" else starts_round
    begins = [r.originator_version for r in records if starts(ruleset, r.payload)]
    if not 1 <= number <= len(begins):
        return None
    first = begins[number - 1]
    ends = [
        r.originator_version
        for r in records
        if r.originator_version > first
        and (starts(ruleset, r.payload) or (kind == "turn" and starts_round(ruleset, r.payload)))
    ]
    last = (ends[0] - 1) if ends else records[-1].originator_version
    return first, last


def turn_parts(game_before: Game, records: Sequence[Recorded], lens: Lens) -> dict[str, Any]:
    """Commands, dice, decisions and log lines of a stretch of events after ``game_before``, as
    ``lens`` shows them (log lines are described from the masked state and event)."""
    commands, dice, decisions, log = [], [], [], []
    game = game_before
    for record in records:
        game = fold(game, [record])
        payload = lens.event(record.payload, seat=record.seat)
        v = record.originator_version
        if payload is None:
            log.append(f"v{v}: ({type(record.payload).__name__}, hidden)")
            continue
        if isinstance(payload, CommandAccepted):
            commands.append(TurnCommand(version=v, seat=record.seat, command=builtins(payload)["command"]))
        elif isinstance(
            payload, (RollRequested, DiceRolled, ShuffleRequested, CardsShuffled, DrawRequested, CardsDrawn)
        ):
            dice.append(TurnEvent(version=v, event=builtins(payload)))
        elif isinstance(payload, (DecisionRequested, DecisionMade)):
            decisions.append(TurnEvent(version=v, event=builtins(payload)))
        line = describe(game, payload, lens)
        if line:
            log.append(f"v{v}: {line}")
    return {"commands": commands, "dice": dice, "decisions": decisions, "log": log, "after": game}


def describe(game: Game, shown: Any, lens: Lens) -> str | None:
    """The log line of an event (already through ``lens``) in the game after it, from what the
    lens shows of the state."""
    return game.ruleset.describe(lens.state(game.state), shown) or describe_core(shown)


def dice_proof(records: Sequence[Recorded], lens: Lens) -> DiceProof:
    """The commitment, the seed once revealed, and every chance event (as ``lens`` shows it),
    re-derived if possible."""
    created = records[0].payload
    if not isinstance(created, GameCreated):
        raise InvariantViolated("game-starts", f"first event {type(created).__name__}, not GameCreated")
    ended = next((r.payload for r in records if isinstance(r.payload, GameEnded)), None)
    seed_hex = ended.seed if ended is not None else None
    seed = bytes.fromhex(seed_hex) if seed_hex else None
    chances: list[ChanceOut] = []
    inherited = inherited_chances(created)
    for record, k, pending in chance_events(records):
        p = record.payload
        if not isinstance(p, (DiceRolled, CardsShuffled, CardsDrawn)):
            raise InvariantViolated("chance-event", f"chance_events gave {type(p).__name__}")
        shown = lens.event(p)
        if shown is None:
            chances.append(
                ChanceOut(
                    version=record.originator_version,
                    k=k,
                    type=type(p).__name__,
                    reason="",
                    result=[],
                    source=p.source,
                    hidden=True,
                )
            )
            continue
        if not isinstance(shown, (DiceRolled, CardsShuffled, CardsDrawn)):  # the lens keeps the type
            raise InvariantViolated("chance-event", f"the lens showed {type(shown).__name__}")
        result: list[int | str] = list(
            shown.faces
            if isinstance(shown, DiceRolled)
            else shown.order
            if isinstance(shown, CardsShuffled)
            else shown.cards
        )
        ok = None
        if seed is not None and lens.full and p.source == "server" and record.originator_version > inherited:
            derived, logged = rederive(seed, k, pending, p)
            ok = derived == logged
        chances.append(
            ChanceOut(
                version=record.originator_version,
                k=k,
                type=type(p).__name__,
                reason=shown.reason,
                result=result,
                source=p.source,
                rederived=ok,
            )
        )
    return DiceProof(
        game_id=records[0].originator_id,
        dice_mode=created.dice_mode,
        commitment=created.dice_commitment,
        seed=seed_hex,
        seed_matches_commitment=None if seed is None else commitment(seed) == created.dice_commitment,
        chances=chances,
    )
