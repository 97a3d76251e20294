"""Bosses and ambushes (MM rulebook (it) §Carte Iniziativa dei Boss; MM rulebook (it) §Ferire un Boss; MM
rulebook (it) §Boss dei Servitori; MM rulebook (it) §Imboscate).

A boss is one figure acting on one or more initiative cards (``State.boss_cards``). Entering play, a
boss with more than 2 cards draws 2 of them at random (a ``DrawRequested``); if minion cards are
already on the track, both its cards go to the bottom and the first is ambushed (a boss with one card:
added like a new minion card, no ambush); with no minion card on the track they are laid
"normalmente": shuffled with the mice's cards into a new track, as when an encounter is revealed
(docs/mice-and-mystics/rulings.md, Bosses). Only tests reach ``enter_boss`` so far: no chapter brings a boss
in; a sandbox table places one already in play (``SandboxFigure.boss``, its cards on the given track). Each
wound a mouse deals to a boss goes on the card the players choose (a ``DecisionRequested`` listing every split
of the wounds, default: all on the card higher on the track); a card whose wounds reach its lives leaves the
track, and the boss is defeated with its last card. Ambush: one die per ambushing card, from the top of the
track down; each card moves up the die's move number of slots (the others move down).
"""

from __future__ import annotations

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import (
    CardsDrawn,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    DrawRequested,
    Event,
    RollRequested,
    ShuffleRequested,
)
from dicelog.domain.mice_and_mystics.events import (
    AmbushDeclared,
    AmbushResolved,
    BossCardsAssigned,
    BossWounded,
    FigurePlaced,
    InitiativeCardMovedUp,
    InitiativeCardRemoved,
    InitiativeCardsAdded,
    MinionDefeated,
)
from dicelog.domain.mice_and_mystics.packs import library_of
from dicelog.domain.mice_and_mystics.rules import achievements
from dicelog.domain.mice_and_mystics.rules.dice import MOVE_NUMBER
from dicelog.domain.mice_and_mystics.rules.explore import ENCOUNTER_INITIATIVE
from dicelog.domain.mice_and_mystics.state import State, space_of

BOSSES = {  # docs/mice-and-mystics/facts.md §0 (the 19 initiative cards) and §3
    "captain-vurst": ("captain-vurst",),
    "skitter-clak": ("skitter-clak",),
    "brodie": ("brodie-chases", "brodie-pounces"),
    "vanestra": ("vanestras-call", "vanestras-charm", "vanestras-sting", "vanestras-web"),
}
BOSS_CARDS, BOSS_WOUND, AMBUSH = "boss-cards", "boss-wound", "ambush"


def enter_boss(state: State, boss: str, space: str) -> list[Event]:
    """The boss figure on ``space`` (``FigurePlaced``, figure id = ``boss``), then its cards: a
    ``DrawRequested`` (``boss-cards``, 2 of them) if it has more than 2, else all of them laid on the
    track (``_assign``). ``boss`` is a key of ``BOSSES`` (KeyError otherwise: callers pass content)."""
    cards = BOSSES[boss]
    events: list[Event] = [FigurePlaced(figure=boss, card=cards[0], space=space)]
    if len(cards) > 2:
        return [
            *events,
            DrawRequested(reason=BOSS_CARDS, deck=f"boss-{boss}", cards=tuple(sorted(cards)), count=2),
        ]
    return events + _assign(state, boss, cards, space)


def resolve_boss_cards(state: State, answer: CardsDrawn) -> list[Event]:
    boss = answer.deck.removeprefix("boss-")
    space = space_of(state, boss)
    if space is None:
        raise InvariantViolated("figure-on-board", f"boss cards drawn for {boss}, not on the board")
    return [
        FigurePlaced(figure=boss, card=answer.cards[0], space=space),
        *_assign(state, boss, answer.cards, space),
    ]


