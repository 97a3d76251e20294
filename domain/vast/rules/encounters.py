"""What a tile or a card does to the Knight, whoever's turn it is: Event cards and tokens (Vast rulebook
§Eventi), Treasure cards (§Tesori e Gemme; §Tesori) and Ambushes (§Imboscata; docs/vast/facts.md §7 Goblin
Infestation); below the roles' modules, which start them, and the driver (``flow``), which answers them."""

from __future__ import annotations

from dicelog.domain.core.events import DecisionRequested, DrawRequested, Event, RollRequested
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.content import event_kind
from dicelog.domain.vast.evolve import fold
from dicelog.domain.vast.rules import infestation as line_c
from dicelog.domain.vast.rules.common import (
    cell_at,
    cubes_on,
    free_cubes,
    grit_change,
    infestation,
    owned_cubes,
    strength,
    the_knight,
)
from dicelog.domain.vast.rules.tiles import event_tokens, ordered_events, top_events
from dicelog.domain.vast.rules.tribes import ambush_choice, ambusher_strength, hidden_tribes
from dicelog.domain.vast.state import VastState


def event_token_met(state: VastState, pos: tuple[int, int]) -> list[Event]:
    """The Knight on a tile with an Event token resolves it as an Event tile, then it leaves the map (Vast
    rulebook §Rivelare e risolvere le tessere Buie, Evento)."""
    cell = cell_at(state, pos)
    if cell is None or not cell.event_token or not event_tokens(state):
        return []
    taken: list[Event] = [ev.EventTokenTaken(x=pos[0], y=pos[1])]
    return taken + event_offer(fold(state, taken))


def treasure_offer(state: VastState) -> list[Event]:
    """One Treasure token: the Cave draws 2 Treasure cards and gives 1 (§Tesori; without a Cave player she
    draws the top card); with the deck empty the Knight gains 5 Grit instead (§Tesori e Gemme)."""
    deck, bottom = state.treasure_deck, state.treasure_bottom
    if not deck and not bottom:
        return grit_change(state, 5, "no-treasure", step="treasure")
    if deck and state.cave is None:  # §Tesori: without a Cave player, she draws the top card
        return [DrawRequested(reason="treasure-top", deck="treasure", cards=deck, count=1, piece="knight")]
    if deck:
        return [
            DrawRequested(
                reason="treasure", deck="treasure", cards=deck, count=min(2, len(deck)), piece="cave"
            )
        ]
    return treasure_choice(state, ())


def treasure_choice(state: VastState, drawn: tuple[str, ...]) -> list[Event]:
    offer = (*drawn, *[c for c in state.treasure_bottom if c not in drawn][: 2 - len(drawn)])
    if len(offer) == 1 or state.cave is None:
        return [ev.TreasureOffered(card=offer[0]), keep_decision()]
    return [DecisionRequested(decision="treasure-choice", options=offer, piece="cave", default=offer[0])]


def keep_decision() -> DecisionRequested:
    """The Knight keeps the Treasure face down or declines it for 5 Grit (§Tesori e Gemme). Default: keep."""
    return DecisionRequested(
        decision="keep-treasure", options=("keep", "decline"), piece="knight", default="keep"
    )


def event_offer(state: VastState) -> list[Event]:
    """The Cave draws 3 Event cards and plays 1 on the Knight (§Eventi; without a Cave player she draws and
    resolves the top card); with none left, nothing. From rules revision 6 the 3 are the deck's top ones,
    which the Cave has read (``top_events``)."""
    deck, bottom = state.event_deck, state.event_bottom
    if not deck and not bottom:
        return []
    if ordered_events(state):
        top = top_events(state)
        if len(top) == 1:
            return play_event(state, top[0], ())
        return [DecisionRequested(decision="event-choice", options=top, piece="cave", default=top[0])]
    if deck and state.cave is None:  # §Rivelare e risolvere, Evento: without a Cave player, the top card
        return [DrawRequested(reason="event-top", deck="events", cards=deck, count=1, piece="knight")]
    if deck:
        return [
            DrawRequested(reason="events", deck="events", cards=deck, count=min(3, len(deck)), piece="cave")
        ]
    return event_choice(state, ())


def event_choice(state: VastState, drawn: tuple[str, ...]) -> list[Event]:
    offer = (*drawn, *[c for c in state.event_bottom if c not in drawn][: 3 - len(drawn)])
    if len(offer) == 1 or state.cave is None:
        return play_event(state, offer[0], ())
    return [DecisionRequested(decision="event-choice", options=offer, piece="cave", default=offer[0])]


