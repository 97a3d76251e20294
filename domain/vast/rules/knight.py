"""The Knight's turn (Vast rulebook §Il Cavaliere): Hero cubes, movement and Encounters, Crystals, Treasure,
Sidequests, the Bomb, Flare (docs/vast/facts.md §7 Variant cards) and the end of her turn."""

from __future__ import annotations

from dicelog.domain.core.events import DrawRequested, Event
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.cave import side_towards, step
from dicelog.domain.vast.content import cards as card_data
from dicelog.domain.vast.evolve import fold
from dicelog.domain.vast.rules import tribes
from dicelog.domain.vast.rules.common import (
    CUBE_TREASURES,
    STAT_SLOTS,
    Then,
    cell_at,
    cubes_on,
    dragon_armor,
    free_cubes,
    geometry,
    grit_change,
    movement,
    owned_cubes,
    perception,
    refuse,
    strength,
)
from dicelog.domain.vast.rules.encounters import event_token_met
from dicelog.domain.vast.rules.pieces import encounter, flame_wall, strike
from dicelog.domain.vast.rules.tiles import event_tokens, flare_roll, reveal
from dicelog.domain.vast.state import KnightRole, VastState


def _knight(state: VastState) -> KnightRole:
    if state.knight is None:
        raise refuse("no-knight", "Il Cavaliere", "the Knight is not in play")
    return state.knight


def place_cube(state: VastState, command: cmd.PlaceHeroCube, then: Then) -> list[Event]:
    """Vast rulebook §Cubetti Eroe; §Equipaggiamento; §Tesori. A cube on a Treasure card uses it: the card
    turns face up (docs/vast/rulings.md); the Potion Kit leaves the game with its cube and heals 2."""
    k = _knight(state)
    target = command.target
    if free_cubes(k) < 1:
        raise refuse("cube.none-left", "Cubetti Eroe", "every Hero cube of the Knight is placed")
    if target == "bow":
        if "goblins" not in state.roles:
            raise refuse("cube.no-use", "Equipaggiamento", "the Bow shoots Goblin Tribes: none are in play")
        if cubes_on(k, "bow"):
            raise refuse("cube.target-full", "Cubetti Eroe", "the Bow takes one cube a turn")
        return [ev.HeroCubePlaced(target=target)]
    if target in STAT_SLOTS:
        if cubes_on(k, target) >= STAT_SLOTS[target]:
            raise refuse("cube.target-full", "Cubetti Eroe", f"{target} has no free space")
        return [ev.HeroCubePlaced(target=target)]
    if target not in (*k.treasures, *k.face_up):
        raise refuse(
            "cube.unknown-target",
            "Cubetti Eroe",
            "place a cube on a stat, an equipment or a Treasure of hers",
        )
    bow_useless = target == "enchanted-bow" and "dragon" not in state.roles and "thief" not in state.roles
    if target not in CUBE_TREASURES or bow_useless:
        raise refuse(
            "cube.no-use", "Tesori", f"{card_data()[target].name} does nothing in this game with a cube"
        )
    if cubes_on(k, target):
        raise refuse("cube.target-full", "Cubetti Eroe", "a Treasure card takes one cube a turn")
    if target == "potion-kit":
        if owned_cubes(k) <= 2:
            raise refuse(
                "cube.last-two", "Consigli Rapidi", "the Knight never discards her last 2 Hero cubes"
            )
        # The cube that activates it is discarded with the card (Vast rulebook §Tesori): it never stays
        # placed.
        return [ev.TreasureUsed(card=target, heal=2), ev.HeroCubeDiscarded()]
    # Turned face up first: the cube then sits on a public card.
    used: list[Event] = [ev.TreasureUsed(card=target)] if target in k.treasures else []
    return [*used, ev.HeroCubePlaced(target=target)]


