"""The Vast web table in a real browser: first paint of the table of a 1,000-event five-role game, and a
step of its history page.

    python bench/web_table_vast.py [--quick] [--loads N] [--steps N] [--events N]

A live dicelog (``dicelog.service.cli.demo.running_service``: embedded default, SQLite in a temp dir, quotas
off) and Debian's Chromium driven by Playwright (``/usr/bin/chromium``, headless). The game has the five
roles (docs/vast/facts.md §7); the Goblins, the Dragon, the Cave and the Thief are server bot seats and
the Knight is played over HTTP by the ruleset's bot (``Vast.bot.choose`` on her own view), server dice,
until the game holds at least ``--events`` events (another seed if one ends first); it is still running.

- **table first paint**: a fresh browser context (cold cache) opens ``/play/{id}#token=<knight>``; the
  page records ``performance.now()`` (milliseconds since the navigation started) in the first animation
  frame after the whole table (the cave's SVG, the five player boards, controls, initiative, log) was
  rendered. Target: median < 1,000 ms. Not a timed test: the machine is shared, report its load.
- **baseline, in the same run**: the same first paint of a new five-role game's table (its setup only,
  about 30 events), loads interleaved with the long game's; the ratio long / new says what the 1,000
  events cost, whatever the machine's load.
- **history step**: on ``/play/{id}/history#token=<knight>``, the slider is focused and moved one version
  at a time with the arrow keys, and also set to random versions; the page records the time from the
  slider's ``input`` event to the cave and the five player boards of that version drawn (``GET
  /state?version=N``, ``/board?version=N`` and ``/initiative?version=N``, three replays, plus the SVG).
  Target: median < 100 ms (each version is asked for the first time: no cache hit).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx
from common import CHROMIUM, CHROMIUM_ARGS, header, summarize_ms, verdict, write_result

ROLES = ("knight", "goblins", "dragon", "cave", "thief")


def long_game(base: str, events: int) -> tuple[str, str]:
    """A running five-role game of at least ``events`` events; its id and the Knight's token."""
    http = httpx.Client(base_url=base, timeout=60)
    for seed in range(1, 30):
        rng = random.Random(seed)
        seats = [{"name": r, "controls": [r], "bot": r != "knight"} for r in ROLES]
        body = {"ruleset": "vast", "setup": {"roles": list(ROLES)}, "seats": seats, "visibility": "public"}
        created = http.post("/games", json=body).json()
        game = created["game"]["id"]
        token = next(t["token"] for t in created["tokens"] if t["seat"] == "knight")
        auth = {"Authorization": f"Bearer {token}"}
        for _ in range(20_000):
            summary = http.get(f"/games/{game}", headers=auth).json()
            if summary["result"] is not None:
                break
            if summary["version"] >= events:
                return game, token
            legal = http.get(f"/games/{game}/legal-commands", headers=auth).json()
            if legal["pending"] is not None and legal["pending_seat"] == "knight":
                command = {"type": "Choose", "option": legal["pending"]["options"][0]}
            elif legal["commands"]:  # the Knight plays at random, ending her turn one time in four
                acts = [c for c in legal["commands"] if c["type"] != "vast.EndTurn"]
                command = rng.choice(acts) if acts and rng.random() < 0.75 else legal["commands"][-1]
            else:
                time.sleep(0.02)  # a bot seat is playing
                continue
            http.post(f"/games/{game}/commands", headers=auth, json={"command": command})
    raise RuntimeError(f"no game reached {events} events")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer loads")
    parser.add_argument("--loads", type=int, default=10, help="table loads (fresh contexts)")
    parser.add_argument("--steps", type=int, default=40, help="history steps of each kind")
    parser.add_argument("--events", type=int, default=1000, help="events of the game")
    args = parser.parse_args()
    if args.quick:
        args.loads, args.steps = 3, 10
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from playwright.sync_api import sync_playwright

    from dicelog.service.cli.demo import running_service
    from dicelog.service.ops.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            data_dir=Path(tmp), rate_limit_create="off", rate_limit_commands="off", rate_limit_expensive="off"
        )
        with running_service(settings) as base, sync_playwright() as playwright:
            header(f"a running five-role Vast game of at least {args.events} events")
            started = time.monotonic()
            game, token = long_game(base, args.events)
            fresh, fresh_token = long_game(base, 1)  # a new game: its setup only
            summary = httpx.get(f"{base}/games/{game}").json()
            print(f"game {game}: {summary['version']} events ({time.monotonic() - started:.1f} s)")
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                header("Vast table first paint (fresh context each time)")
                paints, readies, baseline, cells = [], [], [], 0

                def paint(game_id: str, seat_token: str) -> tuple[int, int, int]:
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    page = context.new_page()
                    start = time.perf_counter_ns()
                    page.goto(f"{base}/play/{game_id}#token={seat_token}")
                    page.wait_for_selector("body[data-first-paint-ms]", timeout=30_000)
                    ready_ns = time.perf_counter_ns() - start
                    painted = int(float(page.get_attribute("body", "data-first-paint-ms")) * 1e6)
                    tiles = page.locator(".vast-map .vast-cell").count()
                    assert tiles > 0 and page.locator(".vast-board").count() == len(ROLES), (
                        "the table is drawn"
                    )
                    context.close()
                    return painted, ready_ns, tiles

                for _ in range(args.loads):
                    painted, ready_ns, cells = paint(game, token)
                    paints.append(painted)
                    readies.append(ready_ns)
                    baseline.append(paint(fresh, fresh_token)[0])

                header("Vast history step (the Knight's history page)")
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                start = time.perf_counter_ns()
                page.goto(f"{base}/play/{game}/history#token={token}")
                page.wait_for_selector("body[data-ready=true]", timeout=60_000)
                history_load = (time.perf_counter_ns() - start) / 1e6
                latest = int(page.get_attribute("body", "data-version"))
                slider = page.locator("#version")
                slider.focus()

                def step(action: object, version: int) -> int:
                    action()  # type: ignore[operator]
                    page.wait_for_selector(f"#board svg.vast-map[data-version='{version}']", timeout=30_000)
                    page.wait_for_function(f"document.body.dataset.version === '{version}'", timeout=30_000)
                    assert page.locator(".vast-board").count() == len(ROLES), "the five boards are drawn"
                    return int(float(page.get_attribute("body", "data-step-ms")) * 1e6)

                adjacent = [
                    step(lambda: page.keyboard.press("ArrowLeft"), latest - i - 1) for i in range(args.steps)
                ]
                rng = random.Random(1)
                seen = {latest - i for i in range(args.steps + 1)}
                jumps = []
                for version in rng.sample([v for v in range(1, latest) if v not in seen], args.steps):
                    jumps.append(step(lambda v=version: slider.fill(str(v)), version))
                context.close()
            finally:
                browser.close()
    paint = summarize_ms(paints)
    ready = summarize_ms(readies)
    new = summarize_ms(baseline)
    ratio = paint["median_ms"] / new["median_ms"]
    adjacent_ms = summarize_ms(adjacent)
    jumps_ms = summarize_ms(jumps)
    load = os.getloadavg()[0]
    print(
        f"first paint: median {paint['median_ms']:.0f} ms, max {paint['max_ms']:.0f} ms "
        f"(driver's view, goto -> painted: median {ready['median_ms']:.0f} ms; {cells} tiles; load average "
        f"{load:.1f}) target < 1000 ms: {verdict(paint['median_ms'] < 1000)}"
    )
    print(
        f"baseline, a new game's table in the same run: median {new['median_ms']:.0f} ms; ratio {ratio:.2f}"
    )
    path = write_result(
        "web_table_vast",
        {
            "events": summary["version"],
            "loads": args.loads,
            "tiles": cells,
            "load_average_1m": round(load, 2),
            "table_first_paint": paint,
            "table_goto_to_painted": ready,
            "baseline_new_game_first_paint": new,
            "ratio_to_baseline": round(ratio, 2),
            "steps": args.steps,
            "history_load_ms": round(history_load, 1),
            "history_step_adjacent": adjacent_ms,
            "history_step_random": jumps_ms,
            "targets": {"table_first_paint_median_ms": 1000, "history_step_median_ms": 100},
            "met": {
                "table_first_paint": paint["median_ms"] < 1000,
                "history_step": adjacent_ms["median_ms"] < 100 and jumps_ms["median_ms"] < 100,
            },
        },
    )
    print(f"history page load ({latest} events): {history_load:.0f} ms")
    print(
        f"history step to the previous version (arrow key): median {adjacent_ms['median_ms']:.1f} ms, "
        f"p90 {adjacent_ms['p90_ms']:.1f} ms  target < 100 ms: {verdict(adjacent_ms['median_ms'] < 100)}"
    )
    print(
        f"history jump to a random version: median {jumps_ms['median_ms']:.1f} ms, "
        f"p90 {jumps_ms['p90_ms']:.1f} ms  target < 100 ms: {verdict(jumps_ms['median_ms'] < 100)}"
    )
    print(f"written {path}")


if __name__ == "__main__":
    main()
