"""The Mice and Mystics game state: a frozen msgspec Struct, plain enough for JSON snapshots.

It is only ever built by ``evolve`` from events (DESIGN.md, The core idea: decide / evolve).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Raw, Struct, field

from domain.core.events import CardsDrawn, DiceRolled
from domain.mice_and_mystics.documents import CarryOver, Sandbox

Phase = Literal["setup", "initiative", "playing", "ended"]


class PlacedTile(Struct, frozen=True, kw_only=True):
    """A room tile on the table, at a grid position (column right, row down)."""

    tile: str
    column: int
    row: int


class MouseTurn(Struct, frozen=True, kw_only=True):
    """Progress of the current mouse's turn (001 §Il Turno di un Topo).

    ``movement_points`` is ``None`` until the move roll is resolved; ``moved`` once the mouse moved
    (or spent its roll).
    """

    mouse: str
    moved: bool = False
    movement_points: int | None = None
    action: str | None = None
    free_actions: tuple[str, ...] = ()  # free actions taken this turn (rules/free_actions.py)
    ability: str | None = None  # the one ability card used this turn (rules/ability_cards.py)
    ability_uses: tuple[str, ...] = ()  # how it was used (e.g. "first-aid"), for once-a-turn cards
    extra_action: bool = False  # Inspire's one extra action taken this turn (rules/inspire.py)
    ability_after_action: bool = False  # the card's last use came once the first action had started (rules/shots.py)
    knife_strikes: int = 0  # Knife Strike attacks still to make after the one in flight (rules/knife_strike.py)
    scroll_effects: tuple[str, ...] = ()  # scroll effects in force for the rest of the turn (rules/scrolls.py)


class Attack(Struct, frozen=True, kw_only=True):
    """An attack in flight (001 §Attacco): ``attacker`` figure on ``target`` figure, ``hits`` once rolled."""

    attacker: str
    target: str
    ranged: bool
    dice: int
    hits: int = 0
    others: tuple[str, ...] = ()
    weapon: str | None = None  # the card attacked with, when not the first weapon (Knife Strike's daggers)


class MinionTurn(Struct, frozen=True, kw_only=True):
    """Progress of a minion card's turn (000 §Muovere un Servitore; 000 §Attaccare con un Servitore).

    ``figure`` is the figure acting now, ``stage`` what it does next; ``acted`` the figures that
    have acted; ``attacked`` the mice attacked this turn.
    """

    card: str
    figure: str | None = None
    stage: Literal["move", "attack", "done"] = "done"
    acted: tuple[str, ...] = ()
    attacked: tuple[str, ...] = ()
    extra_attacks: int = 0
    crossed: tuple[str, ...] = ()


class Deferred(Struct, frozen=True, kw_only=True):
    """A computation waiting for the players to break its ties (``rules/ties.py``; 001 §Collocare i
    Servitori sul Tabellone; 000 §Brodie Insegue): ``context`` names it, ``answer`` is the roll or
    draw it resolves, ``choices`` the options chosen so far, in the order asked."""

    context: str
    answer: DiceRolled | CardsDrawn | None = None
    choices: tuple[str, ...] = ()


class State(Struct, frozen=True, kw_only=True):
    """Everything the rules need, and nothing derived from content.

    ``board`` maps a space id to the figure ids on it (only occupied spaces are keys);
    ``figures`` maps a figure id to its initiative card id; ``track`` is the initiative track,
    top first; ``slot`` is the index of the card taking its turn. ``awaiting`` is the reason of a
    pending roll/shuffle/decision (the core holds the node itself).
    """

    chapter: str
    party: tuple[str, ...]
    phase: Phase = "setup"
    tiles: tuple[PlacedTile, ...] = ()
    board: dict[str, tuple[str, ...]] = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)
    track: tuple[str, ...] = ()
    round: int = 0
    slot: int | None = None
    mouse_turn: MouseTurn | None = None
    cheese_wheel: int = 0
    cheese: dict[str, int] = field(default_factory=dict)
    hourglass_page: int = 0
    end_marker_page: int = 0
    encounter_deck: tuple[str, ...] = ()
    awaiting: str | None = None
    turn_open: bool = False
    minion_turn: MinionTurn | None = None
    attack: Attack | None = None
    wounds: dict[str, int] = field(default_factory=dict)
    captured: tuple[str, ...] = ()
    effects: dict[str, tuple[str, ...]] = field(default_factory=dict)
    search_deck: tuple[str, ...] = ()
    searched: dict[str, tuple[str, ...]] = field(default_factory=dict)
    pack: dict[str, tuple[str, ...]] = field(default_factory=dict)
    encounter_face_up: str | None = None
    explored: tuple[str, ...] = ()
    last_drawn: tuple[str, ...] = ()
    # Chapter room rules, sandbox and campaign (rules/chapter_1.py, rules/sandbox.py, campaign.py)
    story_achievements: tuple[str, ...] = ()
    abilities: dict[str, tuple[str, ...]] = field(default_factory=dict)
    counter_cheese: int = 0
    special_searches: tuple[str, ...] = ()
    kitchen_roach: str | None = None
    sandbox: Sandbox | None = None
    carry_in: CarryOver | None = None
    setup_abilities: dict[str, str] = field(default_factory=dict)  # chosen in the setup document (rules/starting_abilities.py)
    poison_wounds: dict[str, int] = field(default_factory=dict)
    greedy: tuple[str, ...] = ()
    boss_cards: dict[str, tuple[str, ...]] = field(default_factory=dict)
    card_wounds: dict[str, int] = field(default_factory=dict)
    ambush: tuple[str, ...] | None = None
    traps: tuple[str, ...] = ()
    trap_rest: tuple[str, ...] = ()
    water_target: str | None = None
    achievements: dict[str, str] = field(default_factory=dict)  # personal achievement -> mouse (achievements.py)
    captures: dict[str, int] = field(default_factory=dict)
    roaches_defeated: dict[str, int] = field(default_factory=dict)
    # Free actions and party items (rules/equip.py, rules/party_items.py): a mouse absent from
    # ``equipped`` has its starting equipment equipped; ``tokens`` maps a party item on the board to
    # the spaces of its ends.
    equipped: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    party_items: tuple[str, ...] = ()
    tokens: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Ability cards played outside the card's own moment (rules/preemptive_shot.py, rules/inspire.py):
    # minion figures placed since the last Preemptive Shot window (tracked while a mouse holds the
    # card), and the round in which Inspire is in force (0: none).
    new_minions: tuple[str, ...] = ()
    inspire_round: int = 0
    deferred: Deferred | None = None  # a placement or chase waiting for tie-breaking choices (rules/ties.py)
    # The game's content pack (domain.mice_and_mystics.packs): file name -> the document's compact
    # JSON, kept as raw bytes (encoded exactly as the decoded documents of earlier releases were);
    # the digest identifies the pack's library (content.library_of). Both None: the shipped content.
    content_pack: dict[str, Raw] | None = None
    content_pack_digest: str | None = None

    @property
    def turn_card(self) -> str | None:
        if self.slot is None or not 0 <= self.slot < len(self.track):
            return None
        return self.track[self.slot]


def space_of(state: State, figure: str) -> str | None:
    """The space a figure stands on, if it is on the board."""
    return next((space for space, figures in state.board.items() if figure in figures), None)
