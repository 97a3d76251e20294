"""Who sees what in Vast (docs/who-sees-what.md, Vast; docs/who-sees-what.md, Hidden information): the
ruleset's ``view_event``, ``view_state`` and ``view_command``, through which every read path goes
(``dicelog.domain.core.visibility.Lens``). A masked id reads ``"?"``.

| secret | seen by |
|---|---|
| a Dark tile's identity (``DarkTilePlaced.tile``, ``CaveCell.tile``) | the Cave (no seat without a Cave) |
| the Cave's tile hand, the tiles it draws, its ``fill`` choices | the Cave |
| the stack, every deck's face-down content, the draw weights | nobody but the auditor |
| the Treasure and Event cards offered to the Cave, and those it sends to the bottom | the Cave |
| the Treasure card the Knight receives, keeps or declines | the Knight and the Cave |
| the Treasure card she draws herself without a Cave player (``treasure-top``) | the Knight (and a Cave) |
| the Knight's face-down Treasures | the Knight and the Cave (which chose them) |
| the Knight's Sidequests (hand and draws) | the Knight |
| the Goblins' Secrets (hand, draws, discards), War cards not kept, Monsters not assigned | the Goblins |
| the cards the Goblin Ruby redraws and discards | the Goblins |
| the Dragon's Power hand (draws, the cards discarded when it is replaced) | the Dragon |
| a Dark tile the Thief looked at (``TilePeeked``; ``ThiefRole.peeked``) | the Thief and the Cave |
| a face-down card a Pickpocket takes at random (``ThiefStole``) | its owner (the Knight's: and the Cave) |
| a sandbox table's secrets in ``GameCreated.setup`` (``view_setup``) | as the same secrets in play |

Everything else is public: revealed and collapsed tiles, Event cards played, Omens (docs/vast/rulings.md),
the Power cards paying a Power, the Dragon's tracks and Gems, the dice. After the game ends, everything
is public (the core's ``Lens(reveal=True)``).
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from dicelog.domain.core.commands import Command
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DrawRequested,
    Event,
    GameCreated,
)
from dicelog.domain.core.visibility import Viewer
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.state import HIDDEN, VastState

DECK_AUDIENCE = {
    "tiles": ("cave",),
    "treasure": ("cave",),
    "events": ("cave",),
    "sidequests": ("knight",),
    "war": ("goblins",),
    "monsters": ("goblins",),
    "secrets": ("goblins",),
    "power": ("dragon",),
    "knight-treasures": ("knight", "cave"),
    "goblin-secrets": ("goblins",),
}
"""Who sees the cards drawn from each secret deck (the Omen bag is public)."""
CAVE_DECISIONS = ("fill", "treasure-choice", "event-choice", "explore")
"""Decisions whose options are the Cave's cards."""
GOBLIN_DECISIONS = ("war-choice", "secrets-limit", "overpopulation", "ruby", "secrets-window")
"""Decisions whose options are the Goblins' cards (or would tell their hand)."""


def _sees(viewer: Viewer, *roles: str) -> bool:
    return any(viewer.sees_piece(r) for r in roles)


