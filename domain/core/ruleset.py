"""What a ruleset provides to the game-agnostic core (docs/architecture.md, The core idea: decide / evolve).

A ruleset is pure functions and data. The core (``dicelog.domain.core.game``) owns everything that is
the same for every game: the envelope of each event (seat, command id, hash chain), pending
rolls, shuffles and decisions, the dice stream position, and the end of the game.

Shapes:

- ``initial_state(created: GameCreated) -> State``: the state right after creation; the
  ruleset decodes ``created.setup`` (raising ``RuleBroken`` if it is invalid).
- ``decide(state, command) -> list[Event]``: validate one of the ruleset's own commands (the
  ``Begin`` command included, issued once right after creation) and return the events it causes,
  or raise ``RuleBroken``. It may end its list with a ``RollRequested``, ``ShuffleRequested`` or
  ``DrawRequested`` or ``DecisionRequested``: the core then waits for the answer.
- ``resolve(state, answer) -> list[Event]``: continue after a pending node was answered;
  ``answer`` is the ``DiceRolled`` / ``CardsShuffled`` / ``CardsDrawn`` / ``DecisionMade`` event, applied
  to ``state``.
- ``evolve(state, event) -> State``: apply one event; never validates, never fails for a stored
  event. Core events it does not care about are returned unchanged; it never sees
  ``CommandAccepted`` or the undo events (the core folds those itself).
- ``outcome(state) -> str | None``: ``None`` while the game goes on, else its result
  (e.g. ``"victory"``, ``"defeat"``).
- ``piece_of(command) -> str | None``: the piece (e.g. mouse) a command is about, so the service
  can check the issuing seat controls it.
- ``turn_piece(state) -> str | None``: the piece whose turn it is, if a player's.
- ``legal_commands(state) -> list[Command]``: every command of the ruleset's own that
  ``decide`` would accept now (pending answers are listed by the core).
- Read-model views (pure, used by ``projections/``): ``initiative_view(state)`` and
  ``board_view(state)`` return msgspec Structs; ``describe(state, event) -> str | None`` is the
  game-log line for one event applied to ``state`` (the state *after* the event), ``None`` for
  events that make no log line.

Optional (``getattr`` with a default; see ``dicelog.domain.core.visibility``):

- ``view_event(event, viewer) -> Event | None``, ``view_state(state, viewer) -> State`` and
  ``view_command(command, viewer) -> Command | None``: who sees what. A ruleset without
  ``view_event`` is all public.
- ``starts_turn(event)`` / ``starts_round(event)``: turn and round boundaries for replay
  (default: events named ``TurnStarted`` / ``RoundStarted``).
- ``turn_card(state) -> str | None``: whose turn it is when it is no player's piece too (Mice and
  Mystics: the minion card during the minions' turn); the API's ``turn`` (default: ``turn_piece``).
- ``bot``: an object with ``choose(view, legal, rng) -> command`` (one of the seat's legal ruleset
  commands, given the seat's view of the state) and ``decide(view, pending, options, rng) -> option``
  (an option of the pending decision as the seat sees it, JSON builtins): bot seats
  (``seats[].bot``) and the demo's players. Pure: ``rng`` is a ``random.Random`` the caller seeds.
- ``content``: the content catalogue served under ``/content/<ruleset>/`` (``ContentRoute``s);
  ``content_aliases``: other paths it is served under too (Mice and Mystics: ``/content``).
- ``demo``: ``dicelog demo --game <name>`` (``Demo``).
- ``default_when_unnamed``: ``True`` for the ruleset a ``POST /games`` body without ``ruleset`` means
  (Mice and Mystics: the releases that served it alone published the field as optional); at most one
  ruleset says so (``dicelog.domain.core.registry.default_when_unnamed``).
- ``web``: its pages' assets for the web table (``WebAssets``): a folder of package data served at
  ``/web/rulesets/<ruleset>/<file>`` and the JavaScript module the table page loads for its games. A
  ruleset without it gets the generic table (its views as nested lists).
- ``check_content(pack) -> (findings, summary)``: ``dicelog content check [--pack DIR]``; a ruleset with it
  takes a ``content_pack`` in ``POST /games`` (the others' create schema has no such field).
- ``setup_type``: the type of the setup document ``POST /games`` takes (default: any JSON object);
  ``stored_setup_type``: the type of ``GameCreated.setup`` as stored and shown (default ``setup_type``), a
  mirror of what ``initial_state`` decodes, for the API's schema of the stored setups.
- ``campaign_carry_over``, ``campaign_choice`` and ``campaign_choice_type`` (the body of
  ``POST /campaigns/{id}/carry-over``): a campaign mode (``dicelog.domain.core.campaign``);
  ``campaign_carry_over_type``: the type of the carry-over document ``campaign_carry_over`` returns (as
  JSON), the schema of a campaign's ``carry_over``, ``carry_in`` and ``carry_out`` in the API.
- ``rules_revision``: the revision of its rules new games are created with (default 1), recorded in
  ``GameCreated.rules_revision``; the ruleset reads the game's revision from there and keeps the
  behaviour of older revisions for older games, so stored games re-derive as they were played.
- ``die_faces``: the die's faces by the names of their printed symbols (name -> number), so a
  ``Roll`` may name them (``dicelog.domain.core.game.face_numbers``).
- ``card_id(state, deck, text) -> str | None``: the id of the card of ``deck`` printed with the name
  ``text``, so a ``Draw`` may name the cards the table drew (``dicelog.domain.core.game.card_ids``).
- ``check_new_game(created: GameCreated) -> None``: checks only a new game's setup must pass, raising
  ``RuleBroken`` (``dicelog.domain.core.game.create`` calls it before ``initial_state``); folding,
  verifying or forking a stored game never calls it, so a check added later never stops a stored game
  from re-deriving (Vast: its sandbox tables, ``dicelog.domain.vast.rules.sandbox``).
- ``outcome_reason(state) -> str``: why the game ended, for ``GameEnded.reason`` (default: none).
- ``legacy_topics``: topics its events were stored under before topics were ``<ruleset>/<Name>``, as
  the strings stored (module paths ``<module>:<Name>``, written by release 0.1 for Mice and Mystics);
  each resolves forever to ``<ruleset>/<Name>`` (``service/store/topics.py``; default: none).
- ``late_fields``: state fields added after games were stored, with their JSON defaults, left out
  of a state's stored encoding while at those defaults (``dicelog.domain.core.game.encode_state``).
- ``warm_up()``: load what the ruleset reads lazily (content, decoders) once, before the service
  takes requests on many threads (msgspec 0.22 has crashed when several threads decoded the same
  types for the first time at once).

Command tags: a ruleset's commands are tagged ``<prefix>.<Name>`` (e.g. ``vast.Move``) so every
ruleset's commands can share one union; Mice and Mystics keeps its bare tags (``Move``), which
are stored in its logs and never change (docs/event-model.md, Stored names are forever).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from dicelog.domain.core.commands import Command
from dicelog.domain.core.events import CardsDrawn, CardsShuffled, DecisionMade, DiceRolled, Event, GameCreated

Answer = DiceRolled | CardsShuffled | CardsDrawn | DecisionMade


class Begin(Command, kw_only=True):
    """Issued by the core once, right after ``GameCreated``: set the game up."""


class Ruleset(Protocol):
    """The functions and types a ruleset module exposes (see the module docstring)."""

    name: str
    state_type: type
    command_type: Any
    event_types: tuple[type[Event], ...]

    def initial_state(self, created: GameCreated) -> Any: ...

    def decide(self, state: Any, command: Command) -> list[Event]: ...

    def resolve(self, state: Any, answer: Answer) -> list[Event]: ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def outcome(self, state: Any) -> str | None: ...

    def piece_of(self, command: Command) -> str | None: ...

    def turn_piece(self, state: Any) -> str | None: ...

    def legal_commands(self, state: Any) -> list[Command]: ...

    def initiative_view(self, state: Any) -> Any: ...

    def board_view(self, state: Any) -> Any: ...

    def describe(self, state: Any, event: Event) -> str | None: ...


class ContentRoute(NamedTuple):
    """One read-only endpoint of a ruleset's content catalogue, at ``/content/<ruleset><path>``.

    ``read()`` returns a list of ``returns`` items; with ``key`` (``(name, type, description)``, a
    path parameter named in ``path`` as ``{name:int}`` or ``{name:str}``) ``read(value)`` returns one
    ``returns`` item, or ``None`` (404 ``no <not_found> <value>``)."""

    path: str
    summary: str
    description: str
    returns: Any
    read: Callable[..., Any]
    key: tuple[str, type, str] | None = None
    not_found: str = ""


class WebAssets(NamedTuple):
    """A ruleset's files for the web table: the files of ``folder`` inside package ``package``
    (package data, e.g. ``dicelog.domain.vast`` and ``web``), served by the service at
    ``/web/rulesets/<ruleset>/<file>``; ``table`` is the file name of the ES module the table page
    imports for this ruleset's games (``vast.js``); ``lobby`` the file name of the module that draws the
    lobby's setup form for a new game of it (``None``: the setup typed as JSON). Their interfaces are
    described in docs/web-table.md."""

    package: str
    folder: str
    table: str
    lobby: str | None = None


class DemoOption(NamedTuple):
    """A ``dicelog demo`` option of one ruleset's demo (``--roles``): passed to ``Demo.game`` by its
    ``dest`` (``None`` when not given)."""

    flag: str
    dest: str
    help: str
    metavar: str | None = None
    nargs: int | str | None = None


class DemoTable(NamedTuple):
    """A table the demo prints (plain strings; the service renders it)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class Demo(Protocol):
    """``dicelog demo --game <name>``: bots play a game to its end through the HTTP API, each reading only its
    own seat's ``/state`` and ``/legal-commands`` (the ruleset's ``bot``); the log is verified at the end.

    - ``title``: what the progress line says (``"playing Chapter 1"``);
    - ``options``: its own ``DemoOption``s;
    - ``game(options) -> dict``: the ``POST /games`` body (``ruleset``, ``setup``, ``seats``...), or
      raises ``ValueError`` naming a bad option;
    - ``ends_turn(command) -> bool``: whether a sent command (JSON builtins) ends a turn (``max_turns``);
    - ``tables(board, initiative) -> list[DemoTable]``: what to print of the ``/board`` and
      ``/initiative`` answers, every ``table_every`` turns and at the end;
    - ``secrets(state, seat) -> set[str]``: the strings ``seat`` may not see now, from the auditor's
      state document; each of the seat's reads is scanned for them (empty: nothing is secret).
    """

    title: str
    options: tuple[DemoOption, ...]
    table_every: int

    def game(self, options: dict[str, Any]) -> dict[str, Any]: ...

    def ends_turn(self, command: dict[str, Any]) -> bool: ...

    def tables(self, board: dict[str, Any], initiative: dict[str, Any]) -> list[DemoTable]: ...

    def secrets(self, state: dict[str, Any], seat: str) -> set[str]: ...