def move(state: VastState, command: cmd.MoveKnight, then: Then) -> list[Event]:
    """Vast rulebook §2. Muovi e Agisci: one orthogonal tile, with an Encounter and Movement left; through a
    wall with an unused Ancient Map cube (§Equipaggiamento; 2 cubes a wall with the Golem on her board,
    docs/vast/facts.md §3 Monster cards). A Dark tile forces an Encounter and is revealed (§Rivelare e
    risolvere le tessere Buie); from an open side, an open side of it must face where she came from."""
    k = _knight(state)
    here, there = (k.x, k.y), (command.x, command.y)
    side = side_towards(here, there)
    if side is None:
        raise refuse("move.not-adjacent", "2. Muovi e Agisci", "move one tile, horizontally or vertically")
    target = cell_at(state, there)
    if target is None:
        raise refuse("move.no-tile", "2. Muovi e Agisci", "there is no tile there")
    if k.encounters >= perception(k):
        raise refuse(
            "move.no-encounter-left", "2. Muovi e Agisci", "she may move only with an Encounter left"
        )
    if k.moves >= movement(k):
        raise refuse("move.no-movement-left", "2. Muovi e Agisci", "her Movement is spent")
    through = geometry(state).wall_between(here, side)
    # docs/vast/facts.md §3 Monster cards, the Golem's Ambush text
    cost = 2 if "golem" in state.infestation_aside else 1
    if through and cubes_on(k, "map") < (k.walls_crossed + 1) * cost:
        raise refuse(
            "move.wall",
            "Equipaggiamento",
            "a wall: crossing it takes an unused Ancient Map cube"
            + (" (2 with the Golem on her board: docs/vast/facts.md §3 Monster cards)" if cost == 2 else ""),
        )
    met = tribes.tribes_at(state, there)
    if met and not tribes.can_enter(state, there):
        raise refuse(
            "move.tribe-too-strong", "Interagire con i Goblin", "she enters a Tribe's tile only stronger"
        )
    d = state.dragon
    surfaced_dragon = d is not None and d.surfaced and (d.x, d.y) == there
    if surfaced_dragon and d is not None and strength(k, True) < dragon_armor(state):
        raise refuse(
            "move.dragon-too-strong",
            "Incontrare il Drago",
            "she enters the surfaced Dragon's tile only with Strength equal to its Armor or more",
        )

    events: list[Event] = [ev.KnightMoved(x=there[0], y=there[1], through_wall=through)]
    events += flame_wall(fold(state, events), "knight", there)
    if surfaced_dragon:
        events.append(ev.EncounterBegun(x=there[0], y=there[1], attack=True))
        events += strike(fold(state, events), strength(k, True), bomb=False, piece="knight")
        return then(state, events)
    token = target.lit and target.event_token and event_tokens(state)
    if target.lit and not met and not token:
        return then(state, events)
    events.append(ev.EncounterBegun(x=there[0], y=there[1], attack=bool(met)))
    if target.lit:
        if token:  # Vast rulebook §Rivelare e risolvere le tessere Buie, Evento: resolved as an Event tile
            events += event_token_met(fold(state, events), there)
        return then(state, events)
    came_from = None if through else here
    events += reveal(fold(state, events), there, came_from, "knight", "full")
    return then(state, events)


def smash(state: VastState, command: cmd.SmashCrystal, then: Then) -> list[Event]:
    """Vast rulebook §Cristalli: Strength 3 or more smashes the Crystal on her tile, +2 Grit."""
    k = _knight(state)
    cell = cell_at(state, (k.x, k.y))
    if cell is None or not cell.crystal:
        raise refuse("crystal.none-here", "Cristalli", "there is no Crystal on her tile")
    if strength(k, True) < 3:
        raise refuse("crystal.too-weak", "Cristalli", "smashing a Crystal takes Strength 3 or more")
    events = encounter(state, k, 1, "smashing a Crystal")
    events.append(ev.CrystalSmashed(x=k.x, y=k.y))
    events += grit_change(fold(state, events), 2, "crystal")
    return then(state, events)