def _masked(items: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(items)


def _decision_owner(decision: str) -> str | None:
    kind = decision.partition(":")[0]
    if kind == "power-discard":  # its options are the Dragon's hand
        return "dragon"
    if kind in CAVE_DECISIONS:
        return "cave"
    if kind in GOBLIN_DECISIONS:
        return "goblins"
    return None


def view_event(event: Event, viewer: Viewer) -> Event | None:
    """``event`` as ``viewer`` may see it (same type, secrets masked)."""
    if viewer.kind == "auditor":
        return event
    match event:
        case GameCreated(setup=setup):
            shown = view_setup(setup, viewer)
            return event if shown is setup else replace(event, setup=shown)
        case DrawRequested(deck=deck) if deck in DECK_AUDIENCE:
            return replace(event, cards=_masked(event.cards), weights=())
        case CardsDrawn(deck=deck, cards=cards, reason=reason) if deck in DECK_AUDIENCE:
            audience = ("knight", "cave") if reason == "treasure-top" else DECK_AUDIENCE[deck]
            return event if _sees(viewer, *audience) else replace(event, cards=_masked(cards))
        case DecisionRequested(decision=decision, options=options):
            owner = _decision_owner(decision)
            if owner is not None and not _sees(viewer, owner):
                return replace(event, options=_masked(options), default=HIDDEN if event.default else None)
            return event
        case DecisionMade(decision=decision):
            owner = _decision_owner(decision)
            if owner is not None and not _sees(viewer, owner):
                return replace(event, option=HIDDEN)
            return event
        case ev.WarCardChosen(discarded=discarded):
            return event if _sees(viewer, "goblins") else replace(event, discarded=_masked(discarded))
        case ev.MonsterDiscarded() | ev.SecretDiscarded() | ev.RubyRedrawn():
            return event if _sees(viewer, "goblins") else replace(event, card=HIDDEN)
        case ev.DarkTilePlaced():
            return event if _sees(viewer, "cave") else replace(event, tile=HIDDEN)
        case ev.TreasureOffered(bottom=bottom):
            card = event.card if _sees(viewer, "knight", "cave") else HIDDEN
            return replace(event, card=card, bottom=bottom if _sees(viewer, "cave") else _masked(bottom))
        case ev.TreasureKept() | ev.TreasureDeclined():
            return event if _sees(viewer, "knight", "cave") else replace(event, card=HIDDEN)
        case ev.EventsSentToBottom(cards=cards):
            return event if _sees(viewer, "cave") else replace(event, cards=_masked(cards))
        case ev.TileCollapsed(dark=True, crystal_tile=False):
            return event if _sees(viewer, "cave") else replace(event, tile=HIDDEN)
        case ev.PowerCardsDiscarded(cards=cards):
            return event if _sees(viewer, "dragon") else replace(event, cards=_masked(cards))
        case ev.EventPlayed(bottom=bottom):
            return event if _sees(viewer, "cave") else replace(event, bottom=_masked(bottom))
        case ev.TilePeeked():
            return event if _sees(viewer, "thief", "cave") else replace(event, tile=HIDDEN)
        case ev.TreasureCardDiscarded(hidden=True):
            return event if _sees(viewer, "knight", "cave") else replace(event, card=HIDDEN)
        case ev.ThiefStole(hidden=True, target=target):
            owners = ("knight", "cave") if target == "knight" else (target,)
            return event if _sees(viewer, *owners) else replace(event, card=HIDDEN)
    return event


def _mask_keys(board: dict[str, Any], viewer: Viewer, keys: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """``board`` with each list in ``keys`` masked unless ``viewer`` controls one of its roles (``()``: nobody
    sees it); a key the table left out (its default) stays out."""
    return {
        key: [HIDDEN] * len(value)
        if key in keys and isinstance(value, list) and not _sees(viewer, *keys[key])
        else value
        for key, value in board.items()
    }


def _view_sandbox(sandbox: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    peeked: list[Any] = []
    thief = sandbox.get("thief")
    if isinstance(thief, dict) and _sees(viewer, "thief"):
        peeked = list(thief.get("peeked") or ())
    cells = sandbox.get("cells")
    if isinstance(cells, list) and not _sees(viewer, "cave"):
        cells = [
            {**c, "tile": HIDDEN}
            if isinstance(c, dict) and not c.get("lit") and c.get("tile") not in ("entrance", *peeked)
            else c
            for c in cells
        ]
    shown = _mask_keys(
        {**sandbox, "cells": cells} if "cells" in sandbox else sandbox,
        viewer,
        {
            "event_top": ("cave",),
            "event_bottom": ("cave",),
            "treasure_bottom": ("cave",),
            "treasures_gone": ("knight", "cave"),
            "sidequest_top": (),
            "stack": (),
        },
    )
    boards: dict[str, dict[str, tuple[str, ...]]] = {
        "knight": {"treasures": ("knight", "cave"), "sidequests": ("knight",)},
        "cave": {"hand": ("cave",)},
        "goblins": {"hand": ("goblins",), "monster_discard": ("goblins",), "secrets_discard": ("goblins",)},
        "dragon": {"hand": ("dragon",)},
        "thief": {"peeked": ("thief", "cave")},
    }
    for name, keys in boards.items():
        board = shown.get(name)
        if isinstance(board, dict):
            shown[name] = _mask_keys(board, viewer, keys)
    return shown


def view_setup(setup: msgspec.Raw, viewer: Viewer) -> msgspec.Raw:
    """A game's setup document (``GameCreated.setup``, JSON) as ``viewer`` may see it: a sandbox table's
    secrets masked as the same secrets are in play (``view_state``), each card or tile id by ``"?"``, each
    list keeping its length, the rest of the document as stored. ``setup`` itself (the same object) when
    nothing is masked: a setup without a sandbox, or a reader who may know all of it.

    Masked: a Dark tile's ``tile`` (the Cave; the Thief the tiles he ``peeked``), ``cave.hand``,
    ``event_top``, ``event_bottom`` and ``treasure_bottom`` (the Cave: it reads the Event deck's top 3 and
    chose the cards sent to the bottom, Vast rulebook, La Caverna, Eventi and Tesori), ``knight.treasures``
    and ``treasures_gone`` (the Knight and the Cave), ``knight.sidequests`` (the Knight), ``goblins.hand``,
    ``monster_discard``, ``secrets_discard`` (the Goblins), ``dragon.hand`` (the Dragon), ``thief.peeked``
    (the Thief and the Cave), ``sidequest_top`` and ``stack`` (nobody: a deck's order)."""
    if viewer.kind == "auditor":
        return setup
    document = msgspec.json.decode(setup)
    sandbox = document.get("sandbox") if isinstance(document, dict) else None
    if not isinstance(sandbox, dict):
        return setup
    shown = _view_sandbox(sandbox, viewer)
    if shown == sandbox:
        return setup
    return msgspec.Raw(msgspec.json.encode({**document, "sandbox": shown}))


def view_state(state: VastState, viewer: Viewer) -> VastState:
    """The state as ``viewer`` may see it (same type, secrets masked)."""
    if viewer.kind == "auditor":
        return state
    cave_sees = _sees(viewer, "cave")
    thief = state.thief
    peeked = thief.peeked if thief is not None and _sees(viewer, "thief") else ()
    cells = (
        state.cells
        if cave_sees
        else tuple(c if c.lit or c.tile in peeked else replace(c, tile=HIDDEN) for c in state.cells)
    )
    if thief is not None and not _sees(viewer, "thief", "cave"):
        thief = replace(thief, peeked=_masked(thief.peeked))
    knight = state.knight
    if knight is not None:
        knight = replace(
            knight,
            treasures=knight.treasures if _sees(viewer, "knight", "cave") else _masked(knight.treasures),
            sidequests=knight.sidequests if _sees(viewer, "knight") else _masked(knight.sidequests),
        )
    cave = state.cave
    if cave is not None and not cave_sees:
        cave = replace(cave, hand=_masked(cave.hand))
    goblins_see = _sees(viewer, "goblins")
    gob = state.goblins
    if gob is not None and not goblins_see:
        gob = replace(gob, hand=_masked(gob.hand), drawn=_masked(gob.drawn))
    dragon = state.dragon
    if dragon is not None and not _sees(viewer, "dragon"):
        dragon = replace(dragon, hand=_masked(dragon.hand))
    return replace(
        state,
        cells=cells,
        knight=knight,
        dragon=dragon,
        cave=cave,
        thief=thief,
        stack=_masked(state.stack),
        crystals=_masked(state.crystals),
        pile_crystals=(),
        vaults=_masked(state.vaults),
        pile_vaults=(),
        treasure_deck=_masked(state.treasure_deck),
        event_deck=_masked(state.event_deck),
        sidequest_deck=_masked(state.sidequest_deck),
        sidequest_top=_masked(state.sidequest_top),
        treasure_bottom=state.treasure_bottom if cave_sees else _masked(state.treasure_bottom),
        event_bottom=state.event_bottom if cave_sees else _masked(state.event_bottom),
        event_top=state.event_top if cave_sees else _masked(state.event_top),
        offer=state.offer if _sees(viewer, *_offer_audience(state)) else _masked(state.offer),
        goblins=gob,
        war_deck=_masked(state.war_deck),
        monster_deck=_masked(state.monster_deck),
        secrets_deck=_masked(state.secrets_deck),
        monster_discard=state.monster_discard if goblins_see else _masked(state.monster_discard),
        secrets_discard=state.secrets_discard if goblins_see else _masked(state.secrets_discard),
    )


def _offer_audience(state: VastState) -> tuple[str, ...]:
    """Who sees ``state.offer``: its role; the Treasure card given to the Knight, she and the Cave."""
    return ("knight", "cave") if state.offer_to == "knight" else (state.offer_to,)


def view_command(command: Command, viewer: Viewer) -> Command | None:
    """A command as ``viewer`` may see it: the tile the Cave places is its secret."""
    if viewer.kind == "auditor" or _sees(viewer, "cave"):
        return command
    if isinstance(command, cmd.PlaceTile):
        return replace(command, tile=HIDDEN)
    if isinstance(command, cmd.Hatred) and command.tile is not None:
        return replace(command, tile=HIDDEN)
    return command
