"""The Goblins (Vast rulebook §I Goblin; docs/vast/facts.md §3): the three Tribes, Rage and Malaise, the five
phases of their turn (War card, populating, Monsters, Secrets, activation), their actions (Attack, Plunder,
Explore, Reveal, Hide and each Tribe's special action), scattering, and the Ambushes they spring on the
Knight.

Built Monsters: Flame Giant, Ogre, Troll (+1 Strength), Blob, Bright Beetles (scattering), Golem (walls),
Pet Frog. Built Secrets: Hex, Fire Bomber, Blind Fury, Secret Tunnels, Leader, Trap. The cards not built
(Gnome, Underworm, Wisp; Cave-In, Goblin Ruby, Hiding Spots, Poison) are left out of their decks (README).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from itertools import combinations

from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested, DrawRequested, Event, RollRequested
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import ENTRANCE, SIDES, Pos, parse_pos, pos_key, step
from dicelog.domain.vast.content import MonsterCard, SecretCard, goblin_file
from dicelog.domain.vast.content import tile as tile_data
from dicelog.domain.vast.evolve import fold, groups
from dicelog.domain.vast.rules.common import (
    cell_at,
    cells_by_pos,
    cubes_on,
    dragon_armor,
    dragon_at,
    geometry,
    grit_change,
    is_crystal,
    knight_pos,
    pieces_at,
    refuse,
    returned_cubes,
    thief_pos,
    tile_draw,
)
from dicelog.domain.vast.rules.pieces import flame_wall, forced_discards, tribe_sees
from dicelog.domain.vast.rules.tiles import bats_reach
from dicelog.domain.vast.rules.tribes import (
    ambusher_strength,
    attack_dragon,
    deck_draw,
    gnome_jump,
    knight_strength_off_turn,
    on_map,
    rage,
    scatter,
    the_goblins,
    tribe,
    tribe_strength,
    tribes_at,
    where,
)
from dicelog.domain.vast.state import TRIBES, Tribe, VastState

HAND_LIMIT = 5
"""Vast rulebook §4. Pesca le Carte Segreti: 5 cards, face-up ones included."""
MONSTER_ROOM = {"fangs": 1, "bones": 2, "eye": 1}
"""Vast rulebook §3. Assegna i Mostri: Monsters each Tribe can hold."""
SECRET_DECISIONS = ("war-choice", "secrets-limit", "overpopulation")
"""Decisions whose options only the Goblins may see."""


REVISION_3_CARDS = frozenset(
    {"cave-in", "hiding-spots", "poison", "goblin-ruby", "gnome", "underworm", "wisp"}
)
"""Cards built in Vast rules revision 3: games of earlier revisions play without them (their decks re-derive
as they were played)."""


def _built(cards: Iterable[MonsterCard | SecretCard], revision: int) -> tuple[str, ...]:
    return tuple(sorted(c.id for c in cards if c.built and (revision >= 3 or c.id not in REVISION_3_CARDS)))


def built_monsters(revision: int) -> tuple[str, ...]:
    """The Monster deck of a game of rules revision ``revision``: the cards built by then."""
    return _built(goblin_file().monsters, revision)


def built_secrets(revision: int) -> tuple[str, ...]:
    """The Secrets deck of a game of rules revision ``revision``: the cards built by then."""
    return _built(goblin_file().secrets, revision)


def war_deck() -> tuple[str, ...]:
    return tuple(sorted(c.id for c in goblin_file().war))


# --- scattering and Rage -----------------------------------------------------------------------


# --- the turn's phases ----------------------------------------------------------------------------


def start(state: VastState) -> list[Event]:
    return [ev.GoblinsPhaseBegun(phase="war")]


def next_step(state: VastState) -> list[Event]:
    """The Goblins' turn from ``state`` up to the next decision, draw or command (Vast rulebook §Riepilogo del
    Turno)."""
    gob = state.goblins
    if gob is None or state.turn != "goblins":
        return []
    if gob.drawn:
        return [monster_decision(state, gob.drawn[0])]
    if len(gob.hand) + len(gob.face_up) > HAND_LIMIT:
        return [
            DecisionRequested(
                decision="secrets-limit", options=gob.hand, piece="goblins", default=gob.hand[0]
            )
        ]
    window = secrets_window(state)
    if window is not None:
        return [window]
    war = next((c for c in goblin_file().war if c.id == gob.war), None)
    match gob.phase:
        case "war":
            events: list[Event] = [rage(1, "war")] if gob.rage == 0 else []
            count = max(1, gob.rage)
            draw = DrawRequested(reason="war", deck="war", cards=state.war_deck, count=count, piece="goblins")
            return [*events, ev.GoblinsPhaseBegun(phase="war-draw"), draw]
        case "populate" if war is not None:
            return populate(state, (war.fangs, war.bones, war.eye))
        case "monsters" if war is not None:
            return _draw_phase(state, "monsters", war.monsters, "secrets")
        case "monsters-drawn":
            return [ev.GoblinsPhaseBegun(phase="secrets")]
        case "secrets" if war is not None:
            return _draw_phase(state, "secrets", war.secrets, "activate")
        case "secrets-drawn":
            return [ev.GoblinsPhaseBegun(phase="activate")]
    return []


def _draw_phase(state: VastState, deck: str, count: int, then: str) -> list[Event]:
    draw = deck_draw(state, deck, count, deck)
    if draw is None:
        return [ev.GoblinsPhaseBegun(phase=then)]
    return [ev.GoblinsPhaseBegun(phase=f"{deck}-drawn"), draw]


def war_drawn(state: VastState, cards: tuple[str, ...]) -> list[Event]:
    """The War cards drawn: the one kept at once, else the decision ``war-choice`` (Vast rulebook §1)."""
    if len(cards) == 1:
        return war_chosen(state, cards[0], ())
    return [DecisionRequested(decision="war-choice", options=cards, piece="goblins", default=cards[0])]


# --- Goblin Ruby (docs/vast/facts.md §3 Secrets cards; rules revision 3)
# ---------------------------------------------------


def ruby_open(state: VastState) -> bool:
    """Whether the face-up Goblin Ruby may still redraw a card this turn (once a turn, in their turn)."""
    gob = state.goblins
    return gob is not None and state.turn == "goblins" and "goblin-ruby" in gob.face_up and not gob.ruby_used


def ruby_offer(deck: str, cards: tuple[str, ...]) -> DecisionRequested:
    """Right after drawing War, Monster or Secrets cards, one may be discarded and another drawn instead
    (decision ``ruby:deck``, ``keep`` or the card; default ``keep``; its options are the Goblins' secret)."""
    return DecisionRequested(
        decision=f"ruby:{deck}", options=("keep", *cards), piece="goblins", default="keep"
    )


def ruby_redraw(state: VastState, deck: str, option: str) -> list[Event]:
    """The answer to a ``ruby`` decision: ``keep`` goes on as after the draw; a card is discarded and one
    drawn in its place (a War card from those not drawn this turn)."""
    if deck == "war":
        drawn = state.offer
        if option == "keep":
            return war_drawn(state, drawn)
        kept = tuple(c for c in drawn if c != option)
        left = tuple(c for c in state.war_deck if c not in drawn)
        discarded: list[Event] = [ev.RubyRedrawn(deck=deck, card=option)]
        if not left:
            return [*discarded, *war_drawn(state, kept)]
        return [
            *discarded,
            DrawRequested(reason="war-ruby", deck="war", cards=left, count=1, piece="goblins"),
        ]
    if option == "keep":
        return []

    discarded = [ev.RubyRedrawn(deck=deck, card=option)]
    more = deck_draw(fold(state, discarded), deck, 1, f"{deck}-ruby")
    return [*discarded, *([more] if more is not None else [])]


def war_chosen(state: VastState, card: str, others: tuple[str, ...]) -> list[Event]:
    war = next(c for c in goblin_file().war if c.id == card)
    events: list[Event] = [ev.WarCardChosen(card=card, discarded=others)]
    if war.rage:
        events.append(rage(war.rage, "war-card"))
    return [*events, ev.GoblinsPhaseBegun(phase="populate")]


def populate(state: VastState, adds: tuple[int, int, int]) -> list[Event]:
    """Vast rulebook §2. Popola le Tribù: the Goblins may block a Tribe's discs for 1 Rage each (decision
    ``block``, default none)."""
    gob = the_goblins(state)
    candidates = [name for name, n in zip(TRIBES, adds, strict=True) if n > 0]
    if gob.rage > 0 and candidates:
        options = ["none"]
        for size in range(1, min(gob.rage, len(candidates)) + 1):
            options += ["+".join(c) for c in combinations(candidates, size)]
        return [DecisionRequested(decision="block", options=tuple(options), piece="goblins", default="none")]
    return populate_with(state, adds, ())


def populate_with(state: VastState, adds: tuple[int, int, int], blocked: tuple[str, ...]) -> list[Event]:
    """Add the discs; a Tribe over 4 overpopulates: exactly one Tribe scatters, a revealed one when any is on
    the map, else a hidden one (decision ``overpopulation``; Leader, when held, stops it)."""
    gob = the_goblins(state)
    added = tuple(0 if name in blocked else n for name, n in zip(TRIBES, adds, strict=True))
    over = any(
        t.population + n > 4 and "pet-frog" not in t.monsters for t, n in zip(gob.tribes, added, strict=True)
    )
    events: list[Event] = [rage(-len(blocked), "block")] if blocked else []
    events.append(ev.TribesPopulated(added=added, blocked=blocked, overpopulated=over))  # type: ignore[arg-type]  # one count per Tribe: 3
    if not over:
        return [*events, ev.GoblinsPhaseBegun(phase="monsters")]
    revealed = [t.name for t in gob.tribes if on_map(t)]
    eligible = revealed or [t.name for t in gob.tribes]
    options = (*eligible, *(["leader"] if "leader" in gob.hand else []))
    by_size = sorted(eligible, key=lambda n: -tribe(state, n).population)
    return [
        *events,
        DecisionRequested(decision="overpopulation", options=options, piece="goblins", default=by_size[0]),
    ]


def overpopulated(state: VastState, option: str) -> list[Event]:
    if option == "leader":
        events: list[Event] = [ev.SecretPlayed(card="leader")]
    else:
        events = [scatter(state, tribe(state, option))]
    return [*events, ev.GoblinsPhaseBegun(phase="monsters")]


def monster_decision(state: VastState, card: str) -> DecisionRequested:
    """Vast rulebook §3. Assegna i Mostri: a Tribe with room (Fangs 1, Eye 1, Bones 2), while the Monsters
    assigned are fewer than the Bones' Population; or in place of a Tribe's Monster; or discarded. Default:
    the first Tribe with room, else discard."""
    gob = the_goblins(state)
    total = sum(len(t.monsters) for t in gob.tribes)
    cap = tribe(state, "bones").population
    options: list[str] = []
    for t in gob.tribes:
        if len(t.monsters) < MONSTER_ROOM[t.name] and total < cap:
            options.append(t.name)
        elif t.monsters:
            options.append(f"replace:{t.name}")
    options.append("discard")
    return DecisionRequested(decision="monster", options=tuple(options), piece="goblins", default=options[0])


def monster_decided(state: VastState, option: str) -> list[Event]:
    gob = the_goblins(state)
    card = gob.drawn[0]
    if option == "discard":
        return [ev.MonsterDiscarded(card=card)]
    name = option.removeprefix("replace:")
    replaced = tribe(state, name).monsters[0] if option.startswith("replace:") else None
    return [ev.MonsterAssigned(card=card, tribe=name, replaced=replaced)]


# --- Ambush (Vast rulebook §Rivelare e risolvere le tessere Buie, Imboscata; §Nascondere)
# --------------------


def ambushed_by(state: VastState, option: str) -> list[Event]:
    ks = knight_strength_off_turn(state)
    if option == "none":
        return [ev.VastAmbushResolved(strength=ks, ambusher=ambusher_strength(state), hurt=False)]
    t = tribe(state, option)
    ts = tribe_strength(state, t)
    return [
        *attack_knight(state, t, ambush=True),
        ev.VastAmbushResolved(strength=ks, ambusher=ts, hurt=True),
    ]


def attack_knight(state: VastState, t: Tribe, *, ambush: bool = False, plain: bool = False) -> list[Event]:
    """Vast rulebook §Attaccare: the Knight loses 1 Health, the Tribe scatters, Rage -1 (Blob: she also loses
    5 Grit; Fire Bomber: the Tribe's Population drops to 0; Poison: her cubes on the Entrance). ``plain``: no
    Monster nor Secret counts (Hiding Spots)."""
    k = state.knight
    if k is None:
        return []
    events: list[Event] = [
        ev.TribeAttackedKnight(
            tribe=t.name,
            strength=plain_strength(state, t) if plain else tribe_strength(state, t),
            knight_strength=knight_strength_off_turn(state),
            ambush=ambush,
        ),
        ev.HealthChanged(delta=-1, why="goblins"),
    ]
    if k.health - 1 <= 0:
        events.append(ev.KnightDied(why="goblins"))

    if "blob" in t.monsters and not plain:
        events += grit_change(fold(state, events), -5, "blob")
    if not plain:
        events += poisoned(fold(state, events), t)
    gob = the_goblins(state)
    events += [scatter(state, t, to_zero=gob.fire_bomber == t.name and not plain), rage(-1, "attack")]
    return events


# --- activation (Vast rulebook §5. Attiva le Tribù)
# -----------------------------------------------------------


def paths(state: VastState, t: Tribe) -> dict[Pos, int]:
    """The tiles a revealed Tribe can reach and the fewest Lit tiles it leaves on the way (Vast rulebook §5:
    any distance, never through walls, the Golem through them, the Underworm once up to 2 tiles diagonally;
    the Knight's tile only as the end, docs/vast/rulings.md). From rules revision 6 the surfaced Dragon's
    tile, when the Tribe could not enter it (Strength not above its Armor), is only an end too, refused there
    as ``goblins.too-weak`` (Vast rulebook §I Goblin, Attaccare: «Per entrare in una tessera occupata dal
    Cavaliere o dal Drago, la Tribù deve avere Forza maggiore»: every tile passed through is entered); from
    rules revision 7 with the Strength it has as it enters that tile (``entry_strength``)."""
    g = geometry(state)
    start = where(t)
    golem = "golem" in t.monsters
    worm = "underworm" in t.monsters
    knight = knight_pos(state)
    d = state.dragon
    dragon = (
        (d.x, d.y) if state.rules_revision >= 6 and d is not None and d.surfaced and d.x is not None else None
    )
    armor = dragon_armor(state) if dragon is not None else 0
    seen: set[tuple[Pos, bool]] = set()
    best: dict[Pos, int] = {}
    heap: list[tuple[int, Pos, bool]] = [(0, start, False)]
    while heap:
        cost, here, jumped = heapq.heappop(heap)
        if (here, jumped) in seen:
            continue
        seen.add((here, jumped))
        best.setdefault(here, cost)
        barred = here == dragon and entry_strength(state, t, cost) <= armor
        if here != start and (here == knight or barred):
            continue  # she is fought there, or the Dragon bars the way: the Tribe does not go on
        leaving = 1 if here in g.lit else 0
        for side in SIDES:
            there = step(here, side)
            if there in g.cells and (golem or not g.wall_between(here, side)):
                heapq.heappush(heap, (cost + leaving, there, jumped))
        # docs/vast/facts.md §3 Underworm: once, up to 2 tiles diagonally, over walls and tiles
        if worm and not jumped:
            for n in (1, 2):
                for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    there = (here[0] + n * dx, here[1] + n * dy)
                    if there in g.cells:
                        heapq.heappush(heap, (cost + leaving, there, True))
    return best


Reach = dict[str, dict[Pos, int]]
"""``paths`` of the Tribes of one state by Tribe name, filled as they are asked for: ``legal_commands`` tries
every Goblins command on one state, and each move it tries would search the same paths again."""


def known_paths(state: VastState, t: Tribe, known: Reach | None) -> dict[Pos, int]:
    """``paths(state, t)``, kept in ``known`` when given (a dict for this ``state`` only; ``None``: none
    kept). The dict returned is shared: read it, never change it."""
    if known is None:
        return paths(state, t)
    if t.name not in known:
        known[t.name] = paths(state, t)
    return known[t.name]


def movement_loss(state: VastState, t: Tribe, lit_left: int) -> int:
    """Discs lost: 1 for every 2 Lit tiles left this turn, counted across the turn (Vast rulebook §5)."""
    gob = the_goblins(state)
    if gob.blind_fury == t.name:
        return 0
    return (t.lit_left + lit_left) // 2 - t.lit_left // 2


def entry_strength(state: VastState, t: Tribe, lit_left: int) -> int:
    """The Strength the moving Tribe ``t`` has as it enters a tile after leaving ``lit_left`` Lit tiles on
    this move, the one it enters that tile from included: what must be above the Knight's Strength or the
    Dragon's Armor for it to enter their tile (Vast rulebook §I Goblin, Attaccare). From rules revision 7
    the discs it has lost on the way are gone (§5. Attiva le Tribù: «rimuovi il disco quando la Tribù lascia
    la seconda tessera», so before it enters the next); before, its Strength as the move began."""
    if state.rules_revision < 7:
        return tribe_strength(state, t)
    lost = min(t.population, movement_loss(state, t, lit_left))
    return tribe_strength(state, replace(t, population=t.population - lost))


def reveal_spots(state: VastState, t: Tribe) -> list[Pos]:
    """Vast rulebook §Rivelare: Dark tiles of the Tribe's symbol (any, with the Gnome) with no other player's
    piece; when there is none, the empty spaces next to the map (it lurks there). Before rules revision 6
    only the Knight's tile was excluded; from 6 the Dragon's and the Thief's too (Vast rulebook §I Goblin,
    Rivelare: «ad una tessera Buia che … non contenga pedine di altri giocatori»)."""
    gnome = "gnome" in t.monsters  # docs/vast/facts.md §3 Gnome: onto a Dark tile of any symbol
    taken: set[Pos | None]  # before revision 6, the Knight's tile (None: no Knight)
    if state.rules_revision >= 6:
        thief = thief_pos(state)
        taken = {p for p in cells_by_pos(state) if pieces_at(state, p) or p == thief}
    else:
        taken = {knight_pos(state)}
    spots = sorted(
        (c.x, c.y)
        for c in state.cells
        if not c.lit and (gnome or c.symbol == t.name) and (c.x, c.y) not in taken
    )
    if spots:
        return spots
    cells = cells_by_pos(state)
    return sorted({step(p, s) for p in cells for s in SIDES} - set(cells))


def activate(state: VastState, command: cmd.ActivateTribe, known: Reach | None = None) -> list[Event]:
    """Activate a Tribe once this turn: move, then one action (Vast rulebook §5. Attiva le Tribù). A lurking
    Tribe only steps onto a tile next to it and stops (§Disperdere la Tribù: «puoi solo spostarla dallo spazio
    in cui si trova ad una tessera adiacente a tua scelta»), never onto the Knight's tile (it would have to
    attack) and, from rules revision 7, onto the surfaced Dragon's only with Strength above its Armor
    (§Attaccare: «Per entrare in una tessera occupata dal Cavaliere o dal Drago, la Tribù deve avere Forza
    maggiore»). ``known``: the paths of ``state``'s Tribes searched so far (``known_paths``). Raises
    ``vast.goblins.*``."""
    return activate_folded(state, command, known)[0]


def activate_folded(
    state: VastState, command: cmd.ActivateTribe, known: Reach | None = None
) -> tuple[list[Event], VastState, int]:
    """``activate``'s events, with the state after the first ``n`` of them (``fold(state, events[:n])``,
    folded on the way): ``(events, that state, n)``, so what follows them folds only the rest."""
    gob = the_goblins(state)
    if gob.phase != "activate":
        raise refuse("goblins.not-activating", "5. Attiva le Tribù", "Tribes act in the activation phase")
    t = tribe(state, command.tribe)
    if t.activated:
        raise refuse("goblins.activated", "5. Attiva le Tribù", f"the {t.name} Tribe has acted this turn")
    if t.population < 1:
        raise refuse("goblins.empty", "5. Attiva le Tribù", "a Tribe with Population 0 cannot act")
    events: list[Event] = [ev.TribeActivated(tribe=t.name, action=command.action)]
    to = (command.x, command.y) if command.x is not None and command.y is not None else None
    if not on_map(t) and not t.lurking:  # hidden on the board: it can only come out
        if command.action != "reveal" or to is None or to not in reveal_spots(state, t):
            raise refuse(
                "goblins.reveal", "Rivelare", "a hidden Tribe comes out on a Dark tile of its symbol"
            )
        lurking = cell_at(state, to) is None
        return [*events, ev.TribeRevealed(tribe=t.name, x=to[0], y=to[1], lurking=lurking)], state, 0
    if t.lurking:
        if command.action == "hide" and to is None:
            return [*events, ev.TribeHidden(tribe=t.name)], state, 0
        here = where(t)
        if (
            command.action != "none"
            or to is None
            or to not in [step(here, s) for s in SIDES]
            or not cell_at(state, to)
        ):
            raise refuse(
                "goblins.lurking",
                "Disperdere la Tribù",
                "a lurking Tribe moves to a tile next to it and stops",
            )
        if to == knight_pos(state):
            raise refuse("goblins.knight-tile", "Attaccare", "a lurking Tribe stops without acting")
        if (
            state.rules_revision >= 7
            and state.dragon is not None
            and state.dragon.surfaced
            and dragon_at(state, to)
            and entry_strength(state, t, 0) <= dragon_armor(state)
        ):  # from an empty space beside the map: no Lit tile left on the way
            raise refuse(
                "goblins.too-weak", "Attaccare", "entering the Dragon's tile takes Strength above its Armor"
            )
        return [*events, ev.TribeMoved(tribe=t.name, x=to[0], y=to[1])], state, 0
    # revealed: move, then act

    here = where(t)
    after, folded = state, 0
    if to is not None and to != here:
        if (
            gob.tunnels
            and (c := cell_at(state, to)) is not None
            and not c.lit
            and not tribes_at(state, to)
            and (to != knight_pos(state))
        ):
            moved: list[Event] = [ev.TribeMoved(tribe=t.name, x=to[0], y=to[1], teleported=True)]
            after = fold(state, [*events, *moved])
        else:
            reach = known_paths(state, t, known)
            if to not in reach:
                raise refuse("goblins.unreachable", "5. Attiva le Tribù", f"{pos_key(to)} cannot be reached")
            entering = entry_strength(state, t, reach[to])
            if to == knight_pos(state):
                if entering <= knight_strength_off_turn(state):
                    raise refuse(
                        "goblins.too-weak", "Attaccare", "entering the Knight's tile takes more Strength"
                    )
                if command.action != "attack":
                    raise refuse(
                        "goblins.must-attack", "Attaccare", "a Tribe entering the Knight's tile attacks"
                    )
            surfaced = state.dragon is not None and state.dragon.surfaced
            if surfaced and dragon_at(state, to) and entering <= dragon_armor(state):
                raise refuse(
                    "goblins.too-weak",
                    "Attaccare",
                    "entering the Dragon's tile takes Strength above its Armor",
                )
            moved = [ev.TribeMoved(tribe=t.name, x=to[0], y=to[1], lit_left=reach[to])]
            loss = min(t.population, movement_loss(state, t, reach[to]))
            if loss:
                moved.append(ev.PopulationLost(tribe=t.name, count=loss, why="movement"))

            entered = fold(state, [*events, *moved])
            flames = flame_wall(entered, t.name, to)
            moved += flames
            after = fold(entered, flames)  # fold(state, events + moved), each event folded once
        events += moved
        folded = len(events)
        t = tribe(after, t.name)
        if t.population == 0:
            return [*events, scatter(after, t)], after, folded
        here = to
    return events + act(after, t, here, command), after, folded


def act(state: VastState, t: Tribe, here: Pos, command: cmd.ActivateTribe) -> list[Event]:
    """The activated Tribe's action (Vast rulebook §Attaccare, §Razziare, §Esplorare, §Nascondere, §Azioni
    Speciali)."""
    gob = the_goblins(state)
    cell = cell_at(state, here)
    match command.action:
        case "none":
            if here == knight_pos(state):
                raise refuse("goblins.must-attack", "Attaccare", "a Tribe entering the Knight's tile attacks")
            return []
        case "attack" if here == knight_pos(state):
            return attack_knight(state, t)
        case "attack" if dragon_at(state, here) and "ash-dragon" in state.variants:
            if tribe_strength(state, t) <= dragon_armor(state):
                raise refuse(
                    "goblins.too-weak", "Attaccare", "attacking the Dragon takes more Strength than Armor"
                )
            return attack_dragon(state, t)
        case "attack" if thief_pos(state) == here and _tribe_sees_thief(state, t):
            # Vast rulebook §Attaccare il Ladro: no scatter
            return [ev.ThiefAttacked(by=t.name, why="attack")]
        case "attack" if cell is not None and cell.crystal:
            if tribe_strength(state, t) < 3:
                raise refuse(
                    "goblins.crystal", "Attaccare", "a Crystal is attacked by Tribes of Strength 3 or more"
                )
            first = gob.crystal_attack
            if first is not None and first[0] != t.name and (first[1], first[2]) == here:
                other = tribe(state, first[0])
                return [
                    ev.TribeAttackedCrystal(tribe=t.name, x=here[0], y=here[1], smashed=True),
                    scatter(state, t),
                    scatter(state, other),
                    rage(-1, "attack"),
                ]
            return [ev.TribeAttackedCrystal(tribe=t.name, x=here[0], y=here[1])]
        case "attack":
            raise refuse("goblins.no-target", "Attaccare", "nothing to attack on this tile")
        case "plunder" if cell is not None and cell.treasure < 1 and cell.gems:
            gem = cell.gems[0]  # Vast rulebook §Razziare: a Dragon Gem, the Dragon die for its trap
            return [
                RollRequested(reason=f"gem:{t.name}:{gem}:{pos_key(here)}", dice=1, sides=6, piece="goblins")
            ]
        case "plunder" if cell is not None and cell.treasure < 1 and dragon_at(state, here):
            d = state.dragon
            if d is None or not d.gems or any(c.gems for c in state.cells):
                raise refuse(
                    "goblins.no-treasure",
                    "Razziare",
                    "the Dragon's Gems are plundered only with none on the map",
                )
            if tribe_strength(state, t) <= dragon_armor(state):
                raise refuse(
                    "goblins.too-weak", "Razziare", "plundering the Dragon takes Strength above its Armor"
                )
            reason = f"gem:{t.name}:{d.gems[0]}:{pos_key(here)}:dragon"
            return [RollRequested(reason=reason, dice=1, sides=6, piece="goblins")]
        case "plunder":
            if cell is None or cell.treasure < 1:
                raise refuse("goblins.no-treasure", "Razziare", "no Treasure token on this tile")
            return [
                ev.TribePlundered(tribe=t.name, x=here[0], y=here[1]),
                rage(1, "plunder"),
                *gnome_jump(state, t),
            ]
        case "explore":
            return explore(state, t, here, command)
        case "hide":
            return [ev.TribeHidden(tribe=t.name)]
        case "special":
            if t.name == "fangs":
                return [rage(1, "fangs")]
            draw = deck_draw(state, "monsters" if t.name == "bones" else "secrets", 1, f"{t.name}-special")
            if draw is None:
                raise refuse("goblins.empty-deck", "Azioni Speciali", "no card is left to draw")
            return [draw]
    raise refuse("goblins.action", "5. Attiva le Tribù", f"the {t.name} Tribe cannot {command.action} here")


def _tribe_sees_thief(state: VastState, t: Tribe) -> bool:
    """Vast rulebook §Attaccare il Ladro: the Tribe's Perception (Population + 1, -1 with the Goblin Ruby)
    must be greater than his Stealth."""
    return tribe_sees(state, t)


def explore(state: VastState, t: Tribe, here: Pos, command: cmd.ActivateTribe) -> list[Event]:
    """Vast rulebook §Esplorare: from a Dark tile, the Cave places a tile Dark side up on an empty space next
    to it (decision ``explore:x,y``, from its hand), then the Tribe moves onto it. Without a Cave player the
    top tile of the stack is drawn and placed there (a draw ``explore:x,y:tribe``)."""
    cell = cell_at(state, here)
    if cell is None or cell.lit:
        raise refuse("goblins.explore", "Esplorare", "a Tribe explores from a Dark tile")
    if command.ex is None or command.ey is None:
        raise refuse("goblins.explore", "Esplorare", "name the empty space next to it (ex, ey)")
    target = (command.ex, command.ey)
    if target not in [step(here, s) for s in SIDES] or cell_at(state, target) is not None:
        raise refuse("goblins.explore", "Esplorare", "an empty space next to the Tribe's tile")
    name = f"explore:{pos_key(target)}:{t.name}"
    cave = state.cave
    if cave is None:
        draw = tile_draw(state, name, piece="goblins")
        if draw is None:
            raise refuse("goblins.explore", "Esplorare", "no tile is left in the stack")
        return [draw]
    if not cave.hand:
        raise refuse("goblins.explore", "Esplorare", "the Cave has no tile to place")
    return [DecisionRequested(decision=name, options=cave.hand, piece="cave", default=cave.hand[0])]


def flare(state: VastState, command: cmd.TribeFlare) -> list[Event]:
    """Flare (docs/vast/facts.md §7 Variant cards; Goblins vs Cave): in the activation phase, each revealed
    Tribe on the map once a turn, on its own space: the Dragon die is rolled round it (``goblin-flare:x,y``)
    and every Dark tile hit is revealed. Raises ``vast.goblins.flare`` without the card, before the activation
    phase, for a Tribe not on the map or one that used it this turn."""
    gob = the_goblins(state)
    if "flare:goblins" not in state.variants:
        raise refuse("goblins.flare", "Consigli Rapidi - Varianti", "the Goblins have no Flare in this setup")
    if gob.phase != "activate":
        raise refuse("goblins.flare", "Riepilogo del Turno", "Flare is used in the activation phase")
    t = tribe(state, command.tribe)
    if not on_map(t):
        raise refuse("goblins.flare", "Consigli Rapidi - Varianti", "only a Tribe on the map lights it")
    if t.name in gob.flared:
        raise refuse("goblins.flare", "Consigli Rapidi - Varianti", "each Tribe uses Flare once per turn")
    x, y = where(t)
    roll = RollRequested(reason=f"goblin-flare:{pos_key((x, y))}", dice=1, sides=6, piece="goblins")
    return [ev.FlareUsed(x=x, y=y, tribe=t.name), roll]


WINDOW_PHASES = ("war", "populate", "monsters", "secrets")
"""The phases whose work waits for the Goblins' Secrets window from rules revision 6 (the activation phase
takes ``PlaySecret`` commands)."""
TRIBE_SECRETS = ("fire-bomber", "blind-fury", "hiding-spots")
"""Secrets cards played on a Tribe."""


def playable_secrets(state: VastState) -> tuple[str, ...]:
    """The Secrets cards the Goblins may play now, as a ``secrets-window`` decision's options: the card, or
    ``card:tribe`` for a card played on a Tribe (``TRIBE_SECRETS``), each one ``play_secret`` accepts."""
    gob = the_goblins(state)
    out: list[str] = []
    for card in gob.hand:
        tried = [(f"{card}:{name}", name) for name in TRIBES] if card in TRIBE_SECRETS else [(card, None)]
        for option, name in tried:
            try:
                secret_events(state, cmd.PlaySecret(card=card, tribe=name))
            except RuleBroken:
                continue
            out.append(option)
    return tuple(out)


def secrets_window(state: VastState) -> DecisionRequested | None:
    """From rules revision 6, the Goblins play Secrets cards at any time of their turn (Vast rulebook
    §I Goblin: «Puoi giocare le carte Segreti in qualunque momento durante il tuo turno»): before the work of
    each phase up to the Secrets draw (``WINDOW_PHASES``), while they hold a card playable now, the decision
    ``secrets-window:phase``: ``go-on`` (the default) or a card to play (``playable_secrets``); after a card,
    the window opens again. Before revision 6, or with nothing playable, ``None``."""
    gob = state.goblins
    if state.rules_revision < 6 or gob is None or gob.phase not in WINDOW_PHASES or gob.window == gob.phase:
        return None
    options = playable_secrets(state)
    if not options:
        return None
    return DecisionRequested(
        decision=f"secrets-window:{gob.phase}", options=("go-on", *options), piece="goblins", default="go-on"
    )


def window_chosen(state: VastState, phase: str, option: str) -> list[Event]:
    """The answer to a ``secrets-window`` decision: ``go-on`` closes it (``SecretsWindowClosed``), a card is
    played (``card`` or ``card:tribe``)."""
    if option == "go-on":
        return [ev.SecretsWindowClosed(phase=phase)]
    card, _, name = option.partition(":")
    on = next((t for t in TRIBES if t == name), None)
    return secret_events(state, cmd.PlaySecret(card=card, tribe=on))


def play_secret(state: VastState, command: cmd.PlaySecret) -> list[Event]:
    """Play a Secrets card in the Goblins' turn (Vast rulebook §4; docs/vast/facts.md §3 Secrets cards): in
    the activation phase; from rules revision 6 in any phase of their turn (Vast rulebook §I Goblin: «Puoi
    giocare le carte Segreti in qualunque momento durante il tuo turno»), the phases before the activation
    offering them as the ``secrets-window`` decision. Raises ``vast.secret.when`` out of that time."""
    gob = the_goblins(state)
    if gob.phase != "activate" and not (state.rules_revision >= 6 and gob.phase):
        raise refuse("secret.when", "4. Pesca le Carte Segreti", "Secrets are played in the activation phase")
    return secret_events(state, command)


def secret_events(state: VastState, command: cmd.PlaySecret) -> list[Event]:
    """The events of playing ``command``'s Secrets card, whatever the phase. Raises ``vast.secret.*``."""
    gob = the_goblins(state)
    if command.card not in gob.hand:
        raise refuse("secret.not-in-hand", "4. Pesca le Carte Segreti", "that Secrets card is not in hand")
    card = command.card
    if card in ("fire-bomber", "blind-fury"):
        if command.tribe is None:
            raise refuse("secret.tribe", "4. Pesca le Carte Segreti", "name the Tribe it is played on")
        tribe(state, command.tribe)
        return [ev.SecretPlayed(card=card, tribe=command.tribe)]
    if card == "hex":
        played: list[Event] = [ev.SecretPlayed(card=card)]
        hit = ("knight", "dragon", "cave") if state.rules_revision >= 3 else ("knight", "dragon")
        hit = (*hit, "thief") if state.rules_revision >= 4 else hit
        targets = tuple(r for r in hit if r in state.roles)
        if len(targets) > 1:  # docs/vast/facts.md §3 Hex: the Goblins choose the player it hits
            return [
                *played,
                DecisionRequested(
                    decision="hex-target", options=targets, piece="goblins", default=targets[0]
                ),
            ]
        return played + hex_hits(state, targets[0] if targets else "")
    if card in ("secret-tunnels", "trap", "poison", "goblin-ruby"):
        return [ev.SecretPlayed(card=card)]
    if card == "cave-in":
        return cave_in(state)
    if card == "hiding-spots":
        return hiding_spots(state, command)
    raise refuse("secret.not-now", "4. Pesca le Carte Segreti", f"{card} is not played this way")


def hex_hits(state: VastState, target: str) -> list[Event]:
    """Hex (docs/vast/facts.md §3 Secrets cards), X the Eye's Population: the Knight loses X Grit; the Dragon
    discards X Power cards of its choice; from rules revision 3, the Cave X Omen tokens of its choice
    (``omen-discard``); from revision 4, the Thief -X Stealth until the Goblins' next turn."""
    x = tribe(state, "eye").population
    if target == "cave":
        return omen_discards(state, x)
    if target == "dragon":
        return forced_discards(state, x, "hex")
    if target == "knight" and x:
        return grit_change(state, -x, "hex")
    if target == "thief" and x:
        return [ev.ThiefHexed(count=x)]
    return []


def omen_discards(state: VastState, n: int) -> list[Event]:
    """The Cave's decision ``omen-discard:n``: the next of ``n`` Omen tokens it discards back into the bag
    (Hex); none left to discard, nothing."""
    cave = state.cave
    if n <= 0 or cave is None or not cave.omens:
        return []
    options = tuple(sorted(set(cave.omens)))
    return [
        DecisionRequested(decision=f"omen-discard:{n}", options=options, piece="cave", default=options[0])
    ]


# --- Secrets of rules revision 3: Cave-In, Hiding Spots, Poison (docs/vast/facts.md §3 Secrets cards)
# -----------------------


def cave_in_spots(state: VastState, chosen: tuple[Pos, ...] = ()) -> list[Pos]:
    """Tiles Cave-In may collapse: never the Entrance, a tile with a piece (the Knight, the Dragon, a revealed
    Tribe; from rules revision 8 the Thief too) or a Crystal token; during the Collapse, not one whose fall
    would split the map (as Wrath). docs/vast/facts.md §3, Cave-In: «not a tile with a player's piece»; before
    revision 8 the Thief's tile could fall, and its ``wrath-thief`` step-off was asked of the Dragon, which a
    table without the Dragon never answers."""
    cells = cells_by_pos(state)
    thief = thief_pos(state) if state.rules_revision >= 8 else None
    out = []
    for p, c in sorted(cells.items()):
        if p in (ENTRANCE, thief) or p in chosen or c.crystal or pieces_at(state, p):
            continue
        if tribes_at(state, p):
            continue
        if state.collapse and len(groups(set(cells) - {*chosen, p})) > 1:
            continue
        out.append(p)
    return out


def cave_in(state: VastState, chosen: tuple[Pos, ...] = ()) -> list[Event]:
    """Cave-In (docs/vast/facts.md §3; Vast rulebook §La Caverna, Gli altri giocatori, §Esempio #1): up to X
    tiles (X the Eye's Population), chosen one at a time (decision ``cave-in:left:x,y;...``, or ``done``;
    default the first tile that is not a revealed Crystal tile, else ``done``), then they collapse as Wrath's:
    a Crystal tile counts for the Cave, before the Collapse the others go back under the stack, and a map
    split is made whole by the Goblins sliding the groups (``slide``). Raises ``vast.secret.not-now`` with no
    Eye Goblin or no tile."""
    x = tribe(state, "eye").population
    played: list[Event] = [] if chosen else [ev.SecretPlayed(card="cave-in")]
    spots = cave_in_spots(state, chosen)
    if not chosen and (x < 1 or not spots):
        raise refuse(
            "secret.not-now", "La Caverna, Gli altri giocatori", "Cave-In needs Eye Goblins and a tile"
        )
    if len(chosen) >= x or not spots:
        return [ev.CaveInStruck(tiles=chosen)]
    options = (*(pos_key(p) for p in spots), "done")
    cells = cells_by_pos(state)
    plain = [p for p in spots if not (cells[p].lit and is_crystal(cells[p].tile))]
    default = pos_key(plain[0]) if plain else "done"
    name = f"cave-in:{x - len(chosen)}:{';'.join(pos_key(p) for p in chosen)}"
    return [*played, DecisionRequested(decision=name, options=options, piece="goblins", default=default)]


def cave_in_chosen(state: VastState, where: str, option: str) -> list[Event]:
    """The answer to a ``cave-in`` decision: another tile, or ``done``."""
    _, _, listed = where.partition(":")
    chosen = tuple(parse_pos(p) for p in listed.split(";") if p)
    if option == "done":
        return [ev.CaveInStruck(tiles=chosen)]
    return cave_in(state, (*chosen, parse_pos(option)))


def plain_strength(state: VastState, t: Tribe) -> int:
    """A Tribe's Strength with no Monster nor Secret counted (Hiding Spots): Population, the Fangs' disc,
    Malaise."""
    gob = the_goblins(state)
    value = t.population + (1 if t.name == "fangs" else 0)
    return max(0, value - (1 if gob.rage == 0 else 0))


def hiding_spots(state: VastState, command: cmd.PlaySecret) -> list[Event]:
    """Hiding Spots (docs/vast/facts.md §3 Secrets cards): a hidden Tribe (``tribe``) stronger than the
    Knight, Monsters and other Secrets not counted, attacks her when she is on or next to a revealed Ambush
    tile. Raises ``vast.secret.tribe`` without a hidden Tribe with Goblins, ``vast.secret.not-now``
    otherwise."""
    if command.tribe is None:
        raise refuse("secret.tribe", "4. Pesca le Carte Segreti", "name the hidden Tribe that attacks")
    t = tribe(state, command.tribe)
    if on_map(t) or t.population < 1:
        raise refuse("secret.tribe", "4. Pesca le Carte Segreti", "a hidden Tribe with Goblins attacks")
    k = knight_pos(state)
    if k is None or state.knight is None:
        raise refuse("secret.not-now", "4. Pesca le Carte Segreti", "the Knight is not in play")
    near = [k, *(step(k, s) for s in SIDES)]
    cells = cells_by_pos(state)
    if not any(p in cells and cells[p].lit and tile_data(cells[p].tile).kind == "ambush" for p in near):
        raise refuse("secret.not-now", "4. Pesca le Carte Segreti", "she is not on or next to an Ambush tile")
    if plain_strength(state, t) <= knight_strength_off_turn(state):
        raise refuse("goblins.too-weak", "Attaccare", "the Tribe must be stronger than the Knight")
    return [ev.SecretPlayed(card="hiding-spots", tribe=t.name), *attack_knight(state, t, plain=True)]


def poisoned(state: VastState, t: Tribe) -> list[Event]:
    """Poison (docs/vast/facts.md §3 Secrets cards): played this turn, the Tribe attacking the Knight leaves 1
    of her Hero cubes on the Entrance, 2 when its Strength beat hers by 2 or more; a placed cube she no longer
    has comes back off its track."""
    k = state.knight
    if k is None or not the_goblins(state).poison_played:
        return []
    n = 2 if tribe_strength(state, t) - knight_strength_off_turn(state) >= 2 else 1
    return [ev.KnightPoisoned(cubes=n), *returned_cubes(replace(k, poisoned=k.poisoned + n))]


# --- Monsters of rules revision 3: Gnome, Underworm (in ``paths``), Wisp (docs/vast/facts.md §3 Monster
# cards) -------


def wisp_reach(state: VastState) -> list[Pos]:
    """Where the Wisp may move the Knight: up to 3 spaces, never through a wall, over Lit tiles (as the Giant
    Bats carry her, Vast rulebook §Esempio #3; docs/vast/rulings.md)."""
    k = knight_pos(state)
    return [] if k is None else bats_reach(state, k, True)


def wisp(state: VastState, command: cmd.WispMove) -> list[Event]:
    """docs/vast/facts.md §3 Wisp: in the activation phase, before its Tribe's action (so before it
    activates), once a turn, the Wisp moves the Knight up to 3 spaces; her Shield's cube stops it. Raises
    ``vast.goblins.wisp``."""
    gob = the_goblins(state)
    if gob.phase != "activate":
        raise refuse("goblins.wisp", "5. Attiva le Tribù", "the Wisp acts in the activation phase")
    t = tribe(state, command.tribe)
    if "wisp" not in t.monsters or not on_map(t) or t.activated:
        raise refuse("goblins.wisp", "5. Attiva le Tribù", "a revealed Tribe with the Wisp, before it acts")
    if gob.wisp_used:
        raise refuse("goblins.wisp", "5. Attiva le Tribù", "the Wisp moves the Knight once a turn")
    k = state.knight
    if k is None or cubes_on(k, "shield"):
        raise refuse("goblins.wisp", "Equipaggiamento", "no Knight to move, or her Shield stops it")
    if (command.x, command.y) not in wisp_reach(state):
        raise refuse("goblins.wisp", "Esempio #3", "up to 3 spaces, over Lit tiles, never through a wall")
    return [ev.KnightMoved(x=command.x, y=command.y, forced=True), ev.WispUsed(tribe=t.name)]


def knight_attacks(state: VastState, pos: Pos) -> list[Event]:
    """Vast rulebook §Interagire con i Goblin: the Knight attacks every revealed Tribe on the tile she
    entered; each scatters and Rage rises by 1 each."""
    found = tribes_at(state, pos)
    if not found:
        return []
    events: list[Event] = [ev.KnightAttackedTribes(tribes=tuple(t.name for t in found))]
    for t in found:
        events += [scatter(state, t), rage(1, "attacked")]
    return events


def candidates(state: VastState, known: Reach | None = None) -> Iterable[cmd.VastCommand]:
    """Every Goblins command worth trying now; ``known``: the paths of ``state``'s Tribes searched so far
    (``known_paths``), filled here."""
    gob = state.goblins
    if gob is None or gob.phase != "activate":
        return [cmd.VastEndTurn(role="goblins")] if gob is not None else []
    out: list[cmd.VastCommand] = []
    for t in gob.tribes:
        if t.activated or t.population < 1:
            continue
        if not on_map(t) and not t.lurking:
            out += [
                cmd.ActivateTribe(tribe=t.name, action="reveal", x=x, y=y)
                for x, y in reveal_spots(state, t)[:12]
            ]
            continue
        if t.lurking:
            here = where(t)
            out.append(cmd.ActivateTribe(tribe=t.name, action="hide"))
            out += [
                cmd.ActivateTribe(tribe=t.name, action="none", x=p[0], y=p[1])
                for p in (step(here, s) for s in SIDES)
            ]
            continue
        for (x, y), _cost in sorted(known_paths(state, t, known).items()):
            for action in ("none", "attack", "plunder", "hide", "special"):
                out.append(cmd.ActivateTribe(tribe=t.name, action=action, x=x, y=y))
            for s in SIDES:
                ex, ey = step((x, y), s)
                out.append(cmd.ActivateTribe(tribe=t.name, action="explore", x=x, y=y, ex=ex, ey=ey))
    if "flare:goblins" in state.variants:
        out += [cmd.TribeFlare(tribe=t.name) for t in gob.tribes if on_map(t) and t.name not in gob.flared]
    for t in gob.tribes:
        if "wisp" in t.monsters and on_map(t) and not t.activated and not gob.wisp_used:
            out += [cmd.WispMove(tribe=t.name, x=x, y=y) for x, y in wisp_reach(state)]
    for card in gob.hand:
        if card in ("fire-bomber", "blind-fury", "hiding-spots"):
            out += [cmd.PlaySecret(card=card, tribe=name) for name in TRIBES]
        else:
            out.append(cmd.PlaySecret(card=card))
    out.append(cmd.VastEndTurn(role="goblins"))
    return out


def check_end(state: VastState) -> None:
    """Vast rulebook §I Goblin, Riepilogo del Turno: the turn ends after the activation phase (the War deck is
    shuffled whole again: it is always drawn from in full). Raises ``vast.goblins.not-activating``."""
    gob = state.goblins
    if gob is None or gob.phase != "activate":
        raise refuse(
            "goblins.not-activating", "Riepilogo del Turno", "the turn ends after the activation phase"
        )
