"""The rules package reads downward (issue "Mice and Mystics at a real table"): every module of
``domain/mice_and_mystics/rules/`` imports at its top, and the imports between them form no cycle, so a
section's module can be read after the modules it builds on."""

from __future__ import annotations

import ast
from pathlib import Path

import dicelog.domain.mice_and_mystics.rules as rules_package

RULES = Path(rules_package.__file__).parent
PACKAGE = "dicelog.domain.mice_and_mystics.rules"


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(RULES.glob("*.py"))}


def _imported_rules(node: ast.ImportFrom) -> set[str]:
    """The rules modules an ``import from`` statement names (``rules.x import y`` or ``rules import x``)."""
    if node.module == PACKAGE:
        return {a.name for a in node.names}
    if node.module and node.module.startswith(PACKAGE + "."):
        return {node.module.removeprefix(PACKAGE + ".").split(".")[0]}
    return set()


def _from_dicelog(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").startswith("dicelog")
    return any(alias.name.startswith("dicelog") for alias in node.names)


def test_no_rules_module_imports_inside_a_function():
    inner = [
        f"{name}.py:{node.lineno} imports {getattr(node, 'module', None)}"
        for name, tree in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom) and node.col_offset > 0 and _from_dicelog(node)
    ]
    assert inner == []


def test_the_rules_modules_import_one_another_without_a_cycle():
    modules = _modules()
    graph = {
        name: {
            target
            for node in tree.body
            if isinstance(node, ast.ImportFrom)
            for target in _imported_rules(node)
            if target in modules and target != name
        }
        for name, tree in modules.items()
    }
    assert sum(len(targets) for targets in graph.values()) > 100  # the check sees the real imports
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join((*path[path.index(name) :], name)))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())
    assert done == set(modules)
