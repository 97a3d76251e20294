"""The API's bodies: request and response Structs (``schemas``), the slots whose schema depends on the
rulesets served (``openapi_slots``), and the rendering of domain values into bodies through the reader's
Lens (``render``). Shared by the HTTP routes, the CLI, the worker and the use cases."""
