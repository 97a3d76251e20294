"""The web table's shell names no game (issue 29, docs/web-table.md): what is game-specific is the
ruleset's table and lobby modules, served from its package. The shell's modules (the table, the
history page and the lobby) carry no term of either game outside comments."""

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "service" / "http" / "web" / "static" / "js"
SHELL = ("table.js", "generic.js", "api.js", "live.js", "history.js", "lobby.js")
PAGES = ("table.html", "history.html", "lobby.html")
GAME_TERMS = re.compile(
    r"mice|mouse|minion|cheese|hourglass|initiative track|action.die|vast|knight|dragon|goblin|thief",
    re.IGNORECASE,
)


def code_of(source: str) -> str:
    """The source without its // line comments (a URL's // inside a string is kept)."""
    lines = []
    for line in source.splitlines():
        stripped = line.lstrip()
        lines.append("" if stripped.startswith("//") else re.sub(r"\s//\s.*$", "", line))
    return "\n".join(lines)


@pytest.mark.parametrize("module", SHELL)
def test_the_shell_module_names_no_game(module: str) -> None:
    found = sorted({m.group(0).lower() for m in GAME_TERMS.finditer(code_of((STATIC / module).read_text()))})
    assert found == [], f"{module} names {found}"


@pytest.mark.parametrize("name", PAGES)
def test_the_shell_page_names_no_game(name: str) -> None:
    found = sorted({m.group(0).lower() for m in GAME_TERMS.finditer((STATIC.parent / name).read_text())})
    assert found == [], f"{name} names {found}"


def test_the_guard_sees_a_game_term_in_code_not_in_a_comment() -> None:
    assert GAME_TERMS.search(code_of('const x = "minion";'))
    assert not GAME_TERMS.search(code_of("// the minions play\nconst y = 1;"))


MICE_WEB = Path(__file__).resolve().parents[2] / "domain" / "mice_and_mystics" / "web"
VAST_TERMS = re.compile(r"vast|knight|dragon|goblin|thief|crystal cavern", re.IGNORECASE)


@pytest.mark.parametrize("module", sorted(p.name for p in MICE_WEB.glob("*.js")))
def test_the_mice_and_mystics_modules_name_no_other_game(module: str) -> None:
    """The history page words a Vast game with Vast's own table module, not with Mice and Mystics' labels."""
    code = code_of((MICE_WEB / module).read_text())
    found = sorted({m.group(0).lower() for m in VAST_TERMS.finditer(code)})
    assert found == [], f"{module} names {found}"


def test_the_history_page_finds_turns_and_rounds_by_the_servers_marks_not_by_event_names() -> None:
    """Turns and rounds are each event's ``turn`` and ``round`` (GET /events): a ruleset names its turn
    and round events as it likes (Vast's are ``VastTurnStarted``, ``VastRoundStarted``)."""
    code = code_of((STATIC / "history.js").read_text())
    assert re.findall(r"TurnStarted|RoundStarted", code) == []
