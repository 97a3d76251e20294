"""Browser tests of the web table: a live dicelog (``dicelog.service.cli.demo.running_service``) driven by
Debian's Chromium through Playwright for Python.

Playwright's own browser download is not available here: the browser is ``/usr/bin/chromium``
(``apt-get install -y chromium``; ``.ci/run`` installs it). Without it, or without the
``playwright`` package, these tests skip, and fail under ``REQUIRE_SERVICES=1`` (as in CI).
Screenshots are written to ``tests/browser/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dicelog.service.ops.settings import Settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).parent / "screenshots"


def _unavailable(why: str) -> None:
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"the browser tests need Chromium and Playwright (REQUIRE_SERVICES=1): {why}")
    pytest.skip(f"browser unavailable: {why}")


def settings_in(directory: Path) -> Settings:
    """The embedded default (SQLite, in-process fan-out) in ``directory``, without quotas."""
    return Settings(
        data_dir=directory, rate_limit_create="off", rate_limit_commands="off", rate_limit_expensive="off"
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        _unavailable(f"the playwright package is missing ({e}): pip install -e '.[test]'")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live dicelog serving the shipped rulesets; its base URL."""
    from dicelog.service.cli.demo import running_service

    with running_service(settings_in(tmp_path_factory.mktemp("live"))) as base:
        yield base


@pytest.fixture(scope="session")
def live_secret_hand(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live dicelog serving the test ruleset with secret hands (as tests/api/test_who_sees_what.py
    serves it: ``create_app(rulesets=...)``); its base URL."""
    from dicelog.service.cli import demo
    from dicelog.service.http.app import create_app
    from dicelog_secret_hand.ruleset import register

    register()
    settings = settings_in(tmp_path_factory.mktemp("live-secret-hand"))
    with demo.running_service(settings, app=create_app(settings, rulesets=("secret-hand",))) as base:
        yield base


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        yield ctx
    finally:
        ctx.close()


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
