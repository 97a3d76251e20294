"""Events of the chapter room rules, the sandbox setup and campaign carry-over (past tense, frozen,
tagged; never changed once stored: STYLE.md, 8). Added to ``events.MouseEvent``/``EVENT_TYPES``.

Chapter 1 room rules: 001 §Capitolo 1, Regole Speciali del Capitolo (see ``rules/chapter_1.py``).
"""

from __future__ import annotations

from domain.core.events import Event


class StoryRead(Event, kw_only=True):
    """The read-aloud text of a room, on the mice's first entry (a short paraphrase, not the book's text)."""

    room: str
    text: str


class SpecialSearchFound(Event, kw_only=True):
    """A mouse took the room's special search item instead of a search-deck card (001 §Capitolo 1:
    Guard Room, Tinkerer's Treasure; Sewer, Fishhook & Thread). Each is found once."""

    mouse: str
    tile: str
    item: str


class SearchDeckCardTaken(Event, kw_only=True):
    """A card taken from the search deck into the mouse's pack without a draw (Tinkerer's Treasure:
    any one weapon or armour; a special search item still in the deck)."""

    mouse: str
    card: str
    reason: str


class SearchDeckShuffled(Event, kw_only=True):
    """Cards put into the search deck, then the deck shuffled (its order is never stored)."""

    added: tuple[str, ...] = ()
    reason: str


class CrowDived(Event, kw_only=True):
    """The nasty old crow dives on a figure whose movement die showed 1 in the Courtyard: 1 wound
    that cannot be defended (001 §Capitolo 1, Il Cortile, Il Vile Vecchio Corvo)."""

    figure: str
    space: str


class CounterCheesePlaced(Event, kw_only=True):
    """Cheese put on the Kitchen counter on the mice's first entry (001 §Capitolo 1, La Cucina; RULINGS.md)."""

    count: int


class CounterCheeseTaken(Event, kw_only=True):
    """Cheese moved from the Kitchen counter to the minion cheese wheel (a roach rolled cheese)."""

    count: int
    figure: str


class RoachDefeatedInKitchen(Event, kw_only=True):
    """A mouse defeated a roach in the Kitchen: Miz Maggie's roll follows (001 §Capitolo 1, La Cucina)."""

    mouse: str
    figure: str


class MizMaggieSwatted(Event, kw_only=True):
    """Miz Maggie's roll missed: her broom knocks the mouse down, the roach goes back on the counter."""

    mouse: str
    figure: str
    space: str


class StoryAchievementGained(Event, kw_only=True):
    """The party gains a story achievement (kept through a campaign)."""

    achievement: str


class RoomsMarkedExplored(Event, kw_only=True):
    """Room faces counted as already explored (a sandbox table): entering them draws no encounter."""

    tiles: tuple[str, ...]


class CarryOverApplied(Event, kw_only=True):
    """The previous chapter's carry-over, applied at setup (001 §Campagna): story achievements and
    abilities kept; each mouse's kept search card taken out of the search deck into its pack."""

    from_chapter: str | None = None
    story_achievements: tuple[str, ...] = ()
    abilities: dict[str, tuple[str, ...]] = {}
    equipment: dict[str, str] = {}


class StartingAbilityTaken(Event, kw_only=True):
    """At chapter setup a mouse takes the one ability card of its class the players chose for it
    (001 §Preparazione del Gioco, "Scegliere una Abilità"). ``chosen_in`` says where the choice was
    made: ``"setup"`` (the game's setup document) or ``"decision"`` (a pending decision at setup)."""

    mouse: str
    ability: str
    chosen_in: str = "decision"


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
    CarryOverApplied,
    StartingAbilityTaken,
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
    | CarryOverApplied
    | StartingAbilityTaken
)
