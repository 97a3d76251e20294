"""The worker side: the follower of the store's notification log (``follower``), the Redis publisher, the
embedded worker process and the worker's own HTTP port. Top layer, beside ``service.http``: imports the use
cases and below (docs/architecture.md, Layout)."""
