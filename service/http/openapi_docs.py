"""Descriptions for the OpenAPI document, read from the code's own docstrings.

A Struct's description is its class docstring; a field's is the attribute docstring written
right below it (PEP 257), read with ``docstring_parser``::

    class Seat(Struct):
        name: str
        \"\"\"The seat's name, unique in its game.\"\"\"

``python -m dicelog.service.http.openapi_docs MODULE...`` lists the Struct fields of those modules that have
none.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from functools import cache

import docstring_parser
import msgspec


@cache
def field_docs(cls: type) -> dict[str, str]:
    """``{field name: description}`` of a Struct class, its bases' fields included (the nearest
    class's docstring wins). Fields without an attribute docstring are absent."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass in (object, msgspec.Struct) or not isinstance(klass, type):
            continue
        try:
            parsed = docstring_parser.parse_from_object(klass)
        except (OSError, TypeError):  # no source (built dynamically)
            continue
        for param in parsed.params:
            if param.args and param.args[0] == "attribute" and param.description:
                docs[param.arg_name] = " ".join(param.description.split())
    return docs


def class_doc(cls: type) -> str | None:
    """A class's own docstring, dedented (``None`` when it has none)."""
    doc = cls.__dict__.get("__doc__")
    return inspect.cleandoc(doc) if doc else None


def undocumented(module_name: str) -> list[str]:
    """``Class`` (no docstring) and ``Class.field`` (no attribute docstring) of the Structs a
    module defines."""
    module = importlib.import_module(module_name)
    missing: list[str] = []
    for name, cls in vars(module).items():
        if not (isinstance(cls, type) and issubclass(cls, msgspec.Struct) and cls.__module__ == module_name):
            continue
        if not class_doc(cls):
            missing.append(name)
        docs = field_docs(cls)
        missing += [f"{name}.{f}" for f in cls.__struct_fields__ if f not in docs]
    return missing


if __name__ == "__main__":
    gaps = [f"{m}: {item}" for m in sys.argv[1:] for item in undocumented(m)]
    print("\n".join(gaps) or "every Struct and field is described")
    sys.exit(1 if gaps else 0)
