"""Helpers of the browser tests: the API side of a game, and waiting for a page."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

MICE = ["collin", "filch", "maginos", "nez"]


class ApiGame:
    """A game created through the REST API, with its tokens."""

    def __init__(self, base: str, body: dict[str, Any]) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        r = self.http.post("/games", json=body)
        assert r.status_code == 201, r.text
        created = r.json()
        self.body = body
        self.id = created["game"]["id"]
        self.tokens = {t["seat"]: t["token"] for t in created["tokens"]}
        self.spectator_token = created["spectator_token"]
        self.auditor_token = created["auditor_token"]
        self.table_token = created.get("table_token")

    def auth(self, seat: str | None) -> dict[str, str]:
        token = self.auditor_token if seat == "auditor" else self.tokens.get(seat or "")
        return {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, tail: str, seat: str | None = None, **params: Any) -> Any:
        r = self.http.get(f"/games/{self.id}{tail}", headers=self.auth(seat), params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def send(self, seat: str, command: dict[str, Any]) -> Any:
        r = self.http.post(f"/games/{self.id}/commands", headers=self.auth(seat), json={"command": command})
        assert r.status_code == 201, r.text
        return r.json()

    def events(self, seat: str | None = None) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        after = 0
        while True:
            page = self.get("/events", seat, after=after, limit=1000)
            events.extend(page["events"])
            if page["next_after"] is None:
                return events
            after = page["next_after"]

    def url(self, base: str, seat: str | None = None, tail: str = "") -> str:
        token = self.auditor_token if seat == "auditor" else self.tokens.get(seat or "")
        return f"{base}/play/{self.id}{tail}" + (f"#token={token}" if token else "")


def mice_game(
    base: str,
    *,
    dice_mode: str,
    seats: list[dict[str, Any]],
    visibility: str = "public",
    undo_policy: str | None = None,
) -> ApiGame:
    """A Chapter 1 game of the four mice; ``undo_policy`` when given (the service's default otherwise)."""
    body: dict[str, Any] = {
        "ruleset": "mice-and-mystics",
        "setup": {"chapter": "chapter-1", "mice": MICE},
        "seats": seats,
        "dice_mode": dice_mode,
        "visibility": visibility,
    }
    if undo_policy is not None:
        body["undo_policy"] = undo_policy
    return ApiGame(base, body)


def ready(page: Any, timeout: float = 15_000) -> None:
    page.wait_for_selector("body[data-ready=true]", timeout=timeout)


def wait_version(page: Any, version: int, timeout: float = 10_000) -> None:
    """Until the page shows ``version`` (or later) and sends nothing."""
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v && !document.body.dataset.busy",
        arg=version,
        timeout=timeout,
    )


def play_demo_game(base: str, seed: int = 7, max_commands: int = 5000) -> ApiGame:
    """A Chapter 1 game played to its end over HTTP by the demo's bots
    (``dicelog.domain.mice_and_mystics.bot.choose_command``)."""
    from dicelog.domain.mice_and_mystics.bot import choose_command as choose
    from dicelog.domain.mice_and_mystics.bot import decode_state

    rng = random.Random(seed)
    seats = [{"name": f"seat-{m}", "controls": [m]} for m in MICE]
    game = mice_game(base, dice_mode="server", seats=seats)
    for _ in range(max_commands):
        summary = game.get("")
        if summary["result"] is not None or summary["turn"] is None:
            break
        seat = f"seat-{summary['turn']}"
        legal = game.get("/legal-commands", seat)
        state = decode_state(game.get("/state")["state"])
        game.send(seat, choose(legal["commands"], rng, state, summary["turn"]))
    return game


def positions(state: dict[str, Any]) -> dict[str, str]:
    """Figure -> space of a Mice and Mystics state document."""
    return {figure: space for space, figures in state["board"].items() for figure in figures}


AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """The axe-core violations of ``impacts`` on the page as it is now (axe-core 4.14.1, vendored with its
    licence in ``tests/browser/vendor/axe-core``), each as ``{id, impact, help, nodes: [target, ...]}``."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE.read_text())
    found = page.evaluate(
        """async () => {
            const r = await window.axe.run(document, { resultTypes: ["violations"] });
            return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "")) }));
        }"""
    )
    return [v for v in found if v["impact"] in impacts]


# Tap targets under 24 px (WCAG 2.2 2.5.8): every shown button, link, field, summary and focusable element,
# except the board's SVG targets, whose every action is also a button among the controls (the equivalent
# exception), and what lies outside the page (the skip link until focused).
SMALL_TARGETS = """() => {
  const small = [];
  const targets = 'button, a[href], input, select, textarea, summary, [role=button], [tabindex="0"]';
  for (const n of document.querySelectorAll(targets)) {
    if (n.closest('svg')) continue;
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= 0 || r.bottom <= 0) continue;
    if (getComputedStyle(n).visibility === 'hidden') continue;
    const name = (n.textContent || n.getAttribute('aria-label') || '').trim().slice(0, 30);
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.width < 24 || r.height < 24) small.push(`${n.tagName.toLowerCase()}#${n.id} "${name}" ${size}`);
  }
  return small;
}"""

SIDEWAYS = "() => document.scrollingElement.scrollWidth - window.innerWidth"

OUTSIDE_ITS_TILE = """() => [...document.querySelectorAll('.vast-map .vast-cell')].flatMap((g) => {
  const x = Number(g.dataset.x) * 100, y = -Number(g.dataset.y) * 100;
  return [...g.querySelectorAll('text')].filter((t) => {
    const b = t.getBBox();
    return b.width > 0 && (b.x < x || b.y < y || b.x + b.width > x + 100 || b.y + b.height > y + 100);
  }).map((t) => `${g.dataset.x},${g.dataset.y}: ${t.textContent}`);
})"""
"""The words drawn on a Vast tile (its room, what a Dark tile hides, its coordinates, the marks of its pieces
and tokens) that reach outside the tile's square (100 SVG units), as ``"x,y: text"``."""