def collect(state: VastState, command: cmd.CollectTreasure, then: Then) -> list[Event]:
    """Vast rulebook §Tesori e Gemme: every Treasure token and Dragon Gem of her tile, each resolved in turn
    (a Gem: the Dragon die, a center hit -2 Grit, else +5; §Gemme e altri giocatori)."""
    k = _knight(state)
    cell = cell_at(state, (k.x, k.y))
    if cell is None or (cell.treasure < 1 and not cell.gems):
        raise refuse("treasure.none-here", "Tesori e Gemme", "there is no Treasure token or Gem on her tile")
    events = encounter(state, k, 2, "collecting Treasure")
    events.append(ev.TreasureTokenTaken(x=k.x, y=k.y, count=cell.treasure, gems=cell.gems))
    return then(state, events)


def sidequest_done(state: VastState, knight: KnightRole, card: str) -> bool:
    """Whether Sidequest ``card`` is fulfilled (docs/vast/facts.md §2 Sidequests, their versions without
    Goblins and Dragon in the Knight vs Cave setup; docs/vast/rulings.md)."""
    if "goblins" in state.roles and card in ("daring", "stalwart", "fearless", "eagle-eyed"):
        return f"feat:{card}" in knight.feats  # docs/vast/facts.md §2: their versions against the Goblins
    if "dragon" in state.roles and card in ("daring", "cunning", "eagle-eyed"):
        return (
            f"feat:{card}" in knight.feats
        )  # docs/vast/facts.md §2: hit the Dragon; try to pick up a Dragon Gem; a Bow shot that hurts
    if "thief" in state.roles and card in ("daring", "eagle-eyed"):
        # docs/vast/facts.md §2: attack and kill the Thief; an Enchanted Bow shot that kills him (Knight vs
        # Thief keeps both cards, §7)
        return f"feat:{card}" in knight.feats
    match card:
        case "adventurous":
            return len(knight.encounter_spaces) >= 3
        case "bedecked":
            return len(knight.face_up) >= 2
        case "cunning":
            return knight.tokens_taken >= 2
        case "fearless":
            return knight.unhurt_ambushes >= 1
        case "intrepid":
            return state.revealed >= 10
        case "persistent":
            return state.smashed_total >= 3
        case "stalwart":
            return knight.ambushes >= 2
        case "swift":
            return len(knight.spaces) >= 7
    return False


def complete_sidequest(state: VastState, command: cmd.CompleteSidequest, then: Then) -> list[Event]:
    """Vast rulebook §Missioni Secondarie: reveal a fulfilled Sidequest, gain its Grit, draw a new one if any
    are left: the deck's top card when a sandbox laid its order (``VastState.sidequest_top``, a draw with that
    one card to give), else one of the deck's cards, uniformly."""
    k = _knight(state)
    if command.card not in k.sidequests:
        raise refuse("sidequest.not-in-hand", "Missioni Secondarie", "that Sidequest is not in her hand")
    if not sidequest_done(state, k, command.card):
        raise refuse("sidequest.not-fulfilled", "Missioni Secondarie", "its requirement is not met")
    events: list[Event] = [ev.SidequestCompleted(card=command.card)]
    events += grit_change(fold(state, events), card_data()[command.card].grit, "sidequest")
    after = fold(state, events)
    if after.sidequest_deck:
        cards = after.sidequest_top[:1] or after.sidequest_deck
        events.append(
            DrawRequested(reason="sidequest", deck="sidequests", cards=cards, count=1, piece="knight")
        )
        return events
    return then(state, events)


def use_bomb(state: VastState, command: cmd.UseBomb, then: Then) -> list[Event]:
    """Vast rulebook §Equipaggiamento, Bomba: with the Bomb's cube, a Bomb token on a wall of her tile removes
    it."""
    k = _knight(state)
    if not cubes_on(k, "bomb") or k.bomb_used:
        raise refuse("bomb.no-cube", "Equipaggiamento", "the Bomb needs its Hero cube this turn")
    if k.bombs < 1:
        raise refuse("bomb.no-token", "Equipaggiamento", "no Bomb token is left")
    here = (k.x, k.y)
    g = geometry(state)
    if not g.wall_between(here, command.side) or step(here, command.side) not in g.cells:
        raise refuse("bomb.no-wall", "Equipaggiamento", "there is no wall between two tiles on that side")
    return then(state, [ev.BombPlaced(x=k.x, y=k.y, side=command.side)])


