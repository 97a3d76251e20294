"""Mice and Mystics events: past tense, frozen, tagged; never changed once stored (docs/conventions.md, rule
8).

Figure ids: a mouse's figure id is its mouse id (``filch``); a minion figure is
``<card>-<n>`` (``rat-warriors-1``). Initiative card ids: mouse id or minion card id.
"""

from __future__ import annotations

import msgspec

from dicelog.domain.core.events import (
    CardsShuffled,
    DecisionMade,
    DecisionRequested,
    DiceRolled,
    Event,
    RollRequested,
    ShuffleRequested,
)


class RoomTilePlaced(Event, kw_only=True):
    """A room tile put on the table at a grid position (MM rulebook (it) §Preparazione del Gioco, 5)."""

    tile: str
    """The room tile face laid on the table (a tile id such as ``guard-room``; see
    ``/content/mice-and-mystics/tiles``)."""
    column: int
    """The tile's grid column, growing to the right (chapter 1's Guard Room is at 0; a sandbox table may use
    -20 to 20); tiles in neighbouring cells meet at their exits."""
    row: int
    """The tile's grid row, growing downward (as ``column``)."""


class FigurePlaced(Event, kw_only=True):
    """A figure (mouse or minion) put on a space. ``card`` is its initiative card."""

    figure: str
    """The figure placed: a mouse id, or a minion figure id ``<card>-<n>`` such as ``rat-warriors-1``, or a
    boss's id such as ``brodie``; a new minion figure takes the lowest free ``<n>`` from 1."""
    card: str
    """The initiative card the figure acts on (an initiative card id: a mouse id, or a minion card id such as
    ``rat-warriors``); for a boss, its first card."""
    space: str
    """The space the figure now stands on (a space id such as ``GR-6``: the tile's code, then the space
    number). A figure already on the board is moved there (mice landing in a room they explore, a roach put
    back on the Kitchen counter)."""


class StoryBoardPrepared(Event, kw_only=True):
    """Hourglass and chapter end marker set on the bookmark (MM rulebook (it) §Preparazione del Gioco, 8)."""

    hourglass_page: int
    """The story-board page the hourglass starts on (chapter 1: page 1)."""
    end_marker_page: int
    """The story-board page of the chapter end marker (chapter 1: page 6); the chapter is lost when the
    hourglass reaches it (MM rulebook (it) §Plancia del Racconto)."""


class DecksPrepared(Event, kw_only=True):
    """The chapter's decks as sets of card ids; their order is drawn only when a card is drawn."""

    encounter_deck: tuple[str, ...]
    """Ids of the encounter cards in the encounter deck (``standard-1``; see
    ``/content/mice-and-mystics/encounters``), as a set: which card comes next is only decided by a draw."""
    search_deck: tuple[str, ...] = ()
    """Ids of the cards in the search deck (``bow-of-precision``; see
    ``/content/mice-and-mystics/search-cards``), as a set, like ``encounter_deck``."""
    provisional_reason: str = ""
    """Why the decks' contents are provisional, as readable text (``sandbox`` for the decks a sandbox table
    names); empty: they are not."""


class InitiativeTrackLaid(Event, kw_only=True):
    """Initiative cards laid down the track in shuffled order (MM rulebook (it) §Determinare l'Ordine di
    Iniziativa)."""

    cards: tuple[str, ...]
    """The whole initiative track, top first (slot 0 first): mouse ids and minion card ids, in the shuffled
    order."""


class CheeseGained(Event, kw_only=True):
    """A mouse adds cheese to its stash (e.g. Collin's Born to Lead)."""

    mouse: str
    """The mouse whose stash gains the cheese (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    count: int
    """Cheese added to the mouse's stash (at least 1)."""
    reason: str
    """Why, as a short name: ``attack`` and ``defense`` (cheese rolled), ``search-discard``, ``mousetrap``,
    ``born-to-lead``, ``empathetic-power``, ``pilfer``, ``cheese-master``, ``sandbox`` (cheese a sandbox table
    starts with)..."""