def play_event(state: VastState, card: str, others: tuple[str, ...]) -> list[Event]:
    """Play Event ``card`` (docs/vast/facts.md §2 Event cards); ``others`` go to the bottom of the deck."""
    kind = event_kind(card)
    k = state.knight
    reveals: tuple[tuple[int, int], ...] = ()
    if kind == "vantage-point" and k is not None:
        around = [(k.x + dx, k.y + dy) for dy in (1, 0, -1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]
        reveals = tuple(p for p in around if (c := cell_at(state, p)) is not None and not c.lit)
    events: list[Event] = [ev.EventPlayed(card=card, bottom=others, reveals=reveals)]
    after = fold(state, events)
    if k is None:
        return events
    if kind == "ambush":
        return events + ambush(after)
    if kind == "rats":
        return events + grit_change(after, -2, "rats")
    if kind == "deep-and-dark" and after.omen_bag and after.cave is not None:
        return [
            *events,
            DrawRequested(reason="deep-and-dark", deck="omens", cards=after.omen_bag, count=2, piece="cave"),
        ]
    if kind == "deep-and-dark" and after.cave is None and state.rules_revision >= 6:
        # docs/vast/facts.md §2 Event cards, Deep and Dark: «with no Cave player she gains a Treasure card»
        # (rules revision 6; before, nothing happened)
        return events + treasure_offer(after)
    knight = the_knight(after)
    if kind == "light" and free_cubes(knight) and owned_cubes(knight) > 2:
        default = "discard-cube" if knight.health < knight.max_health else "no"
        return [
            *events,
            DecisionRequested(
                decision="light", options=("discard-cube", "no"), piece="knight", default=default
            ),
        ]
    if kind in ("fresh-air", "fresh-water") and free_cubes(knight):
        default = "spend-cube" if knight.health < knight.max_health else "no"
        return [
            *events,
            DecisionRequested(decision=kind, options=("spend-cube", "no"), piece="knight", default=default),
        ]
    if kind == "cave-bread" and owned_cubes(knight) < 7:
        return [*events, ev.HeroCubeRecovered()]
    return events


def ambush(state: VastState) -> list[Event]:
    """An Ambush without a Goblins player (docs/vast/facts.md §7 Goblin Infestation, line B "Tough", Strength
    3): first the Knight may put Hero cubes on Strength (Vast rulebook §Imboscata; decision ``ambush-cubes``,
    default the fewest cubes that make her stronger, else none); then stronger: nothing; equal: the Dragon
    die, a center hit costs 1 Health; weaker: 1 Health."""
    k = state.knight
    if k is None:
        return []
    if line_c.active(state) and not state.ambusher:
        # docs/vast/facts.md §7 Goblin Infestation line C: the Monster is drawn first
        return line_c.spring(state)
    own = state.turn == "knight"
    room = min(free_cubes(k), 3 - min(3, cubes_on(k, "strength")))
    s = strength(k, own)
    threat = ambusher_strength(state) if "goblins" in state.roles else infestation(state)
    if "goblins" in state.roles and not hidden_tribes(state):
        return [ev.VastAmbushResolved(strength=s, ambusher=0, hurt=False)]
    if room > 0 and s <= threat:
        need = threat + 1 - s
        default = str(need) if need <= room else "0"
        options = tuple(str(n) for n in range(room + 1))
        return [DecisionRequested(decision="ambush-cubes", options=options, piece="knight", default=default)]
    return ambush_strike(state)


def ambush_strike(state: VastState) -> list[Event]:
    if "goblins" in state.roles:
        return ambush_choice(state)
    k = the_knight(state)
    s = strength(k, state.turn == "knight")
    threat = infestation(state)
    if s > threat:
        return unhurt(state, s)
    if s == threat:
        return [RollRequested(reason="ambush", dice=1, sides=6)]
    return hurt(state, s)


def unhurt(state: VastState, s: int) -> list[Event]:
    """An Ambush that does not hurt her; line C's Monster is then discarded."""
    events: list[Event] = [
        ev.VastAmbushResolved(strength=s, ambusher=infestation(state), hurt=False, monster=state.ambusher)
    ]
    if state.ambusher:
        events += line_c.settle(state, text_applied=False)
    return events


def hurt(state: VastState, s: int) -> list[Event]:
    """An Ambush that costs her 1 Health; line C's Monster's Ambush text then applies (``line_c.texts``)."""
    k = the_knight(state)
    events: list[Event] = [
        ev.VastAmbushResolved(strength=s, ambusher=infestation(state), hurt=True, monster=state.ambusher),
        ev.HealthChanged(delta=-1, why="ambush"),
    ]
    if k.health - 1 <= 0:
        events.append(ev.KnightDied(why="ambush"))
    if state.ambusher:
        events += line_c.texts(fold(state, events), fold)
    return events
