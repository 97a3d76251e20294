"""Typed mirrors of the stored events whose fields the domain keeps as JSON it does not type itself.

The domain stores ``GameCreated.setup``, ``UndoApplied.game`` and ``.state`` as raw JSON (each ruleset decodes
its own) and a campaign's carry-over documents and choices as any JSON (the campaign ruleset's). The API
shows those events as stored; these subclasses say, for the OpenAPI document, what the fields hold, and
decode what was stored (lenient: a field older stores lack has a default). The stored bytes and the
answers do not change: the routes still encode the domain's events; these types only describe them.

- ``setup``: the ruleset's ``stored_setup_type`` (default ``setup_type``), a ``oneOf`` of the served
  rulesets' (``SetupSlot``: the stored setup does not carry its ruleset; ``GameCreated.ruleset`` says it);
- ``UndoApplied.state``: the ruleset's ``state_type``, a ``oneOf`` likewise (``RulesetStateSlot``);
- ``UndoApplied.game``: the core's ``Game`` without its state (``UndoGame``);
- the campaign events: the campaign ruleset's ``stored_setup_type``, ``campaign_carry_over_type`` and
  ``campaign_choice_type``, found through the registry (the service imports no ruleset).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from msgspec import Struct

from dicelog.domain.core import campaign, events, registry
from dicelog.domain.core.campaign import CAMPAIGN_EVENTS
from dicelog.domain.core.events import PendingEvent, UndoRequested
from dicelog.domain.core.game import GENESIS_HASH
from dicelog.service.bodies.openapi_slots import RulesetStateSlot, SetupSlot

CAMPAIGN_RULESET = "mice-and-mystics"
"""The ruleset of every campaign's chapters (the only one with a campaign mode: ``campaign_carry_over``)."""
_CAMPAIGN_RULES: Any = registry.get(CAMPAIGN_RULESET)  # campaign_choice_type: an optional member
CarryOverChoice: Any = _CAMPAIGN_RULES.campaign_choice_type
"""A seat's carry-over choice after a won chapter (``POST /campaigns/{id}/carry-over``): the campaign
ruleset's ``campaign_choice_type``, found through the registry."""
CarryOverDocument: Any = getattr(_CAMPAIGN_RULES, "campaign_carry_over_type", None) or dict[str, Any]
"""What a won chapter carries over to the next (``CampaignOut.carry_over``, ``ChapterOut.carry_in`` and
``carry_out``): the campaign ruleset's ``campaign_carry_over_type``, found through the registry."""


def stored_setup_type(ruleset: Any) -> Any:
    """The type of ``GameCreated.setup`` as ``ruleset`` stores it: its ``stored_setup_type``, else its
    ``setup_type``, else any JSON object."""
    stored = getattr(ruleset, "stored_setup_type", None) or getattr(ruleset, "setup_type", None)
    return stored or dict[str, Any]


PartySetup: Any = stored_setup_type(_CAMPAIGN_RULES)
"""A campaign's party setup (``CampaignStarted.setup``): the campaign ruleset's stored setup document."""


class GameCreated(events.GameCreated, kw_only=True):
    __doc__ = events.GameCreated.__doc__

    setup: SetupSlot  # type: ignore[assignment]  # the same JSON, typed
    """The ruleset's own setup document, as stored (``GameCreated.ruleset`` names the ruleset; for Mice and
    Mystics: the chapter, the party of mice and the optional sandbox, carry-over, ability choices and
    content pack; for Vast: the roles or a setup row, difficulty cards and the optional sandbox)."""


