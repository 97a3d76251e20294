"""Events of the chapter room rules, the sandbox setup and campaign carry-over (past tense, frozen,
tagged; never changed once stored: docs/conventions.md, rule 8). Added to
``events.MouseEvent``/``EVENT_TYPES``.

Chapter 1 room rules: MM rulebook (it) §Capitolo 1, Regole Speciali del Capitolo (see ``rules/chapter_1.py``).
"""

from __future__ import annotations

from dicelog.domain.core.events import Event


class StoryRead(Event, kw_only=True):
    """The read-aloud text of a room, on the mice's first entry (a short paraphrase, not the book's text)."""

    room: str
    """The room tile face entered for the first time (``courtyard``; see
    ``/content/mice-and-mystics/tiles``)."""
    text: str
    """The room's read-aloud text, as a short English paraphrase (not the storybook's words)."""


class ChapterStoryRead(Event, kw_only=True):
    """A chapter's story text for the table to read: its opening when it is set up, «Il Racconto
    Continua…» when it is won (MM rulebook (it) §Il Libro delle Storie; MM rulebook (pt) «A história
    continua»; rules revision 2). A short paraphrase, not the storybook's words."""

    part: str
    """``opening`` (when the chapter is set up) or ``story-continues`` (when it is won)."""
    text: str
    """The text, as a short English paraphrase (``Chapter.opening`` / ``Chapter.story_continues``)."""


class SpecialSearchFound(Event, kw_only=True):
    """A mouse took the room's special search item instead of a search-deck card (MM rulebook (it) §Capitolo
    1: Guard Room, Tinkerer's Treasure; Sewer, Fishhook & Thread). Each is found once."""

    mouse: str
    """The mouse that found it (a mouse id such as ``filch``; see ``/content/mice-and-mystics/mice``)."""
    tile: str
    """The room tile face whose special search is now used up (``guard-room``, ``sewer``)."""
    item: str
    """The special item's card id: ``tinkerers-treasure`` or ``fishhook-and-thread`` in chapter 1."""


