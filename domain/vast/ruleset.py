"""Vast: The Crystal Caverns as a dicelog ruleset (rules from the Vast rulebook, cited as
"Vast rulebook §Heading"; numbers from docs/vast/facts.md, cited by section).

This release plays the five roles (Vast rulebook §Il Cavaliere, §I Goblin, §Il Drago, §La Caverna, §Il Ladro)
in every docs/vast/facts.md §7 setup but Knight vs Thief (``dicelog.domain.vast.rules.setup``): the cave
(tiles, walls, rotation toward the Entrance, the tile stack's three piles seeded with Crystal and Vault tiles,
open edges filled, reveals, tokens, Rockslides and Bombs, the Collapse), each role's turn, the variant cards
and the play without a Cave player.

Every choice is a pending decision addressed to the role's seat (``piece``), every draw and die roll a
pending chance node; who sees what is ``dicelog.domain.vast.visibility``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import msgspec

from dicelog.domain.core import errors
from dicelog.domain.core.commands import Command
from dicelog.domain.core.events import Event, GameCreated, RollRequested
from dicelog.domain.core.ruleset import Answer, Begin, WebAssets
from dicelog.domain.vast import bot as seat_bot
from dicelog.domain.vast import catalogue, content, read_models, visibility
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast.cave import DRAGON_DIE
from dicelog.domain.vast.demo import DEMO
from dicelog.domain.vast.events import EVENT_TYPES, VastRoundStarted, VastTurnStarted
from dicelog.domain.vast.evolve import evolve as _evolve
from dicelog.domain.vast.rules import cave_turn, dragon, flow, goblins, knight, setup, thief
from dicelog.domain.vast.rules.common import Then, Tried, not_your_turn, refuse
from dicelog.domain.vast.state import VastState

NAME = "vast"
RULES_REVISION = 8
"""The revision of Vast's rules new games are created with (``GameCreated.rules_revision``): 1 the first
release; 2 adds the Event tokens (Vast rulebook §Rivelare le Tessere, §Rivelare e risolvere le tessere Buie,
Evento); 3 lets Wrath split the map before the Collapse and has the Dragon slide the groups together (Vast
rulebook §Il Collasso, §Esempio #2); 4 gives the Knight Flare only in the setups whose variant cards hand it
to her (docs/vast/facts.md §7: Knight, Goblins and Cave; Knight vs Cave; earlier revisions let her light it in
every setup); 5 adds Goblin Infestation line C, the Monsters' Ambushes (docs/vast/facts.md §3 Monster cards;
docs/vast/facts.md §7: the Knight vs Thief setup and the Knight's solo Hard level, played from this revision)
and, without a Cave player, places the end of turn's Dark tile by default next to the player's piece (before:
the first free space, west to east); 6 plays the rules a referee's reading corrected (docs/vast/index.md,
Rules revisions: each attack on the surfaced Dragon costs its own Encounter, the Shield stops every forced
move, and the others listed there); 7 checks a Tribe's right to enter the Knight's or the surfaced Dragon's
tile, and to pass through the Dragon's, with the Strength it has as it enters that tile, the discs lost on
the way gone (Vast rulebook §I Goblin, 5. Attiva le Tribù: «rimuovi il disco quando la Tribù lascia la
seconda tessera»; §Attaccare), and lets a lurking Tribe step onto the surfaced Dragon's tile only with
Strength above its Armor (§Disperdere la Tribù; §Attaccare); 8 begins the Collapse at the Cave's turn once its
hand is empty, even when tiles a collapse put back lie under the stack (§2. Modella la Caverna; before, the
stack had to be empty too, and such a game never ended), and keeps Cave-In off the Thief's tile
(docs/vast/facts.md §3, Cave-In)."""

# Each handler decides one command type (its second parameter), found by the command's exact type. The
# Goblins' handlers return their events, which the driver follows (``flow.then_advance``); the other roles'
# are given the driver's ``then_advance`` (``common.Then``) to follow theirs where the command says so.
_Handlers = dict[type[Command], Callable[[VastState, Any, Then], list[Event]]]
_GoblinsHandlers = dict[type[Command], Callable[[VastState, Any], list[Event]]]
_KNIGHT: _Handlers = {
    cmd.PlaceHeroCube: knight.place_cube,
    cmd.MoveKnight: knight.move,
    cmd.SmashCrystal: knight.smash,
    cmd.CollectTreasure: knight.collect,
    cmd.CompleteSidequest: knight.complete_sidequest,
    cmd.UseBomb: knight.use_bomb,
    cmd.UseFlare: knight.use_flare,
    cmd.UseBow: knight.use_bow,
    cmd.AttackDragon: dragon.knight_attack,
    cmd.ShootDragon: dragon.shoot,
    cmd.AttackThief: thief.knight_attack,
    cmd.ShootThief: thief.shoot,
}
_THIEF: _Handlers = {
    cmd.MoveThief: thief.move,
    cmd.PeekTile: thief.peek,
    cmd.Loot: thief.loot,
    cmd.Pickpocket: thief.pickpocket,
    cmd.PickLock: thief.pick_lock,
    cmd.Backstab: thief.backstab,
    cmd.HideLoot: thief.hide_loot,
    cmd.ThiefFlare: thief.flare,
}
_DRAGON: _Handlers = {
    cmd.MoveDragon: dragon.move,
    cmd.UsePower: dragon.use_power,
    cmd.DragonCollect: dragon.collect,
    cmd.PlaceGem: dragon.place_gem,
}
_GOBLINS: _GoblinsHandlers = {
    cmd.ActivateTribe: goblins.activate,
    cmd.PlaySecret: goblins.play_secret,
    cmd.TribeFlare: goblins.flare,
    cmd.WispMove: goblins.wisp,
}
_CAVE: _Handlers = {
    cmd.PlaceTile: cave_turn.place_tile,
    cmd.RemoveTile: cave_turn.remove,
    cmd.PlaceTreasure: cave_turn.place_treasure,
    cmd.Hatred: cave_turn.hatred,
    cmd.PastPlunder: cave_turn.past_plunder,
    cmd.SoporificSpores: cave_turn.spores,
    cmd.Rockslide: cave_turn.rockslide,
    cmd.GiantBats: cave_turn.giant_bats,
    cmd.CrystalCurse: cave_turn.crystal_curse,
}


def _check_rules_revision(created: GameCreated) -> None:
    """A revision of the rules this build plays (1 to ``RULES_REVISION``). Raises
    ``RuleBroken("setup.invalid")``."""
    if not 1 <= created.rules_revision <= RULES_REVISION:
        raise errors.RuleBroken(
            "setup.invalid",
            section="Vast rulebook §Preparazione",
            detail=f"rules revision {created.rules_revision}: this build plays 1 to {RULES_REVISION}",
        )


class Vast:
    """The ruleset object registered as ``vast`` (see ``dicelog.domain.core.ruleset``)."""

    name = NAME
    state_type = VastState
    command_type = cmd.VastCommandUnion
    event_types = EVENT_TYPES
    setup_type = setup.VastSetup
    rules_revision = RULES_REVISION
    die_faces = {name: face for face, (name, _) in DRAGON_DIE.items()}
    """The Dragon die's faces by pattern name (docs/vast/facts.md §4): ``center`` 1, ``diamond`` 2, ``cross``
    3, ``corners`` 4, ``saltire`` 5, ``around`` 6; a ``Roll`` may name them."""
    bot = seat_bot
    """Its bot (``choose``, ``decide``): bot seats and the demo's players."""
    demo = DEMO
    content = catalogue.CONTENT
    """Its content catalogue (``/content/vast/...``)."""
    web = WebAssets(package="dicelog.domain.vast", folder="web", table="vast.js", lobby="lobby.js")
    """Its web table's files (``domain/vast/web``, served at ``/web/rulesets/vast/``): the cave drawn as
    tiles, the player boards and the controls played by clicking; the lobby's setup form (a setup row,
    difficulty cards, who plays each role)."""

    def initial_state(self, created: GameCreated) -> VastState:
        """The state after ``created`` (``setup.initial_state``), for a revision of the rules this build
        plays (1 to ``RULES_REVISION``; else ``RuleBroken("setup.invalid")``)."""
        _check_rules_revision(created)
        return setup.initial_state(created)

    def check_new_game(self, created: GameCreated) -> None:
        """The checks a new game's setup must pass (``setup.check_new_game``; a sandbox table's
        ``setup.sandbox-*`` among them), run once when the game is created, never when it is folded again.
        Raises ``RuleBroken``."""
        _check_rules_revision(created)
        setup.check_new_game(created)

    def decide(self, state: VastState, command: Command) -> list[Event]:
        """The events ``command`` causes, or ``RuleBroken`` (``vast.*``, citing Vast rulebook); from rules
        revision 6 each roll names its die (``named_dice``)."""
        return named_dice(state, self._decide(state, command))

    def _decide(self, state: VastState, command: Command, tried: Tried | None = None) -> list[Event]:
        """``decide`` before ``named_dice``; ``tried``: what ``legal_commands`` learnt of ``state`` trying the
        commands before this one (``common.Tried``), or ``None``."""
        if isinstance(command, Begin):
            if state.begun:
                raise refuse("already-begun", "Preparazione", "the game is set up already")
            return setup.begin(state)
        if state.phase == "ended" or state.winner is not None:
            raise refuse("game-over", "Come Vincere", "the game has ended")
        if state.phase != "play" or state.turn is None:
            raise refuse("not-begun", "Preparazione", "the game is being set up")
        role = cmd.role_of(command)
        if role is None:
            raise errors.RuleBroken("command.unknown", section="Vast rulebook", detail=type(command).__name__)
        if role not in state.roles:
            raise refuse("role-not-in-play", "Preparazione", f"the {role} is not in play")
        if role != state.turn:
            raise not_your_turn(role)
        if isinstance(command, cmd.VastEndTurn):
            return end_turn(state, role)
        if type(command) is cmd.ActivateTribe:
            known = None if tried is None else tried.paths
            return flow.then_advance_folded(*goblins.activate_folded(state, command, known), tried)
        if type(command) in _GOBLINS:
            return flow.then_advance(state, _GOBLINS[type(command)](state, command), tried)
        handler: Any = (
            _KNIGHT.get(type(command))
            or _CAVE.get(type(command))
            or _DRAGON.get(type(command))
            or _THIEF.get(type(command))
        )
        then: Then = flow.then_advance if tried is None else partial(flow.then_advance, tried=tried)
        return handler(state, command, then)

    def resolve(self, state: VastState, answer: Answer) -> list[Event]:
        """The events after ``answer`` (already applied to ``state``): the setup's next step after its own
        draws (``setup.after_draw``), else the chain of the game (``flow.answer``)."""
        if setup.is_setup_draw(answer, state):
            return named_dice(state, setup.after_draw(state, answer))
        return named_dice(state, flow.answer(state, answer))

    def evolve(self, state: VastState, event: Event) -> VastState:
        return _evolve(state, event)

    def outcome(self, state: VastState) -> str | None:
        """``won:<role>`` once a role won (each role's §Come Vincere); ``lost:everyone`` when the Cave
        collapsed with no Cave player (Vast rulebook §Il Collasso)."""
        if state.winner == "everyone-lost":
            return "lost:everyone"
        return None if state.winner is None else f"won:{state.winner}"

    def outcome_reason(self, state: VastState) -> str:
        return state.end_reason

    def starts_turn(self, event: Event) -> bool:
        """A role's turn starts with ``vast.TurnStarted`` (undo and audit spans)."""
        return isinstance(event, VastTurnStarted)

    def starts_round(self, event: Event) -> bool:
        return isinstance(event, VastRoundStarted)

    def piece_of(self, command: Command) -> str | None:
        return cmd.role_of(command)

    def turn_piece(self, state: VastState) -> str | None:
        return state.turn if state.phase == "play" else None

    def legal_commands(self, state: VastState) -> list[Command]:
        """Every command ``decide`` accepts now: candidates of the role on turn, each tried."""
        if not state.begun:
            return [Begin()]
        if state.phase != "play" or state.winner is not None or state.turn is None:
            return []
        tried = Tried()  # what trying one candidate learns of ``state`` for the next ones
        pools: dict[str, Callable[[VastState], Iterable[Command]]] = {
            "knight": knight.candidates,
            "goblins": lambda s: goblins.candidates(s, tried.paths),
            "dragon": dragon.candidates,
            "cave": cave_turn.candidates,
            "thief": thief.candidates,
        }
        pool = list(pools[state.turn](state))
        legal: list[Command] = []
        for candidate in pool:
            try:
                named_dice(state, self._decide(state, candidate, tried))  # ``decide``
            except errors.RuleBroken:
                continue
            legal.append(candidate)
        return legal

    def initiative_view(self, state: VastState) -> read_models.VastInitiative:
        return read_models.initiative_view(state)

    def board_view(self, state: VastState) -> read_models.VastBoard:
        return read_models.board_view(state)

    def describe(self, state: VastState, event: Event) -> str | None:
        return read_models.describe(state, event)

    def view_event(self, event: Event, viewer: Any) -> Event | None:
        return visibility.view_event(event, viewer)

    def view_state(self, state: VastState, viewer: Any) -> VastState:
        return visibility.view_state(state, viewer)

    def view_command(self, command: Command, viewer: Any) -> Command | None:
        return visibility.view_command(command, viewer)

    def warm_up(self) -> None:
        content.tiles()
        content.cards()


