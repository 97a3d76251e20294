"""The ``/content`` resource: each ruleset's content as data, read-only (docs/architecture.md, The ruleset
boundary).

A ruleset's catalogue is its ``content`` (``dicelog.domain.core.ruleset.ContentRoute``s), served at
``/content/<ruleset>/...`` and at each of its ``content_aliases``; this module only turns each entry into a
Litestar route and knows no game. Unknown keys (a tile number, a chapter id) are 404 problems.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from litestar import Router, get
from litestar.datastructures import ResponseHeader
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Parameter

from dicelog.domain.core import registry
from dicelog.domain.core.ruleset import ContentRoute
from dicelog.service.bodies.schemas import Problem


def _not_found(what: str) -> dict[int, ResponseSpec]:
    return {
        400: ResponseSpec(
            data_container=Problem,
            description="Malformed request",
            media_type="application/problem+json",
            generate_examples=False,
        ),
        404: ResponseSpec(
            data_container=Problem,
            description=f"No such {what}",
            media_type="application/problem+json",
            generate_examples=False,
        ),
    }


DEPRECATED_SINCE = "@1795392000"
"""``Deprecation`` (RFC 9745) of the alias paths: deprecated since 2026-11-23 (the ``/content/<ruleset>``
paths replaced them)."""
SUNSET = "Mon, 31 May 2027 00:00:00 GMT"
"""``Sunset`` (RFC 8594) of the alias paths: they may be removed after this date."""


def _deprecation(successor: str) -> list[ResponseHeader]:
    """The headers of an answer on an alias path: ``Deprecation``, ``Sunset`` and a ``Link`` to the
    path that replaces it (``rel="successor-version"``)."""
    return [
        ResponseHeader(name="Deprecation", value=DEPRECATED_SINCE, description="Deprecated since (RFC 9745)"),
        ResponseHeader(name="Sunset", value=SUNSET, description="May be removed after (RFC 8594)"),
        ResponseHeader(
            name="Link",
            value=f'<{successor}>; rel="successor-version"',
            description="The path that replaces this one",
        ),
    ]


def _handler(route: ContentRoute, successor: str | None = None) -> HTTPRouteHandler:
    """A ``GET`` handler serving ``route`` (a list, or one item by its key); ``successor``: the
    route is an alias (deprecated) of the catalogue at that path."""
    if route.key is None:

        def read_all() -> Any:
            return list(route.read())

        read_all.__annotations__ = {"return": list[route.returns]}  # type: ignore[name-defined]  # known at run time
        fn: Any = read_all
    else:
        name, kind, description = route.key

        def read_one(**params: Any) -> Any:
            found = route.read(params[name])
            if found is None:
                raise NotFoundException(f"no {route.not_found} {params[name]}")
            return found

        annotation = Annotated[kind, Parameter(description=description)]  # type: ignore[valid-type]  # a run-time type
        read_one.__annotations__ = {name: annotation, "return": route.returns}
        read_one.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # inspect reads it; Litestar too
            [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation)],
            return_annotation=route.returns,
        )
        fn = read_one
    fn.__name__ = fn.__qualname__ = "content_" + route.path.strip("/").split("/")[0].replace("-", "_")
    return get(
        route.path,
        sync_to_thread=False,
        summary=route.summary,
        description=route.description,
        responses=_not_found(route.not_found) if route.key is not None else None,
        response_headers=_deprecation(successor) if successor else None,
    )(fn)


def has_content(ruleset: str) -> bool:
    """Whether ruleset ``ruleset`` has a content catalogue."""
    return bool(getattr(registry.get(ruleset), "content", ()))


def content_routers(rulesets: tuple[str, ...]) -> list[Router]:
    """One router per path a served ruleset's catalogue lives at: ``/content/<ruleset>`` and its
    ``content_aliases`` (tag ``content``)."""
    routers = []
    for name in rulesets:
        ruleset = registry.get(name)
        routes = getattr(ruleset, "content", ())
        if not routes:
            continue
        canonical = f"/content/{name}"
        routers.append(Router(path=canonical, tags=["content"], route_handlers=[_handler(r) for r in routes]))
        for path in getattr(ruleset, "content_aliases", ()):
            # an item's successor is its catalogue's list: the Link names no path parameter
            handlers = [_handler(r, canonical + "/" + r.path.strip("/").split("/")[0]) for r in routes]
            routers.append(Router(path=path, tags=["content"], route_handlers=handlers))
    return routers
