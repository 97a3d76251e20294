"""The Mice and Mystics game state: a frozen msgspec Struct, plain enough for JSON snapshots.

It is only ever built by ``evolve`` from events (docs/architecture.md, The core idea: decide / evolve).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Raw, Struct, field

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import CardsDrawn, DiceRolled
from dicelog.domain.mice_and_mystics.documents import CarryOver, Sandbox

PackDocument = Annotated[Raw, Meta(extra_json_schema={"type": "object", "additionalProperties": True})]
"""One document of a content pack, kept as its compact JSON (``packs.setup_pack``): a JSON object in the
format of the shipped content file of the same name (the schema says so; the bytes are kept as they are)."""

Phase = Literal["setup", "initiative", "playing", "ended"]

RULES_REVISION = 3
"""The revision of these rules new games are created with (``GameCreated.rules_revision``). A fix
that changes play raises it, and the rules keep the older behaviour for games of older revisions, so
every stored game re-derives exactly as it was played (docs/event-model.md, Exact replay):

1. as played up to and including the release of 2026-11-23;
2. an initiative track laid again during a turn (an encounter revealed with no minion card on the
   track) starts a new round from the top once that turn ends, and no card starts two turns in a
   round (a minion card removed and laid again waits for the next round) (MM rulebook (it) §Determinare
   l'Ordine di Iniziativa; docs/mice-and-mystics/rulings.md, Encounter with no minion card on the track);
   revision 1 went on from the exploring mouse's new slot, which gave cards two turns in a round or none;
   Chapter 1 is won with every mouse that is not captured on the tree entrance (MM rulebook (it) Capitolo 1,
   Obiettivi del Capitolo), where revision 1 needed no mouse captured; the Roach Master calms greedy roaches
   on its tile (MM rulebook (pt) «no mesmo bloco»), where revision 1 read its space; a party item drawn in a
   search goes to the party stash at once (MM rulebook (it) §Oggetti del Gruppo), where revision 1 offered
   keep or discard; a mouse in water cannot step against the current (MM rulebook (pt) §Movendo-se na água); a
   ranged minion that sees no mouse walks the shortest path until it sees one, with no move roll (MM rulebook
   (it) §Muovere i Servitori con Armi a Distanza); small melee minions left over an even spread go to the
   entrances nearest the mice (MM rulebook (pt) «mais próximos aos ratos»); the chapter's opening and «Il
   Racconto Continua…» are given as ``ChapterStoryRead`` events; ``GameEnded.reason`` is set;
3. an Explore that must turn over the board of the room entered while figures stand on it is refused
   (``explore.board-occupied``; provisional: MM rulebook (it) §Esplorare does not say where they would go),
   where revision 2 turned the board over and left them on spaces of the face no longer on the table.
"""


class PlacedTile(Struct, frozen=True, kw_only=True):
    """A room tile on the table, at a grid position (column right, row down)."""

    tile: str
    """The room tile face on the table (a tile id such as ``guard-room``; see
    ``/content/mice-and-mystics/tiles``). It changes to the other face when the board is turned over."""
    column: int
    """The tile's grid column, growing to the right; one room tile per cell, and tiles in neighbouring cells
    meet at their exits (a chapter starts at 0; a sandbox may use -20 to 20)."""
    row: int
    """The tile's grid row, growing downward (as ``column``)."""


class MouseTurn(Struct, frozen=True, kw_only=True):
    """Progress of the current mouse's turn (MM rulebook (it) §Il Turno di un Topo).

    ``movement_points`` is ``None`` until the move roll is resolved; ``moved`` once the mouse moved
    (or spent its roll).
    """

    mouse: str
    """The mouse whose turn it is (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    moved: bool = False
    """Whether the mouse's move is over: it walked, started its action with a rolled move not walked (the move
    is given up), stood up from knocked down, or spent its move leaving water. A Scurry roll sets it back to
    false until the second move is walked."""
    movement_points: int | None = None
    """Movement points of the latest move roll: the action die's move number plus the mouse's move value.
    ``None`` until the mouse rolls (``Move``). Not reduced as the mouse walks: one ``MoveTo`` uses the
    move."""
    action: str | None = None
    """The mouse's latest action this turn: ``battle``, ``search``, ``recover``, ``scurry``, ``explore``,
    ``cure``, ``catapult``, ``fork`` (picking up the Dinner Fork), ``fishhook`` (taking back Fishhook &
    Thread) or ``charmed-attack``; ``None`` until it takes one."""
    free_actions: tuple[str, ...] = ()  # free actions taken this turn (rules/free_actions.py)
    """The free actions taken this turn, each at most once: ``share``, ``equip`` (Equip or Unequip),
    ``level-up``, ``scroll``."""
    ability: str | None = None  # the one ability card used this turn (rules/ability_cards.py)
    """The ability card the mouse used this turn (an ability id; see ``/content/mice-and-mystics/abilities``):
    one card a turn, possibly used several times. ``None``: no card used yet."""
    ability_uses: tuple[str, ...] = ()  # how it was used (e.g. "first-aid"), for once-a-turn cards
    """Every use of an ability card this turn, in order, as the card's id (a card used twice appears
    twice)."""
    extra_action: bool = False  # Inspire's one extra action taken this turn (rules/inspire.py)
    """Whether the mouse took Inspire's one extra action this turn."""
    ability_after_action: bool = (
        False  # the card's last use came once the first action had started (rules/shots.py)
    )
    """Whether the latest use of ``ability`` came once the turn's first action had started: Aimed, Power and
    Accurate Shot then apply to the attack of Inspire's extra action, not the first one."""
    knife_strikes: int = (
        0  # Knife Strike attacks still to make after the one in flight (rules/knife_strike.py)
    )
    """Knife Strike attacks still to make after the one in flight (one per further equipped dagger); 0:
    none."""
    scroll_effects: tuple[
        str, ...
    ] = ()  # scroll effects in force for the rest of the turn (rules/scrolls.py)
    """Effects of the scrolls read this turn, in force until the turn ends (``levitation``: the mouse crosses
    red lines)."""


