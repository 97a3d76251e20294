"""Every decision the ruleset can ask is documented for client authors (docs/mice-and-mystics/index.md,
"Choices the rules leave to the players"), so a new ``DecisionRequested`` cannot ship unexplained."""

import re
from pathlib import Path

from dicelog.domain.mice_and_mystics.ruleset import DECISIONS

PAGE = Path(__file__).resolve().parents[3] / "docs/mice-and-mystics/index.md"


def test_every_decision_the_ruleset_resolves_is_in_the_documented_table():
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Choices the rules leave to the players", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`([a-z-]+)`", section))
    assert set(DECISIONS) <= documented, sorted(set(DECISIONS) - documented)
