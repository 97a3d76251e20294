"""Run every benchmark, each in its own process, and print one summary.

    python bench/run_all.py            # the real run (about 8 minutes on 2 cores)
    python bench/run_all.py --quick    # smoke run (about 1.5 minutes)
    python bench/run_all.py --only replay state_at_version

Each script prints its own figures and writes ``bench/results/<name>.json``; this writes
``bench/results/summary.json``. A missed target does not fail the run; a crashed script does
(exit status 1).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

BENCHMARKS = ("replay", "state_at_version", "memory", "http_roundtrip", "reads")


def _figures(name: str, r: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(figure, value, baseline / ratio, target verdict) rows of one result file."""
    if name == "replay":
        d, b = r["dicelog"], r["baseline"]
        rows = [
            (
                f"replay, {d['events']:,} events",
                f"{d['events_per_s']:,} events/s",
                f"library baseline {b['events_per_s']:,}/s, x{r['ratio_to_baseline']}",
                f">= 100,000/s: {common.verdict(r['target']['met'])}",
            )
        ]
        fold = d["breakdown"]["fold"]
        rows.append(("  in-memory fold only", f"{fold['events_per_s']:,} events/s", "", ""))
        if r.get("dicelog_chapter_1_game"):
            c = r["dicelog_chapter_1_game"]
            rows.append(
                (f"  a plain Chapter 1 game ({c['events']:,})", f"{c['events_per_s']:,} events/s", "", "")
            )
        return rows
    if name == "state_at_version":
        s, b = r["with_snapshots"], r["baseline_no_snapshots"]
        return [
            (
                f"state at version N ({r['samples']} N)",
                f"median {s['median_ms']:.2f} ms, p99 {s['p99_ms']:.2f} ms",
                f"no snapshots: median {b['median_ms']:.1f} ms (x{r['ratio_to_baseline_median']})",
                f"median <= 20 ms: {common.verdict(r['target']['met'])}",
            )
        ]
    if name == "memory":
        return [
            (
                f"RSS after {r['games']:,} games",
                f"{r['after_create']['rss_mb']} MB",
                f"start-up {r['startup']['rss_mb']} MB (x{r['ratio_to_startup']})",
                f"<= 200 MB: {common.verdict(r['target']['met'])}",
            ),
            ("  after one Move in each", f"{r['after_one_move_each']['rss_mb']} MB", "", ""),
        ]
    if name == "http_roundtrip":
        ds, bs = r["dicelog"]["sequential"], r["baseline"]["sequential"]
        dc, bc = r["dicelog"]["concurrent"], r["baseline"]["concurrent"]
        t = r["targets"]
        return [
            (
                "HTTP command, 1 client",
                f"median {ds['latency']['median_ms']:.2f} ms, p99 {ds['latency']['p99_ms']:.2f} ms",
                f"baseline p99 {bs['latency']['p99_ms']:.2f} ms (x{r['ratios']['p99_1_client']})",
                f"p99 <= 10 ms: {common.verdict(t['p99_1_client_ms_max']['met'])}",
            ),
            (
                f"HTTP commands, {dc['clients']} clients",
                f"{dc['commands_per_s']} cmd/s, p99 {dc['latency']['p99_ms']:.1f} ms",
                f"baseline {bc['commands_per_s']} cmd/s ({r['ratios']['throughput_32_clients']:.1%})",
                f">= 60% of baseline: {common.verdict(t['throughput_ratio_min']['met'])}",
            ),
        ]
    if name == "reads":
        lengths = r["lengths"]
        short, long = lengths[min(lengths, key=int)], lengths[max(lengths, key=int)]
        g, t = r["growth"], r["targets"]
        events = f"{short['game']['events']:,} -> {long['game']['events']:,} events"
        first, turn = long["reads"]["first page"], long["reads"]["a turn"]
        return [
            (
                f"page of 10 events, {events}",
                f"median {first['median_ms']:.2f} ms (x{g['first page']})",
                f"a turn {turn['median_ms']:.2f} ms (x{g['a turn']})",
                f"growth <= x{t['growth_max']['limit']}: {common.verdict(t['growth_max']['met'])}",
            ),
            (
                f"verify, {long['game']['events']:,} events",
                f"{long['verify']['events_per_s']:,} events/s",
                f"replay {long['replay']['events_per_s']:,}/s (x{long['verify']['ratio_to_replay']})",
                f">= 20,000/s: {common.verdict(t['verify_events_per_s_min']['met'])}",
            ),
        ]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="short smoke run of every script")
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, help="run only these")
    args = parser.parse_args(argv)
    names = args.only or BENCHMARKS
    load = common.loadavg()
    if load and load[0] > 0.5:
        print(f"warning: the machine is busy (load average {load}); figures will be skewed", flush=True)
    started = time.perf_counter()
    ran: dict[str, dict[str, Any]] = {}
    failed: list[str] = []
    for name in names:
        t0 = time.perf_counter()
        cmd = [common.PYTHON, str(common.BENCH / f"{name}.py"), *(["--quick"] if args.quick else [])]
        code = subprocess.run(cmd, cwd=common.ROOT, check=False).returncode
        seconds = round(time.perf_counter() - t0, 1)
        path = common.RESULTS / f"{name}.json"
        if code != 0 or not path.exists():
            failed.append(name)
            print(f"!! {name} failed (exit status {code})", flush=True)
            continue
        ran[name] = {"seconds": seconds, "result": json.loads(path.read_text())}
        print(f"-- {name}: {seconds} s", flush=True)
    total = round(time.perf_counter() - started, 1)
    common.header(f"summary ({'quick smoke run' if args.quick else 'full run'}, {total} s)")
    rows = [row for name, r in ran.items() for row in _figures(name, r["result"])]
    widths = [max(len(row[i]) for row in rows) if rows else 0 for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)).rstrip())
    if failed:
        print(f"failed: {failed}")
    summary = {
        "quick": args.quick,
        "total_s": total,
        "loadavg_at_start": load,
        "failed": failed,
        "seconds": {name: r["seconds"] for name, r in ran.items()},
        "figures": [dict(zip(("figure", "value", "baseline", "target"), row, strict=False)) for row in rows],
    }
    print(f"written {common.write_result('summary', summary)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
