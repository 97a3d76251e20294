"""The web table in a real browser: first paint of a 1,000-event game's table, and a step of the
history slider.

    python bench/web_table.py [--quick] [--loads N] [--steps N]

A live dicelog (``dicelog.service.cli.demo.running_service``: embedded default, SQLite in a temp dir, quotas
off) and Debian's Chromium driven by Playwright (``/usr/bin/chromium``, headless). The game is a
Chapter 1 game played by the demo's bots (server dice) until it holds at least 1,000 events
(another seed if one ends first); it is still running, so the seat whose turn it is has controls.

- **table first paint**: a fresh browser context (cold cache) opens ``/play/{id}#token=<seat>``;
  the page records ``performance.now()`` (milliseconds since the navigation started) in the
  first animation frame after the whole table (board, tracks, cards, controls, initiative, log)
  was rendered. Target: median < 1,000 ms.
- **history slider step**: on ``/play/{id}/history``, the slider is focused and moved one version
  at a time with the arrow keys, and also set to random versions; the page records the time from
  the slider's ``input`` event to the board of that version drawn (``GET /state?version=N`` plus
  the SVG). Target: median < 100 ms (each version is asked for the first time: no cache hit).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx
from common import CHROMIUM, CHROMIUM_ARGS, header, summarize_ms, verdict, write_result

MICE = ["collin", "filch", "maginos", "nez"]


def long_game(base: str, events: int) -> tuple[str, dict[str, str]]:
    """A running Chapter 1 game of at least ``events`` events (demo bots, server dice)."""
    from dicelog.domain.mice_and_mystics.bot import choose_command as choose
    from dicelog.domain.mice_and_mystics.bot import decode_state

    http = httpx.Client(base_url=base, timeout=30)
    for seed in range(1, 20):
        rng = random.Random(seed)
        body = {
            "ruleset": "mice-and-mystics",
            "setup": {"chapter": "chapter-1", "mice": MICE},
            "seats": [{"name": f"seat-{m}", "controls": [m]} for m in MICE],
            "visibility": "public",
        }
        created = http.post("/games", json=body).json()
        game = created["game"]["id"]
        tokens = {t["seat"]: t["token"] for t in created["tokens"]}
        while True:
            summary = http.get(f"/games/{game}").json()
            if summary["result"] is not None or summary["turn"] is None:
                break
            if summary["version"] >= events:
                return game, tokens
            seat = f"seat-{summary['turn']}"
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = http.get(f"/games/{game}/legal-commands", headers=auth).json()
            state = decode_state(http.get(f"/games/{game}/state").json()["state"])
            command = choose(legal["commands"], rng, state, summary["turn"])
            http.post(f"/games/{game}/commands", headers=auth, json={"command": command})
    raise RuntimeError(f"no game reached {events} events")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer loads and steps")
    parser.add_argument("--loads", type=int, default=10, help="table loads (fresh contexts)")
    parser.add_argument("--steps", type=int, default=60, help="slider steps of each kind")
    parser.add_argument("--events", type=int, default=1000, help="events of the game")
    args = parser.parse_args()
    if args.quick:
        args.loads, args.steps = 3, 10
    from playwright.sync_api import sync_playwright

    from dicelog.service.cli.demo import running_service
    from dicelog.service.ops.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            data_dir=Path(tmp), rate_limit_create="off", rate_limit_commands="off", rate_limit_expensive="off"
        )
        with running_service(settings) as base, sync_playwright() as playwright:
            header(f"a running game of at least {args.events} events")
            started = time.monotonic()
            game, tokens = long_game(base, args.events)
            summary = httpx.get(f"{base}/games/{game}").json()
            seat = f"seat-{summary['turn']}"
            print(
                f"game {game}: {summary['version']} events, {seat} to play ({time.monotonic() - started:.1f} "
                "s)"
            )
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                header("table first paint (fresh context each time)")
                paints, readies = [], []
                for _ in range(args.loads):
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    page = context.new_page()
                    start = time.perf_counter_ns()
                    page.goto(f"{base}/play/{game}#token={tokens[seat]}")
                    page.wait_for_selector("body[data-first-paint-ms]", timeout=30_000)
                    readies.append(time.perf_counter_ns() - start)
                    paints.append(int(float(page.get_attribute("body", "data-first-paint-ms")) * 1e6))
                    assert page.locator("#controls button.command").count() > 0, (
                        "the seat's controls are drawn"
                    )
                    context.close()
                paint = summarize_ms(paints)
                ready = summarize_ms(readies)
                print(
                    f"first paint: median {paint['median_ms']:.0f} ms, max {paint['max_ms']:.0f} ms "
                    f"(driver's view, goto -> painted: median {ready['median_ms']:.0f} ms) "
                    f"target < 1000 ms: {verdict(paint['median_ms'] < 1000)}"
                )

                header("history slider step")
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                start = time.perf_counter_ns()
                page.goto(f"{base}/play/{game}/history")
                page.wait_for_selector("body[data-ready=true]", timeout=30_000)
                history_load = (time.perf_counter_ns() - start) / 1e6
                latest = int(page.get_attribute("body", "data-version"))
                slider = page.locator("#version")
                slider.focus()

                def step(action: object, version: int) -> int:
                    action()  # type: ignore[operator]
                    page.wait_for_selector(f"#board svg[data-version='{version}']", timeout=10_000)
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
    adjacent_ms = summarize_ms(adjacent)
    jumps_ms = summarize_ms(jumps)
    print(f"history page load ({latest} events): {history_load:.0f} ms")
    print(
        f"step to the previous version (arrow key): median {adjacent_ms['median_ms']:.1f} ms, "
        f"p90 {adjacent_ms['p90_ms']:.1f} ms  target < 100 ms: {verdict(adjacent_ms['median_ms'] < 100)}"
    )
    print(
        f"jump to a random version: median {jumps_ms['median_ms']:.1f} ms, p90 {jumps_ms['p90_ms']:.1f} ms  "
        f"target < 100 ms: {verdict(jumps_ms['median_ms'] < 100)}"
    )
    path = write_result(
        "web_table",
        {
            "events": summary["version"],
            "loads": args.loads,
            "steps": args.steps,
            "table_first_paint": paint,
            "table_goto_to_painted": ready,
            "history_load_ms": round(history_load, 1),
            "slider_step_adjacent": adjacent_ms,
            "slider_step_random": jumps_ms,
            "targets": {"table_first_paint_median_ms": 1000, "slider_step_median_ms": 100},
            "met": {
                "table_first_paint": paint["median_ms"] < 1000,
                "slider_step": adjacent_ms["median_ms"] < 100 and jumps_ms["median_ms"] < 100,
            },
        },
    )
    print(f"written {path}")


if __name__ == "__main__":
    main()
