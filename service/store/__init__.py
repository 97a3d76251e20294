"""Persistence: the event store's mapper and stored names (``persistence``, ``topics``, ``records``), range
reads, the schema migrations, backup and restore, the write lane (group commit), the projections' views
(``projection_store``) and the change feed after a save (``fanout``). Imports operations support only."""