class UndoGame(Struct, frozen=True, kw_only=True):
    """The core's bookkeeping of a game at an undo's target version (``UndoApplied.game``): the game
    (``dicelog.domain.core.game.Game``) without its ruleset state, which ``UndoApplied.state`` carries, and
    without its newest event (``chain_head`` stands for it). Fields with a default may be absent from older
    stores."""

    id: UUID
    """The game (UUID)."""
    version: int
    """The version restored (``UndoApplied.to_version``)."""
    created: GameCreated
    """The game's ``GameCreated``."""
    state: None = None
    """Always ``null``: the state is ``UndoApplied.state``."""
    pending: PendingEvent | None = None
    """The roll, shuffle, draw or decision pending at that version (as the reader may see it); ``null``:
    none."""
    chance_count: int = 0
    """The dice stream position: the number of ``DiceRolled`` and ``CardsShuffled`` events up to that
    version, so the same action meets the same dice again."""
    result: str | None = None
    """The game's result at that version (``null``: still running)."""
    created_on: datetime
    """When the game was created, ISO 8601 in UTC."""
    modified_on: datetime
    """When the event at that version was recorded, ISO 8601 in UTC."""
    last: None = None
    """Always ``null`` (``chain_head`` names the newest event by its hash)."""
    chain_head: str = GENESIS_HASH
    """The chain hash of the event at that version (64 lowercase hex characters)."""
    undo_request: UndoRequested | None = None
    """The undo request open at that version; ``null``: none."""
    undo_needs: tuple[str, ...] = ()
    """The seats whose approval that request still waited for."""
    undo_approved: tuple[str, ...] = ()
    """The seats that had approved it."""


class UndoApplied(events.UndoApplied, kw_only=True):
    __doc__ = events.UndoApplied.__doc__

    game: UndoGame  # type: ignore[assignment]  # the same JSON, typed
    """The core's bookkeeping at ``to_version``: the pending roll, shuffle, draw or decision and the dice
    stream position (so the same action meets the same dice again)."""
    state: RulesetStateSlot  # type: ignore[assignment]
    """The ruleset's state at ``to_version`` as stored (for Mice and Mystics, the whole game state), secrets
    masked for the reader; it does not name its ruleset (``UndoGame.created.ruleset`` does)."""


class CampaignStarted(campaign.CampaignStarted, kw_only=True):
    __doc__ = campaign.CampaignStarted.__doc__

    setup: PartySetup
    """The party's setup document of the ruleset (a Mice and Mystics setup: its ``chapter`` is left out);
    each chapter's game is created from it with its ``chapter`` set to that chapter and the campaign's
    current ``carry_over`` added."""


class ChapterBegun(campaign.ChapterBegun, kw_only=True):
    __doc__ = campaign.ChapterBegun.__doc__

    carry_over: CarryOverDocument | None = None
    """The ruleset's carry-over document this chapter's setup receives from the chapters won before it (for
    Mice and Mystics a ``CarryOver``); ``null`` or absent while no chapter has been won."""


class CarryOverChosen(campaign.CarryOverChosen, kw_only=True):
    __doc__ = campaign.CarryOverChosen.__doc__

    choice: CarryOverChoice
    """The ruleset's choice document (for Mice and Mystics a ``CarryOverChoice``: ``keep``, the search card
    each of the seat's mice keeps)."""


class ChapterRecorded(campaign.ChapterRecorded, kw_only=True):
    __doc__ = campaign.ChapterRecorded.__doc__

    carry_over: CarryOverDocument | None = None
    """The carry-over the next chapter will receive: on a victory, what the ruleset computed from the
    game's final state; otherwise the carry-over the chapter itself received, unchanged. ``null`` or absent:
    nothing carries over."""


class CarryOverRecomputed(campaign.CarryOverRecomputed, kw_only=True):
    __doc__ = campaign.CarryOverRecomputed.__doc__

    carry_over: CarryOverDocument | None = None
    """The ruleset's carry-over document (for Mice and Mystics a ``CarryOver``)."""


MIRRORS: dict[type, type] = {
    events.GameCreated: GameCreated,
    events.UndoApplied: UndoApplied,
    campaign.CampaignStarted: CampaignStarted,
    campaign.ChapterBegun: ChapterBegun,
    campaign.CarryOverChosen: CarryOverChosen,
    campaign.ChapterRecorded: ChapterRecorded,
    campaign.CarryOverRecomputed: CarryOverRecomputed,
}
"""Each domain event with a free-form field -> its typed mirror (same name, tag and fields)."""
CAMPAIGN_EVENT_TYPES: tuple[type, ...] = tuple(MIRRORS.get(e, e) for e in CAMPAIGN_EVENTS)
"""A campaign's event types as the API describes them, in ``CAMPAIGN_EVENTS`` order."""
STORED_DOCUMENTS: tuple[type, ...] = (UndoGame, *MIRRORS.values())
"""The mirrors of stored JSON: a field with a default may be absent (not every field is always sent)."""