class Attack(Struct, frozen=True, kw_only=True):
    """An attack in flight (MM rulebook (it) §Attacco): ``attacker`` figure on ``target`` figure, ``hits``
    once rolled."""

    attacker: str
    """The attacking figure: a mouse id, or a minion figure id such as ``rat-warriors-1`` (a boss figure is
    named by the boss, e.g. ``brodie``)."""
    target: str
    """The figure defending now. With ``others``, the next of them becomes the target once it has defended."""
    ranged: bool
    """Whether the attack is ranged (hits on bows) rather than melee (hits on swords and swords/shields)."""
    dice: int
    """The number of battle dice rolled for the attack (0 for the Grapes, which are flipped like a coin
    instead)."""
    hits: int = 0
    """Hits the attack roll scored; 0 until the roll is made."""
    others: tuple[str, ...] = ()
    """Further figures that each defend in turn against the same hits after ``target`` (Chain Lightning,
    Brodie, the Grapes); empty: a single target."""
    weapon: str | None = None  # the card attacked with, when not the first weapon (Knife Strike's daggers)
    """The card the mouse attacks with when it is not its first equipped weapon (each Knife Strike attack
    names its dagger); ``None``: the first weapon, or a minion's own attack."""


class MinionTurn(Struct, frozen=True, kw_only=True):
    """Progress of a minion card's turn (MM rulebook (it) §Muovere un Servitore; MM rulebook (it) §Attaccare
    con un Servitore).

    ``figure`` is the figure acting now, ``stage`` what it does next; ``acted`` the figures that
    have acted; ``attacked`` the mice attacked this turn.
    """

    card: str
    """The minion or boss initiative card taking its turn (a card id such as ``rat-warriors``; see
    ``/content/mice-and-mystics/minions``)."""
    figure: str | None = None
    """The card's figure acting now (e.g. ``rat-warriors-2``); ``None`` until the first one is activated."""
    stage: Literal["move", "attack", "done"] = "done"
    """What the acting figure does next: ``move``, ``attack``, or ``done`` (it has finished; the next figure,
    nearest to the mice first, is activated)."""
    acted: tuple[str, ...] = ()
    """The card's figures activated so far this turn, in order, the acting one included."""
    attacked: tuple[str, ...] = ()
    """The mice the card's figures attacked this turn (each figure prefers a mouse not attacked yet)."""
    extra_attacks: int = 0
    """Further attacks the acting figure still makes (Captain Vurst's Pistoleer: one per cheese on his attack
    roll)."""
    crossed: tuple[str, ...] = ()
    """The spaces of the latest minion move this turn, its start space first (Brodie's Chase attacks every
    figure on them); empty before any move."""


