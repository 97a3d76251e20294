"""Verifiable secrets: what chain format 2 costs verify, and how fast a reader checks its own view.

    .venv/bin/python bench/verify_secrets.py [--quick] [--runs R] [--games G]

G five-role Vast games (Knight, Goblins, Dragon, Cave, Thief) are played by the bots to their end through
``dicelog.domain.core.game.run_command_and_auto_answers_records`` (server dice, default decisions), each
twice from the same seed and the
same bot choices: once of chain format 2 (a view key: every event salted, its chain hash over its link and
payload digest) and once of chain format 1 (no key: the chain hash over the whole stored envelope), so both
logs hold the same events. Timed in memory (no store), each run separately, medians reported:

- ``verify`` of the whole format-2 log (chain, re-derivation, dice, salts from the revealed view key), in
  events/s; **baseline**: ``verify`` of the same game's format-1 log, same run;
- ``verify_view`` of the Knight's view taken midway (built with ``viewed`` through her lens), in events/s;
- ``verify_against``: that view against the final format-2 log (which includes a full ``verify``).

Target: format 2 costs verify at most x1.5 of the format-1 baseline.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

ROLES = ("knight", "goblins", "dragon", "cave", "thief")
AT = datetime(2026, 11, 26, tzinfo=UTC)


def play_game(seed_n: int, key: bytes | None) -> list[Any]:
    """A five-role game played by the bots (each from its own seat's view) to its end."""
    import msgspec

    from dicelog.domain.core.dice import commitment
    from dicelog.domain.core.events import GameCreated, Seat
    from dicelog.domain.core.game import CHAIN_FORMAT, create, fold, run_command_and_auto_answers_records
    from dicelog.domain.core.registry import rules_revision
    from dicelog.domain.core.visibility import Lens, seat_viewer
    from dicelog.domain.vast.bot import choose

    seats = tuple(Seat(name=r, controls=(r,)) for r in ROLES)
    seed = seed_n.to_bytes(32, "big")
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"roles": list(ROLES)})),
        seats=seats,
        decision_policy="default",
        dice_commitment=commitment(seed),
        rules_revision=rules_revision("vast"),
        chain_format=CHAIN_FORMAT if key else 1,
        view_key_commitment=commitment(key) if key else None,
    )
    records = create(uuid4(), created, at=AT, seed=seed, command_id="c0", nonce_key=key)
    game = fold(None, records)
    rng = random.Random(seed_n)
    for n in range(5_000):
        if game.result is not None:
            break
        seat = game.state.turn
        view = Lens(game.ruleset, seat_viewer(seats, seat)).state(game.state)
        command = choose(view, game.ruleset.legal_commands(game.state), rng)
        new = run_command_and_auto_answers_records(
            game, command, seat=seat, command_id=f"c{n}", at=AT, seed=seed, nonce_key=key
        )
        game = fold(game, new)
        records += new
    return records


def timed(fn: Any, runs: int) -> tuple[float, Any]:
    """Median seconds of ``runs`` calls of ``fn`` and its last answer."""
    samples, answer = [], None
    for _ in range(runs):
        start = time.perf_counter_ns()
        answer = fn()
        samples.append((time.perf_counter_ns() - start) / 1e9)
    return statistics.median(samples), answer


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from dicelog.domain.core.game import envelope_bytes, fold
    from dicelog.domain.core.verify import verify, verify_against, verify_view, viewed
    from dicelog.domain.core.visibility import Lens, seat_viewer

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="1 game, 3 runs (smoke run)")
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 9)
    count = args.games or (1 if args.quick else 3)
    common.header(f"verify_secrets: {count} five-role Vast games, chain format 2 vs 1, {runs} runs")
    rows = []
    for g in range(count):
        key = bytes(range(g, g + 32))
        two, one = play_game(100 + g, key), play_game(100 + g, None)
        assert [type(r.payload) for r in two] == [type(r.payload) for r in one], "the same game twice"
        n = len(two)
        stored2, stored1 = [envelope_bytes(r) for r in two], [envelope_bytes(r) for r in one]
        t2, v2 = timed(lambda two=two, stored2=stored2: verify(two, stored2), runs)
        t1, v1 = timed(lambda one=one, stored1=stored1: verify(one, stored1), runs)
        assert v2.ok and v2.view_key_revealed and v1.ok and v1.chain_format == 1, (v2, v1)
        half = n // 2
        mid = fold(None, two[:half])
        lens = Lens(mid.ruleset, seat_viewer(mid.created.seats, "knight"))
        view = [viewed(r, lens) for r in two[:half]]
        tv, vv = timed(lambda view=view, two=two: verify_view(two[0].originator_id, view), runs)
        ta, va = timed(
            lambda view=view, two=two, stored2=stored2: verify_against(
                two[0].originator_id, view, two, stored2
            ),
            runs,
        )
        assert vv.ok and va.ok, (vv, va)
        row = {
            "events": n,
            "result": str(fold(None, two).result),
            "verify_format_2_events_per_s": round(n / t2),
            "verify_format_1_events_per_s (baseline)": round(n / t1),
            "format_2_time_ratio": common.ratio(t2, t1),
            "view_events": half,
            "view_digest_only": len(vv.digest_only),
            "verify_view_events_per_s": round(half / tv),
            "verify_against_events_per_s": round(n / ta),
        }
        rows.append(row)
        print(
            f"game {g + 1}: {n:,} events ({row['result']}); verify format 2"
            f" {row['verify_format_2_events_per_s']:,} events/s vs format 1"
            f" {row['verify_format_1_events_per_s (baseline)']:,} (x{row['format_2_time_ratio']} the time);"
            f" the Knight's view of {half:,} events ({len(vv.digest_only):,} by digest only):"
            f" verify_view {row['verify_view_events_per_s']:,} events/s, verify_against"
            f" {row['verify_against_events_per_s']:,} events/s",
            flush=True,
        )
    worst = max(r["format_2_time_ratio"] for r in rows)
    summary = {
        "median_format_2_time_ratio": statistics.median(r["format_2_time_ratio"] for r in rows),
        "worst_format_2_time_ratio": worst,
        "target": "format 2 costs verify at most x1.5 of format 1",
        "verdict": common.verdict(worst <= 1.5),
    }
    print(
        f"format 2 / format 1 verify time: median x{summary['median_format_2_time_ratio']}, worst x{worst}:"
        f" {summary['verdict']}"
    )
    result = {"runs": runs, "games": rows, "summary": summary}
    print(f"result: {common.write_result('verify_secrets', result)}")
    return result


if __name__ == "__main__":
    main()
