"""Every citation points at something a reader can open (docs/conventions.md, Citing sources).

The code, tests, content files, OpenAPI document and docs cite either a file of this repository or a
published source by title and section heading (docs/sources.md). This test reads every tracked text
file and fails on a citation of a document the repository does not hold: design notes kept outside
it, a facts file outside ``docs/``, the rule-source files by their file names, and any ``*.md`` path
that does not exist. The patterns are assembled from parts so that this file does not cite what it
forbids.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from dicelog.domain.mice_and_mystics.rules.setup import DECKS_PROVISIONAL

ROOT = Path(__file__).resolve().parents[2]

_MD = r"\.md"
ABSENT = {
    "design notes outside the repository": re.compile("(?:VAST-)?" + "DESIGN" + _MD),
    "style notes outside the repository": re.compile("STY" + "LE" + _MD),
    "the Vast facts file by its old short name": re.compile(r"\bV" + r"F §"),
    "a rule-source file by its file name": re.compile(r"\b00[0-9]_[0-9a-f]{16}"),
    "a rule-source file by its number": re.compile(r"(?<![\w,.:/-])00[0-4] §"),
    "a rule-source file's number in a test's name": re.compile(r"def test_(?:\w*_)?" + "00" + r"[0-4][_(]"),
    "a facts file by its bare name": re.compile(r"(?<![\w/-])(?:vast-)?facts(?:-extra)?" + _MD),
}
RELATIVE_LINKS_ALLOWED = {"a facts file by its bare name"}  # docs/ pages link their neighbours by name
MD_PATH = re.compile(r"(?<![\w/.-])((?:\.\./|\./)?[A-Za-z0-9_][\w./-]*" + _MD + r")(?![\w/])")
SKIP_PREFIXES = ("tests/fixtures/", "service/http/web/static/vendor/")
CHAPTER_1 = ROOT / "domain" / "mice_and_mystics" / "content" / "chapter-1.json"
STORED = (
    # Text stored inside events, which re-derivation must reproduce byte for byte (docs/event-model.md,
    # Stored names are forever): it may not be rewritten, so it is not read. DecksPrepared's reason since
    # release 0.1, and the chapter's read-aloud paraphrases, stored in ChapterStoryRead since rules
    # revision 2 (their "003" and "001" are the Portuguese and Italian Mice and Mystics rulebooks).
    DECKS_PROVISIONAL,
    *(
        json.dumps(json.loads(CHAPTER_1.read_text(encoding="utf-8"))[key], ensure_ascii=False)[1:-1]
        for key in ("opening", "story_continues")
    ),
)
ELSEWHERE = {
    # Markdown file names used as examples (another project's page, a file name in a matcher test),
    # not cited as sources.
    "secret-state.md",
    "NOTES.md",
}


def tracked_text_files() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    files = []
    for name in out.decode().split("\0"):
        if not name or name.startswith(SKIP_PREFIXES):
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary
        files.append(path)
    return files


def _without_stored_text(text: str) -> str:
    for stored in STORED:
        text = text.replace(stored, " " * len(stored))
    return text


@pytest.fixture(scope="module")
def texts() -> dict[Path, str]:
    return {
        path: _without_stored_text(path.read_text(encoding="utf-8", errors="replace"))
        for path in tracked_text_files()
    }


def test_the_tree_has_text_files_to_check(texts: dict[Path, str]) -> None:
    assert ROOT / "README.md" in texts
    assert len(texts) > 100


@pytest.mark.parametrize("what", sorted(ABSENT))
def test_no_citation_of_an_absent_document(texts: dict[Path, str], what: str) -> None:
    pattern = ABSENT[what]
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for path, text in texts.items()
        if not (what in RELATIVE_LINKS_ALLOWED and path.is_relative_to(ROOT / "docs"))
        for m in pattern.finditer(text)
    ]
    assert not found, f"{what}:\n" + "\n".join(found[:40])


def _exists(cited: str, where: Path, names: frozenset[str] = frozenset()) -> bool:
    name = cited.rstrip(".")
    if Path(name).name in ELSEWHERE:
        return True
    if "/" not in name and name in names:  # a bare name, e.g. the last part of a path joined in code
        return True
    if where.name == "mkdocs.yml" and (ROOT / "docs" / name).is_file():  # its nav: pages under docs/
        return True
    return (ROOT / name).is_file() or (where.parent / name).is_file()


def test_every_cited_markdown_file_exists(texts: dict[Path, str]) -> None:
    names = frozenset(path.name for path in texts)
    missing = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(1)}"
        for path, text in texts.items()
        for m in MD_PATH.finditer(text)
        if not _exists(m.group(1), path, names)
    ]
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing[:60])


def test_the_stored_texts_are_found_where_they_are_kept() -> None:
    raw = {
        path: path.read_text(encoding="utf-8")
        for path in (CHAPTER_1, ROOT / "domain/mice_and_mystics/rules/setup.py")
    }
    assert all(any(stored in text for text in raw.values()) for stored in STORED)


def test_the_patterns_catch_what_they_forbid() -> None:
    assert ABSENT["design notes outside the repository"].search("see " + "DESIGN" + ".md, Layout")
    assert ABSENT["a rule-source file by its number"].search("(" + "004" + " §Il Drago)")
    assert not ABSENT["a rule-source file by its number"].search("10,004 §")
    named = ABSENT["a rule-source file's number in a test's name"]
    assert named.search("def test_the_wall_stops_her__" + "004" + "_limitazioni():")
    assert not named.search("def test_the_wall_stops_her__rulebook_limitazioni():")
    assert named.search("def test_" + "001" + "_preparazione_del_gioco():")
    assert not _exists("docs/" + "nowhere" + ".md", ROOT / "README.md")
    assert _exists("docs/vast/facts.md", ROOT / "README.md")
    assert _exists("facts" + ".md", ROOT / "docs/vast/architecture.md")
    assert ABSENT["a facts file by its bare name"].search("(" + "facts" + ".md §5)")
    assert not ABSENT["a facts file by its bare name"].search("docs/vast/" + "facts" + ".md §5")
    assert not _exists("RULINGS" + _MD[1:], ROOT / "README.md", frozenset({"README.md"}))
