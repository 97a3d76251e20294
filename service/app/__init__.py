"""The use cases: ``games.Games`` (load, decide, save atomically), campaigns, audit, export, seat bots, and
the service's own errors. Imports the store, the API bodies, the operations support and the core registry;
never an entry point (``service.http``, ``service.cli``, ``service.worker``)."""