class RoundStarted(Event, kw_only=True):
    """A new round begins at the top of the initiative track (MM rulebook (it) §Round di Gioco)."""

    round: int
    """The round's number, from 1 (the first round after the initiative track is laid)."""


class TurnStarted(Event, kw_only=True):
    """The card at ``slot`` (0-based) of the initiative track takes its turn."""

    card: str
    """The initiative card whose turn begins (an initiative card id: a mouse id, or a minion card id such as
    ``rat-warriors``)."""
    slot: int
    """The card's position on the initiative track, 0-based from the top."""


class MovementPointsGained(Event, kw_only=True):
    """A mouse's movement points: action-die move number plus its move value (MM rulebook (it) §Movimento dei
    Topi)."""

    mouse: str
    """The mouse that rolled to move, with ``Move`` or ``Scurry`` (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    die_number: int
    """The move number the action die shows, 1 to 3 (faces 1 and 5 give 1, 2 and 4 give 2, 3 and 6 give 3)."""
    move_value: int
    """The mouse's move value, from its mouse card."""
    points: int
    """Movement points for this move: ``die_number`` + ``move_value``. One space costs 1, a yellow line
    crossed against its arrow 3 (MM rulebook (it) §Linee Gialle)."""


class MouseMoved(Event, kw_only=True):
    """A mouse moved from ``origin`` through ``path`` (spaces entered, last = destination)."""

    mouse: str
    """The mouse that moved (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    origin: str
    """The space it started from (a space id such as ``GR-6``: the tile's code, then the space number)."""
    path: tuple[str, ...]
    """The spaces it entered, in order; the last is where it stands now. Empty: it stayed (a charmed mouse
    with no reason to move)."""
    cost: int
    """Movement points the path cost: 1 per space, 3 for a yellow line crossed against its arrow; 0 when a
    star on a leave-water roll got it out of the water."""


class MinionTurnPassed(Event, kw_only=True):
    """A minion card's turn passed without actions, with the honest reason why."""

    card: str
    """The minion card whose turn passed (a minion card id such as ``roaches``)."""
    reason: str
    """Why it did nothing, as readable text."""


class InitiativeCardsSwapped(Event, kw_only=True):
    """``card`` swapped places with ``other``, the card directly above it (Rat Warriors: Aggressive)."""

    card: str
    """The minion card that moves up one slot (``rat-warriors``): the one whose turn just ended."""
    other: str
    """The card that was directly above it (a mouse id or a minion card id), now one slot lower."""
    reason: str
    """Why: ``aggressive`` (the Rat Warriors' Aggressive ability)."""


class TurnEnded(Event, kw_only=True):
    """The turn of the initiative card ``card`` is over (MM rulebook (it) §Round di Gioco); the next card down
    the track plays next."""

    card: str
    """The initiative card whose turn ended (an initiative card id: a mouse id, or a minion card id such as
    ``rat-warriors``)."""


class ActionStarted(Event, kw_only=True):
    """A mouse takes its one action of the turn (MM rulebook (it) §Il Turno di un Topo). A rolled move not yet
    walked is given up (docs/mice-and-mystics/rulings.md, Mouse turn)."""

    mouse: str
    """The mouse taking the action (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    action: str
    """The action: ``battle``, ``search``, ``recover``, ``scurry``, ``explore``, ``cure``, ``catapult``,
    ``fork`` (picking up the Dinner Fork), ``fishhook`` (taking back the Fishhook & Thread), or
    ``charmed-attack`` (a charmed mouse's attack, played by the server)."""


class AttackDeclared(Event, kw_only=True):
    """``attacker`` attacks ``target`` with ``dice`` dice, hitting on bows if ``ranged`` else on
    swords and swords/shields (MM rulebook (it) §Attacco in Mischia; §Attacco a Distanza)."""

    attacker: str
    """The attacking figure: a mouse id, or a minion figure id ``<card>-<n>`` such as ``rat-warriors-1``, or a
    boss's id such as ``brodie``."""
    target: str
    """The figure that defends first (a mouse id or a minion figure id)."""
    ranged: bool
    """True for a ranged attack (hits on bows), false for a melee attack (hits on swords and
    sword/shields)."""
    dice: int
    """Number of attack dice rolled; 0 for the grapes, whose coin flip replaces the attack roll."""
    others: tuple[str, ...] = ()
    """Further figures hit by the same attack roll, in the order they defend after ``target`` (Brodie's
    attack, Chain Lightning's other targets, the small figures where the grapes land); empty: ``target``
    alone."""
    weapon: str | None = None  # the card attacked with when it is not the first weapon (Knife Strike)
    """The weapon card the attack is made with when the attack names one (Knife Strike names each dagger);
    ``None``: the mouse's first equipped weapon, or a minion's attack."""


class AttackRolled(Event, kw_only=True):
    """The attack roll's hits and cheese (docs/mice-and-mystics/facts.md §1 faces)."""

    attacker: str
    """The attacking figure, as in ``AttackDeclared``."""
    target: str
    """The figure that defends first, as in ``AttackDeclared``."""
    hits: int
    """Hits scored: swords and sword/shields in a melee attack, bows in a ranged one (plus what an item adds);
    1 for squashed grapes. 0: the attack missed and no defense is rolled."""
    cheese: int = 0
    """Cheese faces rolled; they go to the attacking mouse's stash, or on the minion cheese wheel for a minion
    (other events record where)."""


class AttackResolved(Event, kw_only=True):
    """The defense roll blocked ``blocks`` of ``hits``; ``wounds`` are unblocked hits (MM rulebook (it)
    §Ferire un Servitore)."""

    attacker: str
    """The attacking figure, as in ``AttackDeclared``."""
    target: str
    """The figure that defended (the last defender when several defend the same roll)."""
    hits: int
    """The attack roll's hits."""
    blocks: int
    """Hits blocked by the defense roll's sword/shields (never more than ``hits``)."""
    wounds: int
    """Unblocked hits (``hits`` - ``blocks``): the wounds dealt to ``target``."""


class CheeseAddedToWheel(Event, kw_only=True):
    """Cheese put on the minion cheese wheel (MM rulebook (it) §Evocazioni; §Il Tempo Scorre)."""

    count: int
    """Cheese put on the minion cheese wheel (at least 1); at 6 or more the minions summon."""
    reason: str
    """Why, as a short name: ``time-passes``, ``minion-attack`` and ``minion-defense`` (cheese rolled by
    minions), ``kitchen-counter``, ``sandbox`` (the wheel a sandbox table starts with)."""


class CheeseWheelEmptied(Event, kw_only=True):
    """The wheel emptied after a summon (MM rulebook (it) §Evocazioni, 5)."""

    count: int
    """Cheese taken off the wheel: all it held when the summon began (6 or more)."""


class MinionWounded(Event, kw_only=True):
    """Wounds put on a minion figure (MM rulebook (it) §Ferire un Servitore); they are kept per figure, and
    ``MinionDefeated`` follows when they reach its card's lives."""

    figure: str
    """The wounded figure: a minion figure id ``<card>-<n>`` such as ``rat-warriors-1``, or a boss's id such
    as ``brodie``."""
    wounds: int
    """Wounds added to the figure's total (for a sandbox table: the wounds it starts with)."""


class MinionDefeated(Event, kw_only=True):
    """A minion figure with wounds >= lives is removed from the room (MM rulebook (it) §Ferire un
    Servitore)."""

    figure: str
    """The defeated figure, removed from the board: a minion figure id ``<card>-<n>`` such as
    ``rat-warriors-1``, or a boss's id such as ``brodie``."""
    card: str
    """Its initiative card (a minion card id); the card leaves the track when no figure of it is left on the
    board."""


class InitiativeCardRemoved(Event, kw_only=True):
    """A card with no figures left leaves the track; the cards below move up (MM rulebook (it) §Round di
    Gioco)."""

    card: str
    """The minion or boss card that leaves the initiative track (a card id such as ``rat-warriors``)."""


class InitiativeCardsAdded(Event, kw_only=True):
    """New minion cards laid on the first free slots (MM rulebook (it) §Determinare l'Ordine di
    Iniziativa)."""

    cards: tuple[str, ...]
    """The minion card ids added at the bottom of the track, in this order."""


class MouseWounded(Event, kw_only=True):
    """``poison`` of the ``wounds`` are poison wounds (MM rulebook (it) §Avvelenato)."""

    mouse: str
    """The mouse that is wounded (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    wounds: int
    """Wounds added, poison wounds included (for a sandbox table: the wounds it starts with); the mouse is
    captured when its wounds reach its lives."""
    poison: int = 0
    """How many of ``wounds`` are poison wounds, which ordinary healing never removes."""


class MouseCaptured(Event, kw_only=True):
    """Wounds >= lives: figure removed, cheese and equipped search cards discarded, wounds and effects
    removed (MM rulebook (it) §Topi Catturati)."""

    mouse: str
    """The mouse captured (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    cheese_discarded: int = 0
    """The cheese the mouse had in its stash, all discarded (its stash is now 0)."""


class HourglassAdvanced(Event, kw_only=True):
    """The hourglass moves one page toward the end marker."""

    page: int
    """The story-board page the hourglass moves to; the chapter is lost when it reaches the end marker's
    page."""
    reason: str
    """Why: ``summon`` (a full cheese wheel) or ``capture`` (a mouse was captured)."""


class MouseTurnSkipped(Event, kw_only=True):
    """A captured mouse skips its turn while minions are on the board (MM rulebook (it) §Liberare un Topo)."""

    mouse: str
    """The mouse whose turn is skipped (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    reason: str
    """Why, as readable text (``captured while minions are on the board``, ``released this turn``...)."""


class MouseReleased(Event, kw_only=True):
    """A captured mouse is released on ``space`` (MM rulebook (it) §Liberare un Topo)."""

    mouse: str
    """The mouse released (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    space: str
    """The space it is placed on (a space id such as ``GR-6``: the tile's code, then the space number):
    another mouse's space or one next to it."""


class MinionActivated(Event, kw_only=True):
    """The next figure of the minion card acts: the nearest to the mice first (MM rulebook (it) §Muovere un
    Servitore)."""

    figure: str
    """The figure acting now: a minion figure id ``<card>-<n>`` such as ``rat-warriors-1``, or a boss's id
    such as ``brodie``."""


class MinionMoved(Event, kw_only=True):
    """A minion moved along ``path`` (empty: it stayed, for ``reason``)."""

    figure: str
    """The figure that moved or stayed: a minion figure id ``<card>-<n>`` such as ``rat-warriors-1``, or a
    boss's id such as ``brodie``."""
    origin: str
    """The space it started from (a space id such as ``GR-6``: the tile's code, then the space number)."""
    path: tuple[str, ...]
    """The spaces it entered, in order; the last is where it stands now. Empty: it stayed."""
    reason: str = ""
    """Why it stayed or how it moved, as readable text (``sees a mouse``, ``on the grapes``, ``pounce``,
    ``chase``...); empty for an ordinary move by its move roll."""


class MinionAttackSkipped(Event, kw_only=True):
    """A minion figure (or a charmed mouse played like one) makes no attack in this activation, for
    ``reason``."""

    figure: str
    """The figure that does not attack: a minion figure id ``<card>-<n>`` such as ``rat-warriors-1``, or a
    boss's id such as ``brodie``, or a charmed mouse's id."""
    reason: str
    """Why, as readable text (``no mouse in reach``, ``sees no mouse``, ``stunned``...)."""


class SearchSucceeded(Event, kw_only=True):
    """A star on the search die: the mouse draws a search card (MM rulebook (it) §Ricerca)."""

    mouse: str
    """The mouse that searched (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    tile: str
    """The room tile face it searched (``guard-room``); it may not search that room again."""


class SearchFailed(Event, kw_only=True):
    """No star on the search die: the mouse finds nothing (MM rulebook (it) §Ricerca)."""

    mouse: str
    """The mouse that searched (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""


class SearchCardKept(Event, kw_only=True):
    """The mouse keeps the search card it drew, in its pack (MM rulebook (it) §Ricerca); a pack-limit discard
    may follow."""

    mouse: str
    """The mouse keeping the card (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    card: str
    """The search card id (see ``/content/mice-and-mystics/search-cards``), now in its pack."""


class SearchCardDiscarded(Event, kw_only=True):
    """The mouse discards the search card it drew and gains 1 cheese instead (MM rulebook (it) §Ricerca)."""

    mouse: str
    """The mouse discarding the card (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    card: str
    """The search card id discarded."""


class EffectRemoved(Event, kw_only=True):
    """A negative effect removed, e.g. by Recover (MM rulebook (it) §Recupero)."""

    mouse: str
    """The mouse that loses the effect (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    effect: str
    """The negative effect removed: ``stunned``, ``webbed``, ``charmed``..."""


class EffectAdded(Event, kw_only=True):
    """A negative effect put on a figure (MM rulebook (it) §Effetti Negativi)."""

    mouse: str
    """The figure that gets it: a mouse id, or a minion figure id (a minion knocked down); the field's name is
    historical."""
    effect: str
    """The effect: ``stunned``, ``webbed``, ``charmed`` or ``knocked-down``."""


class TileFlipped(Event, kw_only=True):
    """A room tile turned over to its other side (MM rulebook (it) §Esplorare)."""

    tile: str
    """The room tile face that was on the table."""
    to: str
    """The other face of the same board, now face up (see ``/content/mice-and-mystics/tiles``)."""


class RoomEntered(Event, kw_only=True):
    """The party entered ``tile`` through an exploration; ``first`` if it was unexplored (MM rulebook (it)
    §Incontri)."""

    tile: str
    """The room tile face entered (see ``/content/mice-and-mystics/tiles``)."""
    first: bool
    """True when the room had not been explored and is not the chapter's starting room: an encounter card is
    drawn for it (if the encounter deck has cards left)."""


class EncounterRevealed(Event, kw_only=True):
    """The encounter card drawn for a room; it stays face up and sets the next summon (MM rulebook (it)
    §Incontri)."""

    card: str
    """The encounter card id drawn (``standard-1``; see ``/content/mice-and-mystics/encounters``)."""
    page: int
    """The hourglass's story-board page when it was drawn: it picks which band of the card (which minions)
    applies."""


class EncounterDiscarded(Event, kw_only=True):
    """The face-up encounter card is discarded after its summon (MM rulebook (it) §Evocazioni, 3)."""

    card: str
    """The encounter card id discarded."""


class InitiativeTrackReshuffled(Event, kw_only=True):
    """The whole track laid again after an encounter found no minion card on it (MM rulebook (it) §Determinare
    l'Ordine di Iniziativa); the turn in progress goes on from its card's new slot
    (docs/mice-and-mystics/rulings.md)."""

    cards: tuple[str, ...]
    """The whole initiative track laid again, top first: mouse ids and minion card ids."""


class FigureStoodUp(Event, kw_only=True):
    """A knocked-down figure spent its whole move standing up (MM rulebook (it) §Atterrato)."""

    figure: str
    """The figure that stood up and is no longer knocked down: a mouse id, or a minion figure id
    ``<card>-<n>`` such as ``rat-warriors-1``, or a boss's id such as ``brodie``."""


class CheeseStolen(Event, kw_only=True):
    """Roaches' Steal: a wound taken as 1 cheese from the mouse's stash; a greedy roach's cheese goes
    to the wheel (docs/mice-and-mystics/facts.md §3; MM rulebook (it) §Blatte Avide)."""

    mouse: str
    """The mouse robbed (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    figure: str
    """The roach figure that stole (``roaches-1``)."""
    count: int
    """Cheese taken from the mouse's stash: one per wound it replaces."""
    to_wheel: bool = False
    """True for a greedy roach: the cheese goes on the minion cheese wheel; false: it is discarded."""


class CheeseTakenFromWheel(Event, kw_only=True):
    """A mouse takes ``count`` cheese off the minion cheese wheel into its stash (Filch's Pilfer on a
    defeated Rat: MM rulebook (it) §Schede dei Topi, Filch, "Ladruncolo"; docs/mice-and-mystics/facts.md
    §2)."""

    mouse: str
    """The mouse that takes the cheese (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    count: int
    """Cheese moved from the minion cheese wheel to the mouse's stash."""
    reason: str
    """Why: ``pilfer``."""


class RoachesTurnedGreedy(Event, kw_only=True):
    """Greedy roaches entered: every roach in play is greedy (MM rulebook (it) §Blatte Avide)."""

    figures: tuple[str, ...]
    """The roach figure ids that became greedy (those already greedy are not listed)."""


class MouseHealed(Event, kw_only=True):
    """Wounds removed: ``poison`` poison wounds only by antidotes or Cure (MM rulebook (it) §Avvelenato)."""

    mouse: str
    """The mouse healed (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    wounds: int
    """Ordinary wounds removed."""
    poison: int = 0
    """Poison wounds removed (only antidotes and Cure remove them)."""
    reason: str = ""
    """What healed it, as a short name (``first-aid``, ``cure``); empty when not given."""


class BossCardsAssigned(Event, kw_only=True):
    """The boss figure ``figure`` acts on these initiative cards (MM rulebook (it) §Carte Iniziativa dei
    Boss)."""

    figure: str
    """The boss figure (a boss id such as ``brodie``)."""
    cards: tuple[str, ...]
    """The initiative card ids it acts on (``brodie-chases``, ``brodie-pounces``): all of its cards, or the 2
    drawn for a boss with more."""


class BossWounded(Event, kw_only=True):
    """Wounds put on one of a boss's initiative cards, the one the players chose (MM rulebook (it) §Ferire un
    Boss)."""

    figure: str
    """The boss figure (a boss id such as ``vanestra``)."""
    card: str
    """The boss's initiative card the wounds go on; it leaves the track when its wounds reach its lives."""
    wounds: int
    """Wounds put on that card."""


class AmbushDeclared(Event, kw_only=True):
    """An ambush is due once the minion cards are on the track: ``cards`` (empty: every minion card)
    (MM rulebook (it) §Imboscate; §Carte Iniziativa dei Boss)."""

    cards: tuple[str, ...] = ()
    """The minion card ids that ambush; empty: every minion card on the track when the ambush is rolled."""


class InitiativeCardMovedUp(Event, kw_only=True):
    """``card`` moved ``by`` slots up the track, the others down (MM rulebook (it) §Imboscate)."""

    card: str
    """The ambushing minion or boss card that moves up the track (a card id such as ``rat-warriors``)."""
    by: int
    """Slots it moves up: the move number of its ambush die (1 to 3), stopping at the top."""
    reason: str = "ambush"
    """Why: ``ambush``."""


class AmbushResolved(Event, kw_only=True):
    """The ambush is over: every ambushing card has moved (MM rulebook (it) §Imboscate)."""


class ExtraAttackGained(Event, kw_only=True):
    """Captain Vurst's Pistoleer: a cheese on his attack roll is one more attack
    (docs/mice-and-mystics/facts.md §3)."""

    figure: str
    """The attacking figure with Pistoleer (Captain Vurst) that gains the attacks."""
    count: int
    """Extra attacks it makes this turn: one per cheese on its attack roll."""
    reason: str = "pistoleer"
    """Why: ``pistoleer``."""


class DefenseResolved(Event, kw_only=True):
    """One of several defenders of a single attack roll defended (MM rulebook (it) §Brodie); the next one
    defends."""

    attacker: str
    """The attacking figure, as in ``AttackDeclared``."""
    target: str
    """The figure that has just defended."""
    hits: int
    """The attack roll's hits (the same for every defender)."""
    blocks: int
    """Hits this defender blocked (never more than ``hits``)."""
    wounds: int
    """Unblocked hits: the wounds dealt to this defender."""


class MousetrapsSet(Event, kw_only=True):
    """Mousetrap tokens on the room's red-X spaces (MM rulebook (it) §Trappole per Topi)."""

    spaces: tuple[str, ...]
    """Ids of the room's mousetrap (red-X) spaces that now hold a mousetrap token."""


class MouseStoppedAtMousetrap(Event, kw_only=True):
    """The mouse stopped on a mousetrap to roll; ``rest`` is the path it may walk on if it passes."""

    mouse: str
    """The mouse that stopped (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    space: str
    """The mousetrap space it stopped on."""
    rest: tuple[str, ...] = ()
    """The rest of its path, in order, walked if the trap roll passes; empty: the trap ended the path."""


class MousetrapPassed(Event, kw_only=True):
    """A star on the mousetrap roll: the mouse passes safely and walks on along the rest of its path (MM
    rulebook (it) §Attraversare le Trappole per Topi)."""

    mouse: str
    """The mouse that passed (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    space: str
    """The mousetrap space; its token stays."""


class MousetrapSprung(Event, kw_only=True):
    """No star: the trap token is removed; 1 wound, 1 cheese, knocked down, turn over (MM rulebook (it)
    §Attraversare le Trappole per Topi)."""

    mouse: str
    """The mouse caught by the trap (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    space: str
    """The mousetrap space; its token is removed."""


class LeavingWaterStarted(Event, kw_only=True):
    """A mouse in water spends its whole move trying to reach ``space`` (MM rulebook (it) §Muoversi
    nell'Acqua)."""

    mouse: str
    """The mouse in the water (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    space: str
    """The dry space it tries to reach: next to it, or linked to it by the Fishhook & Thread."""


class LeavingWaterFailed(Event, kw_only=True):
    """No star on the leave-water roll: the mouse stays on its water space (MM rulebook (it) §Muoversi
    nell'Acqua)."""

    mouse: str
    """The mouse still in the water (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    space: str
    """The dry space it did not reach."""


class MouseSweptByCurrent(Event, kw_only=True):
    """End of turn on a water space with a current: moved one space its way (MM rulebook (it) §Muoversi
    nell'Acqua)."""

    mouse: str
    """The mouse carried by the current (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    origin: str
    """The water space with the current it ended its turn on."""
    space: str
    """The space the current carried it to."""


class AchievementEarned(Event, kw_only=True):
    """A personal achievement (MM rulebook (it), Conquiste Personali)."""

    mouse: str
    """The mouse that earned it (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    achievement: str
    """The achievement: ``cheese-master``, ``roach-master``, ``poison-master``, ``escape-artist`` or
    ``cat-tamer``; each is earned once per chapter."""


class EndMarkerMoved(Event, kw_only=True):
    """The chapter end marker moves one page on, giving the mice more time (personal achievements, MM rulebook
    (it) Conquiste Personali; Miz Maggie Ally, MM rulebook (it) §Capitolo 1)."""

    page: int
    """The story-board page the end marker moves to."""
    reason: str
    """What moved it: an achievement id (``cheese-master``, ``roach-master``, ``escape-artist``) or the story
    achievement ``miz-maggie-ally``."""


class RoachDefeatedCounted(Event, kw_only=True):
    """A mouse defeated a roach in the current encounter (Roach Master, MM rulebook (it) Conquiste
    Personali)."""

    mouse: str
    """The mouse that defeated the roach (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""


class EncounterStarted(Event, kw_only=True):
    """A new encounter (room entered with an encounter card): per-encounter counts start again."""

    card: str
    """The encounter card id of the new encounter."""


NEW_EVENTS = (
    FigureStoodUp,
    CheeseStolen,
    RoachesTurnedGreedy,
    MouseHealed,
    BossCardsAssigned,
    BossWounded,
    AmbushDeclared,
    InitiativeCardMovedUp,
    AmbushResolved,
    ExtraAttackGained,
    DefenseResolved,
    MousetrapsSet,
    MouseStoppedAtMousetrap,
    MousetrapPassed,
    MousetrapSprung,
    LeavingWaterStarted,
    LeavingWaterFailed,
    MouseSweptByCurrent,
    AchievementEarned,
    EndMarkerMoved,
    RoachDefeatedCounted,
    EncounterStarted,
    CheeseTakenFromWheel,
)


_CoreMouseEvent = (
    RoomTilePlaced
    | FigurePlaced
    | StoryBoardPrepared
    | DecksPrepared
    | InitiativeTrackLaid
    | CheeseGained
    | RoundStarted
    | TurnStarted
    | MovementPointsGained
    | MouseMoved
    | MinionTurnPassed
    | InitiativeCardsSwapped
    | TurnEnded
    | ActionStarted
    | AttackDeclared
    | AttackRolled
    | AttackResolved
    | CheeseAddedToWheel
    | CheeseWheelEmptied
    | MinionWounded
    | MinionDefeated
    | InitiativeCardRemoved
    | InitiativeCardsAdded
    | MouseWounded
    | MouseCaptured
    | HourglassAdvanced
    | MouseTurnSkipped
    | MouseReleased
    | MinionActivated
    | MinionMoved
    | MinionAttackSkipped
    | SearchSucceeded
    | SearchFailed
    | SearchCardKept
    | SearchCardDiscarded
    | EffectRemoved
    | EffectAdded
    | TileFlipped
    | RoomEntered
    | EncounterRevealed
    | EncounterDiscarded
    | InitiativeTrackReshuffled
    | FigureStoodUp
    | CheeseStolen
    | CheeseTakenFromWheel
    | RoachesTurnedGreedy
    | MouseHealed
    | BossCardsAssigned
    | BossWounded
    | AmbushDeclared
    | InitiativeCardMovedUp
    | AmbushResolved
    | ExtraAttackGained
    | DefenseResolved
    | MousetrapsSet
    | MouseStoppedAtMousetrap
    | MousetrapPassed
    | MousetrapSprung
    | LeavingWaterStarted
    | LeavingWaterFailed
    | MouseSweptByCurrent
    | AchievementEarned
    | EndMarkerMoved
    | RoachDefeatedCounted
    | EncounterStarted
)
EVENT_TYPES: tuple[type[Event], ...] = (
    RoomTilePlaced,
    FigurePlaced,
    StoryBoardPrepared,
    DecksPrepared,
    InitiativeTrackLaid,
    CheeseGained,
    RoundStarted,
    TurnStarted,
    MovementPointsGained,
    MouseMoved,
    MinionTurnPassed,
    InitiativeCardsSwapped,
    TurnEnded,
    ActionStarted,
    AttackDeclared,
    AttackRolled,
    AttackResolved,
    CheeseAddedToWheel,
    CheeseWheelEmptied,
    MinionWounded,
    MinionDefeated,
    InitiativeCardRemoved,
    InitiativeCardsAdded,
    MouseWounded,
    MouseCaptured,
    HourglassAdvanced,
    MouseTurnSkipped,
    MouseReleased,
    MinionActivated,
    MinionMoved,
    MinionAttackSkipped,
    SearchSucceeded,
    SearchFailed,
    SearchCardKept,
    SearchCardDiscarded,
    EffectRemoved,
    EffectAdded,
    TileFlipped,
    RoomEntered,
    EncounterRevealed,
    EncounterDiscarded,
    InitiativeTrackReshuffled,
    *NEW_EVENTS,
)
CoreEvent = RollRequested | ShuffleRequested | DecisionRequested | DiceRolled | CardsShuffled | DecisionMade
from dicelog.domain.mice_and_mystics.chapter_events import CHAPTER_EVENTS, ChapterEvent  # noqa: E402 (room rules, sandbox, campaign)

EVENT_TYPES = (*EVENT_TYPES, *CHAPTER_EVENTS)
from dicelog.domain.mice_and_mystics.item_events import ITEM_EVENTS, ItemEvent  # noqa: E402 (free actions, abilities, party items)

EVENT_TYPES = (*EVENT_TYPES, *ITEM_EVENTS)
from dicelog.domain.mice_and_mystics.choice_events import CHOICE_EVENTS, ChoiceEvent  # noqa: E402 (ties the players break)

EVENT_TYPES = (*EVENT_TYPES, *CHOICE_EVENTS)
MouseEvent = _CoreMouseEvent | ChapterEvent | ItemEvent | ChoiceEvent
decode_event = msgspec.json.Decoder(MouseEvent).decode
