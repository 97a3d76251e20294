"""The installed package: one import namespace, ``dicelog.*`` (issue 12, Deployment).

The repository keeps the top-level folders it is organised by (``domain/``, ``service/``,
``projections/``; docs/architecture.md, Layout) and pyproject.toml maps them to ``dicelog.domain``,
``dicelog.service`` and ``dicelog.projections``. A wheel must put nothing else in site-packages,
and every sub-package must be listed, or an installed copy misses it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"domain": "dicelog.domain", "service": "dicelog.service", "projections": "dicelog.projections"}


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_listed_under_the_dicelog_namespace() -> None:
    tool = _pyproject()["tool"]["setuptools"]
    assert tool["package-dir"] == {name: folder for folder, name in FOLDERS.items()}
    found = {
        ".".join(("dicelog", *init.parent.relative_to(ROOT).parts))
        for folder in FOLDERS
        for init in (ROOT / folder).rglob("__init__.py")
        if ".venv" not in init.parts
    }
    assert set(tool["packages"]) == found


def test_the_console_script_and_the_code_import_dicelog_names_only() -> None:
    assert _pyproject()["project"]["scripts"]["dicelog"] == "dicelog.service.cli.main:main"
    import dicelog.service.http.app  # noqa: F401  (imports every module the service uses)

    stray = sorted(name for name in sys.modules if name.split(".")[0] in FOLDERS)
    assert stray == [], f"modules imported under a bare top-level name: {stray}"


@pytest.mark.slow  # builds the wheel (docs/testing.md)
def test_the_wheel_installs_only_the_dicelog_package(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: building in place would leave build/ in the repository
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(source),
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("dicelog-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"dicelog", next(n for n in top if n.endswith(".dist-info"))}
    for needed in (
        "dicelog/service/cli/main.py",
        "dicelog/domain/core/game.py",
        "dicelog/projections/__init__.py",
        "dicelog/domain/mice_and_mystics/content/mice.json",
        "dicelog/service/http/web/static/table.html",
        "dicelog/domain/vast/web/vast.js",
        "dicelog/domain/mice_and_mystics/web/board.js",
        "dicelog/domain/mice_and_mystics/web/table.js",
        "dicelog/domain/mice_and_mystics/web/labels.js",
    ):
        assert needed in names, needed