def _assign(state: State, boss: str, cards: tuple[str, ...], space: str) -> list[Event]:
    """``BossCardsAssigned`` then the boss's cards on the track (MM rulebook (it) §Carte Iniziativa dei Boss:
    "disponetele normalmente sulla Colonna dell'Iniziativa", i.e. MM rulebook (it) §Determinare l'Ordine di
    Iniziativa). Minion cards on the track: a boss with several cards puts them at the bottom and
    its first card ambushes; a single card is added like any new minion card. No minion card on the
    track: every card of the table (the mice's and the boss's) is shuffled into a new track
    (``encounter-initiative`` shuffle, resolved by ``explore.resolve_encounter_initiative``)."""
    events: list[Event] = [BossCardsAssigned(figure=boss, cards=cards)]
    if any(c not in state.party for c in state.track):
        ambush: list[Event] = [AmbushDeclared(cards=cards[:1])] if len(cards) > 1 else []
        return [*events, InitiativeCardsAdded(cards=cards), *ambush]
    mice = tuple(c for c in state.track if c in state.party)
    return [*events, ShuffleRequested(reason=ENCOUNTER_INITIATIVE, cards=(*mice, *cards))]


def ambush_cards(state: State) -> tuple[str, ...]:
    if state.ambush is None:
        return ()
    return state.ambush or tuple(c for c in state.track if c not in state.party)


def ambush_step(state: State) -> list[Event]:
    """MM rulebook (it) §Imboscate: one die for each ambushing card on the track."""
    cards = tuple(c for c in ambush_cards(state) if c in state.track)
    return [RollRequested(reason=AMBUSH, dice=len(cards))] if cards else [AmbushResolved()]


def resolve_ambush(state: State, answer: DiceRolled) -> list[Event]:
    cards = tuple(c for c in ambush_cards(state) if c in state.track)
    moves = [
        InitiativeCardMovedUp(card=c, by=MOVE_NUMBER[f]) for c, f in zip(cards, answer.faces, strict=False)
    ]
    return [*moves, AmbushResolved()]


def splits(cards: tuple[str, ...], wounds: int) -> tuple[str, ...]:
    """Every way to put ``wounds`` on two cards, as ``card:n,card:m`` (all on the first card first)."""
    if len(cards) == 1:
        return (f"{cards[0]}:{wounds}",)
    a, b = cards[0], cards[1]
    return tuple(",".join(f"{c}:{n}" for c, n in ((a, wounds - k), (b, k)) if n) for k in range(wounds + 1))


def wound_boss(state: State, figure: str, wounds: int, attacker: str | None = None) -> list[Event]:
    """MM rulebook (it) §Ferire un Boss: the players choose the card when a mouse wounds it (one card, or
    wounds dealt by a minion such as Brodie: no choice, the default split)."""
    cards = tuple(c for c in state.track if c in state.boss_cards.get(figure, ()))
    if not cards:
        return []
    options = splits(cards, wounds)
    if len(options) == 1 or attacker not in state.party:
        return apply_split(state, figure, options[0])
    return [DecisionRequested(decision=BOSS_WOUND, options=options, piece=attacker, default=options[0])]


def resolve_boss_wound(state: State, answer: DecisionMade) -> list[Event]:
    figure = next(f for f, cards in state.boss_cards.items() if answer.option.split(":")[0] in cards)
    return apply_split(state, figure, answer.option)


def apply_split(state: State, figure: str, option: str) -> list[Event]:
    events: list[Event] = []
    left = list(state.boss_cards[figure])
    for part in option.split(","):
        card, n = part.split(":")
        events.append(BossWounded(figure=figure, card=card, wounds=int(n)))
        if state.card_wounds.get(card, 0) + int(n) >= library_of(state).minions[card].lives:
            events.append(InitiativeCardRemoved(card=card))
            left.remove(card)
    if not left:
        events.append(MinionDefeated(figure=figure, card=state.figures[figure]))
        mouse = state.mouse_turn.mouse if state.mouse_turn is not None else None
        events += achievements.on_defeat(state, mouse, figure, state.figures[figure])
    return events
