"""Vast bot games: win rates by role, commands and time per game, for every docs/vast/facts.md §7 setup this
release plays.

    python bench/vast_bots.py [--quick] [--games N] [--setups a,b] [--workers W]

Each game is played in the domain (``dicelog.domain.core.game.run_command_and_auto_answers``, server
dice, no store, no HTTP), one
bot seat a role (``Seat.bot``, ``decision_policy: ask``), each move chosen as the server chooses a bot
seat's (``dicelog.service.app.seat_bots.next_bot_command``): the seat's command by ``vast_bot.choose`` and its
decisions, out of turn too, by ``vast_bot.decide``, reading only that seat's view (``Lens``) and the legal
commands, seeded by the game's id and version: game ``n`` of a setup is the same game on every run. A game
that reaches ``--max-commands`` (commands and decisions) is counted as ``unfinished``; one whose command
raises (a rules bug) as ``error:<exception>``.

Baseline (same run, same setups): games of random legal commands (the same harness, the choice drawn
uniformly from the legal commands), to put the bots' time per command in proportion: the bots read their
view and score every legal command, so they cost more per command than a uniform draw.

Figures per setup: winners by role (``won:<role>``, ``lost:everyone``), median and mean commands per game,
median seconds per game, median ms per command and its ratio to the baseline's.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # adds the project root to sys.path


def play(setup: str, n: int, bots: bool, max_commands: int) -> dict[str, Any]:
    """One game of ``setup`` with game number ``n``: its result, commands, seconds."""
    from datetime import UTC, datetime
    from uuid import UUID

    import msgspec

    from dicelog.domain.core.dice import commitment
    from dicelog.domain.core.events import GameCreated, Seat
    from dicelog.domain.core.game import create, fold
    from dicelog.domain.core.game import run_command_and_auto_answers as play_command
    from dicelog.domain.core.registry import rules_revision
    from dicelog.domain.core.visibility import Lens
    from dicelog.domain.vast.rules.setup import SETUPS
    from dicelog.service.app.seat_bots import next_bot_command

    at = datetime(2026, 11, 26, tzinfo=UTC)
    seed = n.to_bytes(32, "big")
    seats = tuple(Seat(name=role, controls=(role,), bot=bots) for role in SETUPS[setup].roles)
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"setup": setup})),
        seats=seats,
        dice_mode="server",
        decision_policy="ask" if bots else "default",
        dice_commitment=commitment(seed),
        rules_revision=rules_revision("vast"),
    )
    started = time.perf_counter()
    game = fold(None, create(UUID(int=n), created, at=at, seed=seed, command_id="c0"))
    rng = random.Random(n)
    commands = 0
    choosing: list[float] = []
    while game.result is None and commands < max_commands:
        if bots:  # as the server plays bot seats: each reads its own view, answers its decisions too
            before = time.perf_counter()
            move = next_bot_command(game, lambda g, viewer: Lens(g.ruleset, viewer))
            choosing.append(time.perf_counter() - before)
            if move is None:
                break
            seat, command = move
        else:
            seat, command = game.state.turn, rng.choice(game.ruleset.legal_commands(game.state))
        try:
            # the game after the new events, folded once as they were made (as the server's write path does)
            _, game = play_command(game, command, seat=seat, command_id=f"c{commands}", at=at, seed=seed)
        except Exception as error:  # noqa: BLE001  # a rules bug: this game ends there, the run goes on
            return {
                "n": n,
                "result": f"error:{type(error).__name__}",
                "commands": commands,
                "seconds": time.perf_counter() - started,
                "choose_ms": [round(t * 1000, 3) for t in choosing],
            }
        commands += 1
    return {
        "n": n,
        "result": game.result or "unfinished",
        "commands": commands,
        "seconds": time.perf_counter() - started,
        "choose_ms": [round(t * 1000, 3) for t in choosing],
    }


def _play(args: tuple[str, int, bool, int]) -> tuple[str, bool, dict[str, Any]]:
    setup, n, bots, max_commands = args
    return setup, bots, play(setup, n, bots, max_commands)


TARGET = 0.10
"""The share of a row's games each of its roles should win (issue 31)."""


def summarize(games: list[dict[str, Any]], roles: tuple[str, ...] = ()) -> dict[str, Any]:
    """Figures of ``games``; with the row's ``roles``, each role's wins and whether every role won at least
    ``TARGET`` of the games (issue 31: every role whose victory the row allows)."""
    commands = [g["commands"] for g in games]
    seconds = [g["seconds"] for g in games]
    per_command = [g["seconds"] / max(1, g["commands"]) * 1000 for g in games]
    results = collections.Counter(g["result"] for g in games)
    choose = [t for g in games for t in g.get("choose_ms", ())]
    wins = {role: results.get(f"won:{role}", 0) for role in roles}
    return {
        "games": len(games),
        "results": dict(results.most_common()),
        "wins_by_role": wins,
        "result_by_game": {g["n"]: g["result"] for g in games if "n" in g},
        "target_met": bool(games) and all(w >= TARGET * len(games) for w in wins.values()),
        "median_ms_per_bot_move": round(statistics.median(choose), 3) if choose else None,
        "median_commands": statistics.median(commands),
        "mean_commands": round(statistics.fmean(commands), 1),
        "median_seconds": round(statistics.median(seconds), 3),
        "median_ms_per_command": round(statistics.median(per_command), 3),
    }


