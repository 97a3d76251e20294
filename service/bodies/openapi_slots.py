"""Slots: response fields whose schema depends on the rulesets an app serves
(``dicelog.service.http.openapi``)."""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

SLOT_KEY = "x-dicelog-slot"


# A field type whose schema the served rulesets decide: ``state``, ``event``, ``command``, ``board``,
# ``initiative``, ``setup`` or ``ruleset_state``. At run time it is a JSON object (``dict[str, Any]``); in
# the OpenAPI document, the union of the served rulesets' own types (``dicelog.service.http.openapi.refine``).
# One alias per slot, so that a type checker reads each as ``dict[str, Any]``.
StateSlot = Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: "state"})]
EventSlot = Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: "event"})]
CommandSlot = Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: "command"})]
BoardSlot = Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: "board"})]
InitiativeSlot = Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: "initiative"})]

JSON_FORM = "json_form"
"""The key, in a route handler's ``opt``, of the type of a second media type (``application/json``) of
its 200 answer, beside the file form it returns by default (an export's JSON Lines):
``dicelog.service.http.openapi`` declares it with its schema."""
# Stored free-form fields of events (``dicelog.service.bodies.stored_events``): ``setup`` is a ruleset's
# stored setup document (``GameCreated.setup``), ``ruleset_state`` a ruleset's state as stored (``UndoApplied
# .state``). Neither carries its ruleset, so each is a ``oneOf`` of the served rulesets' types.
SetupSlot = Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: "setup"})]
RulesetStateSlot = Annotated[dict[str, Any], Meta(extra_json_schema={SLOT_KEY: "ruleset_state"})]
