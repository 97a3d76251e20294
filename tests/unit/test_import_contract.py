"""The import contract (docs/architecture.md, Layout): every import of every module, function-level imports
included (``ast``: import-linter reads only module-level imports), read downward:

    http | cli | worker  >  app  >  store | bodies  >  ops      (the service's sub-packages)
    service  >  read models (projections/)  >  rulesets (domain/<ruleset>/)  >  core (domain/core/)

- the core imports no ruleset, no read model and no service module (it finds rulesets by entry point);
- a ruleset imports the core only, never another ruleset, a read model or the service;
- the read models (``projections/``) import the core only: no ruleset, no service module;
- the service imports no module of any ruleset (it reaches a game through the registry only);
- within the service, a sub-package imports its own modules and those of the levels below it in
  ``SERVICE_LEVELS``, and of its own level only the sub-packages ``SIBLINGS`` allows: the entry points
  (``http``, ``cli``, ``worker``) use the use cases (``app``), which use the storage (``store``), the API's
  bodies (``bodies``) and the operations support (``ops``); nothing below an entry point imports one;
- no import cycle between modules (``REMAINING_CYCLES`` is empty: a cycle named there would have to be
  known, and the test checks it has not grown, so that fixing it means deleting it there).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"domain": "dicelog.domain", "projections": "dicelog.projections", "service": "dicelog.service"}
CORE = "dicelog.domain.core"
RULESETS = ("dicelog.domain.mice_and_mystics", "dicelog.domain.vast")
SERVICE = "dicelog.service"
SERVICE_LEVELS = (("http", "cli", "worker"), ("app",), ("store", "bodies"), ("ops",))
"""The service's sub-packages by level, highest first: a level imports the levels below it."""
SIBLINGS = {"cli": {"http", "worker"}, "http": {"worker"}, "worker": {"http"}}
"""Which sub-packages of its own level a sub-package may import (the command starts the server and the
worker; the server runs the embedded worker, which runs the server's ``Runtime``)."""

REMAINING_CYCLES: dict[str, tuple[str, int]] = {}
"""Cycles left to break, by the prefix all their modules share and their size (issue 29, item 3): none. The
last one, the Vast rules package, reads downward since the roles take the driver's ``then_advance`` as a
parameter (``domain/vast/rules/common.Then``)."""


