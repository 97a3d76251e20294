"""The HTTP entry point: the Litestar app (``app.create_app``), its routes, guards, caching, problem types
and the OpenAPI tooling, and the web table (``web/``). Top layer: imports the use cases (``service.app``)
and below, never imported by them (docs/architecture.md, Layout)."""