def use_bow(state: VastState, command: cmd.UseBow, then: Then) -> list[Event]:
    """Vast rulebook §Equipaggiamento, Arco: with its cube, a revealed Tribe at any range loses Strength - 1
    discs and does not scatter (at 0 it does: §Disperdere la Tribù); Rage +1 (§Furia e Malessere)."""
    k = _knight(state)
    if not cubes_on(k, "bow") or k.bow_used:
        raise refuse("bow.no-cube", "Equipaggiamento", "the Bow needs its Hero cube this turn")
    t = tribes.tribe(state, command.tribe)
    if not tribes.on_map(t):
        raise refuse("bow.not-visible", "Equipaggiamento", "the Bow hits a Tribe on the map")
    loss = min(t.population, max(0, strength(k, True) - 1))
    events: list[Event] = [ev.BowShot(tribe=t.name, loss=loss), tribes.rage(1, "attacked")]
    if t.population - loss <= 0:
        events.append(tribes.scatter(fold(state, events), tribes.tribe(fold(state, events), t.name)))
    return then(state, events)


def use_flare(state: VastState, command: cmd.UseFlare, then: Then) -> list[Event]:
    """Flare (docs/vast/facts.md §7 Variant cards): once per turn, on any tile of the map, no Encounter; only
    in a setup that gives her the card (``flare:knight``: from rules revision 4, earlier games keep playing as
    they were)."""
    k = _knight(state)
    if state.rules_revision >= 4 and "flare:knight" not in state.variants:
        raise refuse(
            "flare.not-in-play", "Consigli Rapidi - Varianti", "the Knight holds no Flare in this setup"
        )
    if k.flare_used:
        raise refuse("flare.used", "Consigli Rapidi - Varianti", "Flare is used once per turn")
    if cell_at(state, (command.x, command.y)) is None:
        raise refuse("flare.no-tile", "Consigli Rapidi - Varianti", "choose a tile of the map")
    return [ev.FlareUsed(x=command.x, y=command.y), flare_roll((command.x, command.y))]


def check_end(state: VastState) -> None:
    """Vast rulebook §Riepilogo del Turno: she may end her turn at any time."""


def candidates(state: VastState) -> list[cmd.VastCommand]:
    """Every Knight command worth trying now (``legal_commands`` keeps those ``decide`` accepts)."""
    k = state.knight
    if k is None:
        return []
    here = (k.x, k.y)
    out: list[cmd.VastCommand] = []
    for target in (*STAT_SLOTS, *k.treasures, *k.face_up):
        out.append(cmd.PlaceHeroCube(target=target))
    for s in ("N", "E", "S", "W"):
        x, y = step(here, s)
        out.append(cmd.MoveKnight(x=x, y=y))
        out.append(cmd.UseBomb(side=s))
    if state.goblins is not None:
        out.append(cmd.PlaceHeroCube(target="bow"))
        out.extend(cmd.UseBow(tribe=t.name) for t in state.goblins.tribes if tribes.on_map(t))
    out.append(cmd.SmashCrystal())
    out.append(cmd.CollectTreasure())
    if state.dragon is not None:
        out += [cmd.AttackDragon(), cmd.AttackDragon(bomb=True), cmd.AttackDragon(with_javelin=True)]
        out.append(cmd.ShootDragon())
    out.extend(cmd.CompleteSidequest(card=c) for c in k.sidequests)
    if state.thief is not None:
        out += [cmd.AttackThief(), cmd.ShootThief()]
    if not k.flare_used:
        out.extend(cmd.UseFlare(x=c.x, y=c.y) for c in state.cells if not c.lit)
    out.append(cmd.VastEndTurn(role="knight"))
    return out
