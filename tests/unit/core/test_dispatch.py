"""``ByEventType`` (``dicelog.domain.core.dispatch``): the handler of an event's own type, else of its
nearest registered base, else the fallback; a type registered twice is refused at import."""

from __future__ import annotations

import pytest

from dicelog.domain.core.dispatch import ByEventType


class Base:
    pass


class Child(Base):
    pass


class Grandchild(Child):
    pass


class Other:
    pass


def _table() -> ByEventType[list[str], str]:
    table: ByEventType[list[str], str] = ByEventType("handler", lambda state, event: "fallback")

    @table.on(Base)
    def _base(state: list[str], event: Base) -> str:
        state.append(type(event).__name__)
        return "base"

    @table.on(Child)
    def _child(state: list[str], event: Child) -> str:
        return "child"

    return table


def test_the_handler_of_the_exact_type_then_of_the_nearest_base_then_the_fallback():
    table = _table()
    seen: list[str] = []
    assert table(seen, Base()) == "base"
    assert table(seen, Child()) == "child"
    assert table(seen, Grandchild()) == "child"  # Child is nearer than Base in the MRO
    assert table(seen, Other()) == "fallback"
    assert seen == ["Base"]
    assert set(table.handlers) == {Base, Child}


def test_on_returns_the_function_and_refuses_a_second_handler_for_a_type():
    table = _table()

    def again(state: list[str], event: Base) -> str:
        return "again"

    assert table.on(Other)(again) is again
    with pytest.raises(TypeError, match="Base has two handlers"):
        table.on(Base)(again)