class Deferred(Struct, frozen=True, kw_only=True):
    """A computation waiting for the players to break its ties (``rules/ties.py``; MM rulebook (it) §Collocare
    i Servitori sul Tabellone; MM rulebook (it) §Brodie Insegue): ``context`` names it, ``answer`` is the roll
    or draw it resolves, ``choices`` the options chosen so far, in the order asked."""

    context: str
    """The computation waiting: ``begin`` (chapter setup), ``summon``, ``encounter`` (the encounter card
    drawn) or ``brodie-chase`` (Brodie's move roll)."""
    answer: DiceRolled | CardsDrawn | None = None
    """The roll or draw the computation was resolving when it met a tie (the encounter draw, Brodie's move
    roll); ``None`` for setup and summons."""
    choices: tuple[str, ...] = ()
    """The options the players chose so far for its ties, in the order asked."""


class State(Struct, frozen=True, kw_only=True):
    """Everything the rules need, and nothing derived from content.

    ``board`` maps a space id to the figure ids on it (only occupied spaces are keys);
    ``figures`` maps a figure id to its initiative card id; ``track`` is the initiative track,
    top first; ``slot`` is the index of the card taking its turn. ``awaiting`` is the reason of a
    pending roll/shuffle/decision (the core holds the node itself).
    """

    chapter: str
    """The chapter being played (a chapter id such as ``chapter-1``; see
    ``/content/mice-and-mystics/chapters``)."""
    party: tuple[str, ...]
    """The party's mice, as mouse ids in the setup document's order (see
    ``/content/mice-and-mystics/mice``)."""
    phase: Phase = "setup"
    """``setup`` from creation (the table is set up by ``Begin``), ``initiative`` while the first initiative
    shuffle is pending, ``playing`` once the initiative track is laid, ``ended`` when the chapter is over."""
    tiles: tuple[PlacedTile, ...] = ()
    """The room tiles on the table, in the order placed, each at its grid cell."""
    board: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Space id (e.g. ``GR-6``) -> the figures on it, in the order they arrived: mouse ids and minion figure
    ids such as ``rat-warriors-1``. Only occupied spaces are keys."""
    figures: dict[str, str] = field(default_factory=dict)
    """Figure id -> its initiative card id: a mouse to itself, a minion figure ``<card>-<n>`` to its card, a
    boss figure to one of its cards (see ``boss_cards``). Captured mice stay listed; defeated minions
    leave."""
    track: tuple[str, ...] = ()
    """The initiative track, top first: initiative card ids (mouse ids and minion or boss card ids)."""
    round: int = 0
    """The round number, counted from 1; 0 before the first round."""
    slot: int | None = None
    """The 0-based position on ``track`` of the card taking (or that last took) its turn this round; ``None``
    before the round's first turn."""
    mouse_turn: MouseTurn | None = None
    """The turn of the mouse playing now; ``None`` outside a mouse's turn (and in a captured mouse's turn)."""
    cheese_wheel: int = 0
    """Cheese on the minion cheese wheel; at 6 or more the minions summon: the wheel is emptied and the
    hourglass moves one page on."""
    cheese: dict[str, int] = field(default_factory=dict)
    """Mouse id -> the cheese in its stash; a mouse absent has none."""
    hourglass_page: int = 0
    """The story board page the hourglass is on (the chapter's starting page once set up; 0 before). It moves
    one page on at each summon and capture; on reaching ``end_marker_page`` the chapter is lost."""
    end_marker_page: int = 0
    """The story board page of the chapter end marker (0 before setup); some achievements move it one page
    on."""
    encounter_deck: tuple[str, ...] = ()
    """The encounter cards still in the deck (ids as in ``/content/mice-and-mystics/encounters``), in no
    meaningful order: a draw takes one at random."""
    awaiting: str | None = None
    """The reason of the pending roll, shuffle or draw, or the name of the pending decision (e.g. ``move``,
    ``search``, ``initiative``); ``None`` when nothing is pending."""
    turn_open: bool = False
    """Whether a turn is under way: true from a card's turn start to its turn end."""
    minion_turn: MinionTurn | None = None
    """The turn of the minion or boss card playing now; ``None`` outside a minion card's turn."""
    attack: Attack | None = None
    """The attack being resolved; ``None`` when no attack is in flight."""
    wounds: dict[str, int] = field(default_factory=dict)
    """Figure id -> its wounds (a mouse's include its poison wounds); absent: none. A boss's wounds are kept
    per card in ``card_wounds``. A captured mouse loses its wounds."""
    captured: tuple[str, ...] = ()
    """The captured mice (off the board), in the order captured; a released mouse leaves the list."""
    effects: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Figure id -> its negative effects: ``stunned``, ``webbed``, ``knocked-down``, ``charmed`` (poison is
    counted in ``poison_wounds``); absent: none."""
    search_deck: tuple[str, ...] = ()
    """The search cards still in the deck (ids as in ``/content/mice-and-mystics/search-cards``), in no
    meaningful order: a draw takes one at random."""
    searched: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Mouse id -> the room tiles in which its search succeeded (a star); it may not search those rooms
    again."""
    pack: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Mouse id -> the cards in its pack (carried, not equipped), in the order they came in. When more than 3
    cards that take room are in it (tricks take none), its player discards one."""
    encounter_face_up: str | None = None
    """The encounter card face up (drawn for the latest room entered for the first time); its band sets the
    next summon. ``None``: none, or discarded after its summon."""
    explored: tuple[str, ...] = ()
    """Room tiles entered for the first time by exploring (or marked explored by a sandbox); entering one
    again draws no encounter, nor does the chapter's starting room."""
    last_drawn: tuple[str, ...] = ()
    """The cards of the latest draw from any deck (search, encounter, a boss's cards), in draw order."""
    # Chapter room rules, sandbox and campaign (rules/chapter_1.py, rules/sandbox.py, campaign.py)
    story_achievements: tuple[str, ...] = ()
    """Story achievements the party holds (e.g. ``miz-maggie-ally``), those carried over from earlier chapters
    of a campaign included."""
    abilities: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Mouse id -> the ability cards it holds (ids as in ``/content/mice-and-mystics/abilities``): its
    starting card, cards bought by levelling up, cards carried over."""
    counter_cheese: int = 0
    """Cheese on the Kitchen counter (Chapter 1 room rule): put there at the first entry into the Kitchen;
    each cheese a roach rolls there moves 1 to the minion cheese wheel."""
    special_searches: tuple[str, ...] = ()
    """Room tiles whose special search item has been found (each is found once)."""
    kitchen_roach: str | None = None
    """The roach figure a mouse just defeated in the Kitchen, while the Miz Maggie roll is resolved (Chapter 1
    room rule); ``None`` otherwise."""
    sandbox: Sandbox | None = None
    """The sandbox table of the setup document, laid out by ``Begin`` instead of the chapter's own setup;
    ``None``: the chapter's setup."""
    carry_in: CarryOver | None = None
    """The campaign carry-over of the setup document, until ``Begin`` applies it (then ``None``); ``None``
    also for a chapter played alone."""
    setup_abilities: dict[str, str] = field(
        default_factory=dict
    )  # chosen in the setup document (rules/starting_abilities.py)
    """Mouse id -> the starting ability card chosen for it in the setup document; a mouse left out chooses
    through a pending decision at setup."""
    poison_wounds: dict[str, int] = field(default_factory=dict)
    """Mouse id -> how many of its ``wounds`` are poison wounds; ordinary healing never removes them (only
    antidotes and Cure). Absent: none."""
    greedy: tuple[str, ...] = ()
    """Roach figures made greedy by an encounter's Greedy Roaches keyword: the cheese they steal goes on the
    minion cheese wheel."""
    boss_cards: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Boss figure id (e.g. ``brodie``) -> the initiative cards it acts on; a card leaves when its wounds
    reach its lives, and the boss is defeated with its last card."""
    card_wounds: dict[str, int] = field(default_factory=dict)
    """Boss initiative card id -> the wounds on that card (a boss's wounds go on its cards); absent: none."""
    ambush: tuple[str, ...] | None = None
    """The ambush due once the minion cards are on the track: ``None``: no ambush; empty: every minion card on
    the track ambushes; else the ambushing cards."""
    traps: tuple[str, ...] = ()
    """The spaces holding a mousetrap token."""
    trap_rest: tuple[str, ...] = ()
    """While a mouse rolls for the mousetrap it stopped on: the rest of its path, walked on if it passes;
    empty otherwise."""
    water_target: str | None = None
    """While a mouse leaving water rolls to reach a dry space: that space; ``None`` otherwise."""
    achievements: dict[str, str] = field(
        default_factory=dict
    )  # personal achievement -> mouse (achievements.py)
    """Personal achievement (``cheese-master``, ``roach-master``, ``poison-master``, ``escape-artist``,
    ``cat-tamer``) -> the mouse that earned it; each is earned once a chapter."""
    captures: dict[str, int] = field(default_factory=dict)
    """Mouse id -> how many times it was captured this chapter; absent: never."""
    roaches_defeated: dict[str, int] = field(default_factory=dict)
    """Mouse id -> the roaches it defeated since the current encounter started (four make the Roach Master);
    absent: none."""
    # Free actions and party items (rules/equip.py, rules/party_items.py): a mouse absent from
    # ``equipped`` has its starting equipment equipped; ``tokens`` maps a party item on the board to
    # the spaces of its ends.
    equipped: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """Mouse id -> its equipped cards as (card id, place) pairs in the order equipped; a place is ``paw``,
    ``both-paws``, ``body``, ``accessory`` or ``tail``. A mouse absent has its starting equipment equipped."""
    party_items: tuple[str, ...] = ()
    """The party item cards the party holds (``disguises``, ``fishhook-and-thread``, ``dinner-fork``,
    ``grapes``); their tokens are in the party stash or on the board."""
    tokens: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Party item -> the spaces of its token's ends on the board (Fishhook & Thread: two; Dinner Fork and
    Grapes: one); an item absent is not on the board."""
    # Ability cards played outside the card's own moment (rules/preemptive_shot.py, rules/inspire.py):
    # minion figures placed since the last Preemptive Shot window (tracked while a mouse holds the
    # card), and the round in which Inspire is in force (0: none).
    new_minions: tuple[str, ...] = ()
    """Minion figures placed since the last Preemptive Shot window closed (tracked only while a mouse holds
    Preemptive Shot)."""
    inspire_round: int = 0
    """The round in which Inspire is in force (each mouse may then pay 1 cheese for one extra action); 0:
    none."""
    deferred: Deferred | None = None  # a placement or chase waiting for tie-breaking choices (rules/ties.py)
    """A minion placement or Brodie chase waiting for the players to break ties; ``None`` otherwise."""
    # The game's content pack (domain.mice_and_mystics.packs): file name -> the document's compact
    # JSON, kept as raw bytes (encoded exactly as the decoded documents of earlier releases were);
    # the digest identifies the pack's library (packs.library_of). Both None: the shipped content.
    content_pack: dict[str, PackDocument] | None = None
    """The game's content pack, if it was created with one: file name (as in the shipped content, e.g.
    ``mice.json``) -> that document's compact JSON. ``None``: the shipped content."""
    content_pack_digest: str | None = None
    """Hex SHA-256 of the content pack's canonical JSON (compact, keys sorted), naming its content; ``None``
    with no pack."""
    rules_revision: int = 1
    """The revision of the rules this game is played by (``GameCreated.rules_revision``; see
    ``RULES_REVISION``)."""
    round_ends_after_turn: bool = False
    """True when the initiative track was laid again during the turn under way (rules revision 2): when that
    turn ends, a new round starts from the top of the new track."""
    acted_this_round: tuple[str, ...] = ()
    """The initiative cards that started a turn this round, in order (rules revision 2 never starts a second
    one: a minion card removed and laid again in the same round waits for the next round)."""

    @property
    def turn_card(self) -> str | None:
        if self.slot is None or not 0 <= self.slot < len(self.track):
            return None
        return self.track[self.slot]


def space_of(state: State, figure: str) -> str | None:
    """The space a figure stands on, if it is on the board."""
    return next((space for space, figures in state.board.items() if figure in figures), None)


def board_space(state: State, figure: str) -> str:
    """The space of a figure the rules know is on the board (``space_of``); ``InvariantViolated``
    (``figure-on-board``) when it is not."""
    space = space_of(state, figure)
    if space is None:
        raise InvariantViolated("figure-on-board", f"{figure} is off the board")
    return space


LATE_FIELDS: dict[str, object] = {
    "rules_revision": 1,
    "round_ends_after_turn": False,
    "acted_this_round": [],
}
"""``State`` fields added after games were stored, with their defaults (as JSON): omitted from the
stored encoding of a state while at these values (``dicelog.domain.core.game.encode_state``), so the
``UndoApplied`` events and snapshots of older games re-derive byte for byte. Revision 1 games keep
all three at these values."""
