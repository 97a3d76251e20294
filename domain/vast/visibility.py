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

Everything else is public: revealed and collapsed tiles, Event cards played, Omens (docs/vast/rulings.md),
the Power cards paying a Power, the Dragon's tracks and Gems, the dice. After the game ends, everything
is public (the core's ``Lens(reveal=True)``).
"""

from __future__ import annotations

from msgspec.structs import replace

from dicelog.domain.core.commands import Command
from dicelog.domain.core.events import CardsDrawn, DecisionMade, DecisionRequested, DrawRequested, Event
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
