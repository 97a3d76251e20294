"""The ``dicelog`` command (``main``) and the demo it runs (``demo``). Top layer, beside ``service.http``
and ``service.worker``: it starts them (docs/architecture.md, Layout)."""
