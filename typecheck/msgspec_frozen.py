"""A mypy plugin: a msgspec Struct subclass inherits its base's ``frozen=True``, as msgspec does.

msgspec carries a Struct's options (``frozen``, ``kw_only``, ...) down to its subclasses at run
time, but mypy reads ``dataclass_transform`` options from each class statement alone, so every
``class DiceRolled(Event, tag=...)`` under a frozen ``Event`` would be reported as "Non-frozen
dataclass cannot inherit from a frozen dataclass" [misc] and its fields treated as assignable.
This plugin gives such a subclass the ``frozen=True`` it has at run time, before the dataclass
transform reads it: the one place the false positive is handled (pyproject.toml, [tool.mypy],
``plugins``), instead of disabling the ``misc`` code. It reads mypy's class definitions, so mypy
is pinned to one minor in the test extra.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import NameExpr, TypeInfo
from mypy.plugin import ClassDefContext, Plugin
from mypy.semanal_shared import parse_bool

STRUCT = "msgspec.Struct"


def _declared_frozen(info: TypeInfo) -> bool | None:
    """``frozen`` as the class statement (or the plugin) gave it, None when it says nothing."""
    metadata = info.metadata.get("dataclass")
    if metadata is not None and "frozen" in metadata:
        return bool(metadata["frozen"])
    keyword = info.defn.keywords.get("frozen")
    return None if keyword is None else parse_bool(keyword)


def _inherit_frozen(ctx: ClassDefContext) -> None:
    cls = ctx.cls
    mro = cls.info.mro
    if "frozen" in cls.keywords or not any(base.fullname == STRUCT for base in mro):
        return
    for base in mro[1:]:
        frozen = _declared_frozen(base)
        if frozen is not None:
            if frozen:
                true = NameExpr("True")
                true.fullname = "builtins.True"
                cls.keywords["frozen"] = true
            return


class MsgspecFrozen(Plugin):
    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        return _inherit_frozen


def plugin(version: str) -> type[Plugin]:
    return MsgspecFrozen