def report(
    setup: str, played: dict[tuple[str, bool], list[dict[str, Any]]], baseline_games: int
) -> dict[str, Any]:
    """Row ``setup``'s figures, printed as one line."""
    from dicelog.domain.vast.rules.setup import SETUPS

    bot = summarize(played[(setup, True)], SETUPS[setup].roles)
    base = summarize(played[(setup, False)]) if baseline_games else None
    ratio = ""
    if base is not None:  # --baseline-games 0: no random games, no ratio
        bot["ratio_ms_per_command_to_random"] = common.ratio(
            bot["median_ms_per_command"], base["median_ms_per_command"]
        )
        ratio = f" = x{bot['ratio_ms_per_command_to_random']} random"
    wins = ", ".join(f"{k} {v}" for k, v in bot["results"].items())
    print(
        f"{setup:34} {bot['games']:3} games: {wins}; commands median {bot['median_commands']} "
        f"(mean {bot['mean_commands']}); {bot['median_seconds']} s/game; "
        f"{bot['median_ms_per_command']} ms/command{ratio}; bot move {bot['median_ms_per_bot_move']} ms; "
        f"every role >= {TARGET:.0%}: {'yes' if bot['target_met'] else 'no'}",
        flush=True,
    )
    return {"bots": bot, "random_legal": base}


def markdown(setups: dict[str, Any]) -> str:
    """The rows' figures as bench/README.md §8's table: wins by role, other ends, games, median (mean)
    commands, median seconds per game, median ms per bot move, whether every role won ``TARGET``."""
    lines = [
        "| row | wins by role | other ends | games | median commands (mean) | median s/game "
        "| median ms per bot move | every role ≥ 10 % |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for setup, figures in setups.items():
        bot = figures["bots"]
        wins = ", ".join(f"{role} {n}" for role, n in bot["wins_by_role"].items())
        other = {k: v for k, v in bot["results"].items() if k.removeprefix("won:") not in bot["wins_by_role"]}
        ends = ", ".join(f"{k} {v}" for k, v in other.items()) or "-"
        met = "yes" if bot["target_met"] else "**no**"
        lines.append(
            f"| {setup} | {wins} | {ends} | {bot['games']} "
            f"| {bot['median_commands']} ({bot['mean_commands']}) "
            f"| {bot['median_seconds']} | {bot['median_ms_per_bot_move']} | {met} |"
        )
    met = sum(f["bots"]["target_met"] for f in setups.values())
    lines.append(f"\n{met} of the {len(setups)} rows meet the target.")
    return "\n".join(lines)


def main() -> None:
    from dicelog.domain.vast.rules.setup import SETUPS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 games a setup, 1 baseline game")
    parser.add_argument("--games", type=int, default=50, help="bot games per setup")
    parser.add_argument("--baseline-games", type=int, default=5, help="random legal games per setup")
    parser.add_argument("--setups", default="", help="comma-separated row ids (default: every row)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-commands", type=int, default=3_000)
    parser.add_argument("--markdown", action="store_true", help="print the rows as a Markdown table last")
    args = parser.parse_args()
    games, baseline_games = (3, 1) if args.quick else (args.games, args.baseline_games)
    setups = [s for s in args.setups.split(",") if s] or list(SETUPS)
    jobs = [(s, n, True, args.max_commands) for s in setups for n in range(1, games + 1)]
    jobs += [(s, n, False, args.max_commands) for s in setups for n in range(1, baseline_games + 1)]
    played: dict[tuple[str, bool], list[dict[str, Any]]] = collections.defaultdict(list)
    out: dict[str, Any] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        # in the jobs' order: each row's line is printed once its games are in (a long run shows its rows
        # as it goes); the rows' random legal games come after every row's bot games
        for setup, bots, result in pool.map(_play, jobs, chunksize=2):
            played[(setup, bots)].append(result)
            if bots and len(played[(setup, True)]) == games and not baseline_games:
                out[setup] = report(setup, played, baseline_games)
            if not bots and len(played[(setup, False)]) == baseline_games:
                out[setup] = report(setup, played, baseline_games)
    path = common.write_result("vast_bots", {"games_per_setup": games, "setups": out})
    print(f"written {path}")
    if args.markdown:
        print(markdown({s: out[s] for s in setups if s in out}))


if __name__ == "__main__":
    main()