def _modules() -> dict[str, Path]:
    found = {}
    for folder, package in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = (
                ".".join((package, *parts[:-1])) if parts[-1] == "__init__" else ".".join((package, *parts))
            )
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """(module imported, line) for every import of ``path``, at any depth, resolved to a known module
    (``from a import b`` is ``a.b`` when that is a module, else ``a``)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    yield from _imports_in(name, package, path.read_text(encoding="utf-8"))


def _imports_in(name: str, package: str, source: str) -> Iterator[tuple[str, int]]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(
                    [*parts[: len(parts) - node.level + 1], *([node.module] if node.module else [])]
                )
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno


GRAPH = {name: {target for target, _ in _imports(name, path)} for name, path in MODULES.items()}


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _ruleset_of(name: str) -> str | None:
    return next((r for r in RULESETS if _within(name, r)), None)


def _service_level(name: str) -> tuple[str, int]:
    """(sub-package, level) of a module of the service; a module directly under ``service/`` has none."""
    sub = name.removeprefix(SERVICE + ".").split(".")[0]
    level = next((n for n, subs in enumerate(SERVICE_LEVELS) if sub in subs), None)
    assert level is not None, f"{name}: a module of service/ outside the sub-packages of SERVICE_LEVELS"
    return sub, level


def _service_may(name: str, target: str) -> bool:
    if SERVICE in (name, target):
        return True
    (sub, level), (their, theirs) = _service_level(name), _service_level(target)
    return sub == their or theirs > level or (theirs == level and their in SIBLINGS.get(sub, set()))


def _layer_breaks() -> list[str]:
    broken = []
    for name, path in sorted(MODULES.items()):
        for target, line in _imports(name, path):
            where = f"{path.relative_to(ROOT)}:{line} imports {target}"
            own = _ruleset_of(name)
            theirs = _ruleset_of(target)
            if _within(name, CORE) and not _within(target, CORE):
                broken.append(f"{where} (the core imports only the core)")
            elif own is not None and (theirs not in (None, own) or not _within(target, "dicelog.domain")):
                broken.append(f"{where} (a ruleset imports the core and itself only)")
            elif _within(name, "dicelog.domain") and own is None and not _within(name, CORE):
                broken.append(
                    f"{path.relative_to(ROOT)}: a module of domain/ outside the core and the rulesets"
                )
            elif _within(name, "dicelog.projections") and (
                theirs is not None or _within(target, "dicelog.service")
            ):
                broken.append(f"{where} (read models import the core only)")
            elif _within(name, "dicelog.service") and theirs is not None:
                broken.append(f"{where} (the service reaches a game through the registry only)")
            elif _within(name, SERVICE) and _within(target, SERVICE) and not _service_may(name, target):
                broken.append(f"{where} (the service's levels: {' > '.join(map('|'.join, SERVICE_LEVELS))})")
    return sorted(set(broken))


def _cycles() -> list[list[str]]:
    """The import cycles of the package: ``_components`` of ``GRAPH``."""
    return _components(GRAPH)


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_check_sees_every_module_and_the_function_level_imports():
    assert len(MODULES) > 150
    inner = "def f():\n    if True:\n        from dicelog.service import app\n    from ..core import game\n"
    found = set(_imports_in("dicelog.domain.vast.x", "dicelog.domain.vast", inner))
    assert found == {("dicelog.service.app", 3), ("dicelog.domain.core.game", 4)}
    assert sum(len(targets) for targets in GRAPH.values()) > 1000


def test_the_layers_read_downward():
    assert _layer_breaks() == []


def test_no_import_cycle_but_the_remaining_ones_named_and_none_grew():
    unexplained = []
    seen = set()
    for component in _cycles():
        known = [
            what
            for what, (prefix, size) in REMAINING_CYCLES.items()
            if all(m.startswith(prefix) for m in component) and len(component) <= size
        ]
        if known:
            seen.update(known)
        else:
            unexplained.append(" <-> ".join(component))
    assert unexplained == []
    assert seen == set(REMAINING_CYCLES), "a remaining cycle is gone: delete it from REMAINING_CYCLES"
    if not REMAINING_CYCLES:
        assert _cycles() == []  # 0 import cycles in the package, function-level imports included


def test_the_cycle_check_finds_a_cycle():
    """The check itself: two modules importing each other are one component."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert _components(graph) == [["a", "b"]]


def _deferred_imports(source: str) -> list[int]:
    """Lines of imports of dicelog's own modules made inside a function (``TYPE_CHECKING`` blocks at
    module level are not inside a function)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                names = (
                    [inner.module or ""]
                    if isinstance(inner, ast.ImportFrom)
                    else [a.name for a in inner.names]
                    if isinstance(inner, ast.Import)
                    else []
                )
                if any(n.startswith("dicelog") for n in names) or getattr(inner, "level", 0):
                    lines.append(inner.lineno)
    return lines


def test_the_rules_import_at_module_level_only():
    """A function-level import in ``domain/`` either dodges a cycle (which the cycle check counts anyway)
    or hides a module's real dependencies from its reader: the rules name what they use at the top."""
    deferred = [
        f"{name}:{line}"
        for name, path in MODULES.items()
        if _within(name, "dicelog.domain")
        for line in _deferred_imports(path.read_text(encoding="utf-8"))
    ]
    assert deferred == []


def test_the_deferred_import_check_finds_one():
    source = (
        "if TYPE_CHECKING:\n    from dicelog.domain.core import game\ndef f():\n    from dicelog.x import y\n"
    )
    assert _deferred_imports(source) == [4]