ACTION_DIE_ROLLS = ("thief-action:", "evasion:")
"""The reasons of the rolls made with the Thief's Action die (Vast rulebook §Il Ladro); every other roll is
the Dragon die's (Vast rulebook §Il Dado del Drago)."""


def die_of(reason: str) -> str:
    """The die a roll for ``reason`` is made with: ``action`` (``ACTION_DIE_ROLLS``) or ``dragon``."""
    return "action" if reason.startswith(ACTION_DIE_ROLLS) else "dragon"


def named_dice(state: VastState, events: list[Event]) -> list[Event]:
    """``events`` with each ``RollRequested`` naming its die (``die_of``) in a game of rules revision 6 on, so
    a client shows the right one; earlier games' rolls stay as they were stored (``die`` unset)."""
    if state.rules_revision < 6:
        return events
    return [
        msgspec.structs.replace(e, die=die_of(e.reason))
        if isinstance(e, RollRequested) and e.die is None
        else e
        for e in events
    ]


END_CHECKS: dict[str, Callable[[VastState], None]] = {
    "knight": knight.check_end,
    "goblins": goblins.check_end,
    "thief": thief.check_end,
    "cave": cave_turn.check_end,
}
"""Each role's check that its turn may end now (raising ``RuleBroken``); the Dragon ends by ``dragon.end``."""


def end_turn(state: VastState, role: str) -> list[Event]:
    """``VastEndTurn`` of ``role`` (Vast rulebook §Riepilogo del Turno): the Dragon's end owes a Pride cube,
    its surfacing and a new hand first (``dragon.end``); another role's turn ends once its check passes
    (``END_CHECKS``), and the next turn starts (``flow.end_turn``)."""
    if role == "dragon":
        return dragon.end(state)
    END_CHECKS[role](state)
    return flow.then_advance(state, flow.end_turn(state, role))


RULESET = Vast()