class SearchDeckCardTaken(Event, kw_only=True):
    """A card taken from the search deck into the mouse's pack without a draw (Tinkerer's Treasure:
    any one weapon or armour; a special search item still in the deck)."""

    mouse: str
    """The mouse whose pack receives the card (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    card: str
    """The search card id taken out of the search deck (see ``/content/mice-and-mystics/search-cards``)."""
    reason: str
    """Why: ``special-search`` (the room's special item), ``tinkerers-treasure`` (the weapon or armour
    picked with Tinkerer's Treasure) or ``sandbox`` (a card a sandbox table puts in the mouse's pack or
    equipment)."""


class SearchDeckShuffled(Event, kw_only=True):
    """Cards put into the search deck, then the deck shuffled (its order is never stored)."""

    added: tuple[str, ...] = ()
    """Card ids put back into the search deck before the shuffle (a card already in it is not added twice);
    empty: none."""
    reason: str
    """Why, as a short name: ``tinkerers-treasure`` (the Treasure goes back into the deck) or why a party item
    was lost (``squashed``, ``eaten``, ``left-behind``, ``disguises``)."""


class CrowDived(Event, kw_only=True):
    """The nasty old crow dives on a figure whose movement die showed 1 in the Courtyard: 1 wound
    that cannot be defended (MM rulebook (it) §Capitolo 1, Il Cortile, Il Vile Vecchio Corvo)."""

    figure: str
    """The figure the crow dives on, whose movement die showed move number 1 in the Courtyard: a mouse id or a
    minion figure id (``rat-warriors-1``)."""
    space: str
    """The Courtyard space it stands on (a space id)."""


class CounterCheesePlaced(Event, kw_only=True):
    """Cheese put on the Kitchen counter on the mice's first entry (MM rulebook (it) §Capitolo 1, La Cucina;
    docs/mice-and-mystics/rulings.md)."""

    count: int
    """Cheese put on the Kitchen counter (3, provisional: docs/mice-and-mystics/rulings.md, Kitchen counter
    cheese)."""


class CounterCheeseTaken(Event, kw_only=True):
    """Cheese moved from the Kitchen counter to the minion cheese wheel (a roach rolled cheese)."""

    count: int
    """Cheese moved from the counter to the wheel: one per cheese the roach rolled, at most what the counter
    holds."""
    figure: str
    """The roach figure whose attack or defense roll showed the cheese (``roaches-1``)."""


class RoachDefeatedInKitchen(Event, kw_only=True):
    """A mouse defeated a roach in the Kitchen: Miz Maggie's roll follows (MM rulebook (it) §Capitolo 1, La
    Cucina)."""

    mouse: str
    """The mouse that defeated the roach and rolls for Miz Maggie (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    figure: str
    """The roach figure defeated (``roaches-1``); it goes back on the counter if the roll fails."""


class MizMaggieSwatted(Event, kw_only=True):
    """Miz Maggie's roll missed: her broom knocks the mouse down, the roach goes back on the counter."""

    mouse: str
    """The mouse knocked down by the broom (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    figure: str
    """The roach figure put back on the Kitchen counter (``roaches-1``); empty when none was recorded."""
    space: str
    """The Kitchen counter's space, where the roach is put back (a space id); empty when the chapter has
    none."""


class StoryAchievementGained(Event, kw_only=True):
    """The party gains a story achievement (kept through a campaign)."""

    achievement: str
    """The story achievement's id (``miz-maggie-ally``)."""


class RoomsMarkedExplored(Event, kw_only=True):
    """Room faces counted as already explored (a sandbox table): entering them draws no encounter."""

    tiles: tuple[str, ...]
    """The room tile face ids counted as explored, sorted."""


class RoomsMarkedSearched(Event, kw_only=True):
    """Room faces in which a mouse has already searched with success (a sandbox table): it may not search
    them again (MM rulebook (it) §Ricerca)."""

    mouse: str
    """The mouse (a mouse id such as ``filch``)."""
    tiles: tuple[str, ...]
    """The room tile face ids it has searched, in the order given."""


class CarryOverApplied(Event, kw_only=True):
    """The previous chapter's carry-over, applied at setup (MM rulebook (it) §Campagna): story achievements
    and abilities kept; each mouse's kept search card taken out of the search deck into its pack."""

    from_chapter: str | None = None
    """Id of the chapter the carry-over comes from (``chapter-1``); ``None``: not recorded."""
    story_achievements: tuple[str, ...] = ()
    """Ids of the story achievements the party keeps (``miz-maggie-ally``)."""
    abilities: dict[str, tuple[str, ...]] = {}
    """Ability card ids each party mouse keeps, by mouse id (see ``/content/mice-and-mystics/abilities``); a
    mouse listed takes no new starting ability."""
    equipment: dict[str, str] = {}
    """The one search card id each party mouse keeps, by mouse id; the card is taken out of the search deck
    into the mouse's pack."""


class StartingAbilityTaken(Event, kw_only=True):
    """At chapter setup a mouse takes the one ability card of its class the players chose for it
    (MM rulebook (it) §Preparazione del Gioco, "Scegliere una Abilità"). ``chosen_in`` says where the choice
    was made: ``"setup"`` (the game's setup document) or ``"decision"`` (a pending decision at setup)."""

    mouse: str
    """The mouse that takes the card (a mouse id such as ``filch``; see
    ``/content/mice-and-mystics/mice``)."""
    ability: str
    """The ability card id taken (see ``/content/mice-and-mystics/abilities``), of the mouse's class and held
    by no other mouse."""
    chosen_in: str = "decision"
    """Where the players chose it: ``setup`` (the setup document's ``abilities``) or ``decision`` (a pending
    ``starting-ability`` decision)."""


CHAPTER_EVENTS = (
    StoryRead,
    SpecialSearchFound,
    SearchDeckCardTaken,
    SearchDeckShuffled,
    CrowDived,
    CounterCheesePlaced,
    CounterCheeseTaken,
    RoachDefeatedInKitchen,
    MizMaggieSwatted,
    StoryAchievementGained,
    RoomsMarkedExplored,
    RoomsMarkedSearched,
    CarryOverApplied,
    StartingAbilityTaken,
    ChapterStoryRead,
)
ChapterEvent = (
    StoryRead
    | SpecialSearchFound
    | SearchDeckCardTaken
    | SearchDeckShuffled
    | CrowDived
    | CounterCheesePlaced
    | CounterCheeseTaken
    | RoachDefeatedInKitchen
    | MizMaggieSwatted
    | StoryAchievementGained
    | RoomsMarkedExplored
    | RoomsMarkedSearched
    | CarryOverApplied
    | StartingAbilityTaken
    | ChapterStoryRead
)
