"""Vast rules revision 6: the rules a referee's reading of the Vast rulebook found played wrong, each test
quoting its line. Games created before revision 6 keep the older behaviour (README, Vast rules revisions), so
each test also plays the same table at revision 5. Dice and cards are explicit."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from dicelog.domain.core.errors import RuleBroken
from dicelog.domain.core.events import DecisionRequested, GameCreated, Seat
from dicelog.domain.vast import commands as cmd
from dicelog.domain.vast import events as ev
from dicelog.domain.vast.read_models import describe
from dicelog.domain.vast.rules import goblins as rules
from dicelog.domain.vast.rules.common import cell_at, dragon_armor, removable, safe_steps
from dicelog.domain.vast.rules.flow import event_offer
from dicelog.domain.vast.rules.tiles import bats_reach
from dicelog.domain.vast.ruleset import RULESET
from dicelog.domain.vast.state import CaveRole, DragonRole, GoblinsRole, KnightRole, ThiefRole
from tests.rulesets.vast.support import Play, dark, goblin_table, lit, refused, table, tribes
from tests.rulesets.vast.test_dragon import HAND, OPEN, dragon_table, sloth
from tests.rulesets.vast.test_no_cave_player import no_cave
from tests.rulesets.vast.thief_support import thief, thief_table


def rev(state, revision: int = 6):
    """``state`` played at rules ``revision``; from 6 with a Cave, its Event deck's top three up already (as a
    game's start brings them up, Vast rulebook §La Caverna, Eventi)."""
    top = state.event_deck[:3] if revision >= 6 and state.cave is not None and not state.event_top else ()
    return replace(state, rules_revision=revision, event_top=top or state.event_top)


# --- Il Drago -----------------------------------------------------------------------------------


def test_each_attack_on_the_surfaced_dragon_costs_its_own_encounter__rulebook_attaccare_il_drago():
    """Vast rulebook, Il Drago, Attaccare il Drago: «puoi attaccarlo più volte nel turno, senza muoverti e
    spendendo 1 Incontro per ogni attacco»."""
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True, health=5)  # Armor 1
    knight = KnightRole(
        x=1, y=0, placed={"strength": 1}, encounters=0
    )  # Strength 2, Perception 1: 1 Encounter
    state = dragon_table(lit(1, 0, OPEN), turn="knight", knight=knight, dragon=d)
    p = Play(rev(state))
    p.do(cmd.AttackDragon())
    assert len(p.of(ev.EncounterBegun)) == 1 and p.state.dragon.health == 4
    assert refused(p.state, cmd.AttackDragon()) == "vast.no-encounter-left"
    two = Play(rev(replace(state, knight=replace(knight, placed={"strength": 1, "perception": 1}))))
    two.do(cmd.AttackDragon())
    two.do(cmd.AttackDragon())
    assert len(two.of(ev.EncounterBegun)) == 2 and two.state.dragon.health == 3
    old = Play(
        replace(state, rules_revision=5)
    )  # revision 5: the second attack shared the first one's Encounter
    old.do(cmd.AttackDragon())
    old.do(cmd.AttackDragon())
    assert len(old.of(ev.EncounterBegun)) == 1 and old.state.dragon.health == 3


def test_entering_the_surfaced_dragon_spends_the_encounter_of_that_attack__rulebook_incontrare_il_drago():
    """Vast rulebook, Il Drago, Incontrare il Drago: «sei obbligato ad attaccarlo spendendo un Incontro»; the
    next attack spends another."""
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True, health=5)
    knight = KnightRole(x=0, y=0, placed={"strength": 1})  # Perception 1
    p = Play(rev(dragon_table(lit(1, 0, OPEN), turn="knight", knight=knight, dragon=d)))
    p.do(cmd.MoveKnight(x=1, y=0))
    assert p.of(ev.EncounterBegun)[0].attack and p.state.dragon.health == 4
    assert refused(p.state, cmd.AttackDragon()) == "vast.no-encounter-left"


# --- Forced moves: the Shield, the Dragon's space ---------------------------------------------------


def test_the_shield_stops_claws_push_and_slap__rulebook_equipaggiamento_scudo():
    """Vast rulebook, Equipaggiamento, Scudo: «Ti consente di ignorare gli effetti causati dagli altri
    giocatori che ti obbligherebbero a spostarti»."""
    cells = [lit(x, 0, OPEN) for x in range(1, 5)]
    shield = KnightRole(x=2, y=0, placed={"shield": 1})
    state = dragon_table(*cells, knight=shield)  # the Dragon on (1, 0), its turn
    assert (
        refused(rev(state), cmd.UsePower(power="slap", x=4, y=0, pay=("wing-1", "wing-2")))
        == "vast.dragon.shield"
    )
    old = Play(rev(state, 5))
    old.do(cmd.UsePower(power="slap", x=4, y=0, pay=("wing-1", "wing-2")))
    assert (old.state.knight.x, old.state.knight.y) == (4, 0)
    p = Play(rev(state))
    p.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    p.roll(2)  # diamond: (2, 0) is hit
    assert not p.of(DecisionRequested) and (p.state.knight.x, p.state.knight.y) == (2, 0)
    old = Play(rev(state, 5))
    old.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    old.roll(2)
    assert old.pending.decision == "claw-push"


def test_forced_moves_never_put_the_knight_on_the_dragons_space__rulebook_esempio_3_movimento_forzato():
    """Vast rulebook, Esempio #3, Movimento forzato: «Bordo rosso: non può essere spinta sullo spazio del
    Drago o attraverso i muri.» Giant Bats, Slap and the Wisp share one reach; Claw's push too."""
    cells = [lit(x, 0, OPEN) for x in range(1, 5)]
    state = dragon_table(*cells, knight=KnightRole(x=2, y=0), dragon=DragonRole(x=3, y=0, hand=HAND))
    assert (
        refused(rev(state), cmd.UsePower(power="slap", x=3, y=0, pay=("wing-1", "wing-2")))
        == "vast.dragon.target"
    )
    assert (3, 0) not in bats_reach(rev(state), (2, 0), knight=True)
    assert (3, 0) in bats_reach(rev(state, 5), (2, 0), knight=True)
    assert (3, 0) in bats_reach(rev(state), (2, 0), knight=False)  # a Treasure token may land there
    bats = replace(rev(state), turn="cave", cave=replace(state.cave, omens=("bat-1",)))
    assert refused(bats, cmd.GiantBats(pay=("bat-1",), target="knight", x=3, y=0)) == "vast.omen.bats-reach"
    claw = Play(rev(dragon_table(*cells, knight=KnightRole(x=2, y=0))))  # the Dragon on (1, 0)
    claw.do(cmd.UsePower(power="claw", pay=("claw-1",)))
    claw.roll(2)
    assert claw.pending.decision == "claw-push" and "1,0" not in claw.pending.options


# --- Pieces on tiles: Reveal, Place Treasure, Past Plunder -------------------------------------------


def test_a_tribe_reveals_only_onto_a_dark_tile_with_no_other_players_piece__rulebook_i_goblin_rivelare():
    """Vast rulebook, I Goblin, Rivelare: «sposta la sua pedina dalla tua plancia giocatore ad una tessera
    Buia che mostri il simbolo di quella Tribù e non contenga pedine di altri giocatori»."""
    gob = GoblinsRole(phase="activate", tribes=tribes(eye={"population": 2}))
    cells = (dark(1, 0, "event-10", symbol="eye"), dark(2, 0, "event-11", symbol="eye"))
    state = dragon_table(*cells, turn="goblins", gob=gob, dragon=DragonRole(x=1, y=0, hand=HAND))
    reveal = cmd.ActivateTribe(tribe="eye", action="reveal", x=1, y=0)
    assert refused(rev(state), reveal) == "vast.goblins.reveal"
    Play(rev(state, 5)).do(reveal)  # revision 5 let it come out on the Dragon's tile
    p = Play(rev(state))
    p.do(cmd.ActivateTribe(tribe="eye", action="reveal", x=2, y=0))
    assert rules.on_map(p.state.goblins.tribes[2])
    thief = rev(replace(state, dragon=DragonRole(x=5, y=5, hand=HAND), thief=ThiefRole(x=1, y=0)))
    assert (1, 0) not in rules.reveal_spots(thief, thief.goblins.tribes[2])


def test_place_treasure_and_past_plunder_skip_a_tribes_tile__rulebook_la_caverna_piazza_un_tesoro():
    """Vast rulebook, La Caverna, 3. Piazza un Tesoro: «Colloca un segnalino Tesoro su una tessera Buia che
    non contenga la pedina di un giocatore o un altro segnalino Tesoro» (a Tribe is the Goblins' piece)."""
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 2, "x": 1, "y": 0}))
    state = goblin_table(dark(1, 0, "event-10"), dark(2, 0, "event-11"), gob=gob, turn="cave")
    state = replace(state, cave=replace(state.cave, omens=("boulder-1",)))
    assert refused(rev(state), cmd.PlaceTreasure(x=1, y=0)) == "vast.treasure.bad-tile"
    assert refused(rev(state), cmd.PastPlunder(pay=("boulder-1",), x=1, y=0)) == "vast.treasure.bad-tile"
    Play(rev(state, 5)).do(cmd.PlaceTreasure(x=1, y=0))
    p = Play(rev(state))
    p.do(cmd.PlaceTreasure(x=2, y=0))
    assert cell_at(p.state, (2, 0)).treasure == 1


def test_a_tribe_passes_the_surfaced_dragons_tile_only_if_it_could_enter_it__rulebook_i_goblin_attaccare():
    """Vast rulebook, I Goblin, Attaccare: «Per entrare in una tessera occupata dal Cavaliere o dal Drago, la
    Tribù deve avere Forza maggiore della Forza del Cavaliere o della Corazza del Drago»: passing through the
    Dragon's tile enters it."""
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, surfaced=True, sloth=sloth(greed=0, hunger=0))  # Armor 3
    weak = GoblinsRole(phase="activate", rage=2, tribes=tribes(bones={"population": 3, "x": 0, "y": 0}))
    cells = (lit(1, 0, OPEN), lit(2, 0, OPEN))  # one way east: through the Dragon's tile
    state = dragon_table(
        *cells, sealed=False, turn="goblins", gob=weak, dragon=d, knight=KnightRole(x=0, y=1)
    )
    state = replace(state, cells=(*state.cells, lit(0, 1, OPEN)))
    bones = state.goblins.tribes[1]
    assert rules.tribe_strength(state, bones) == 3 == dragon_armor(state)
    assert (2, 0) not in rules.paths(rev(state), bones)
    on = cmd.ActivateTribe(tribe="bones", action="none", x=2, y=0)
    assert refused(rev(state), on) == "vast.goblins.unreachable"
    Play(rev(state, 5)).do(on)  # revision 5 let it walk through
    strong = replace(state, goblins=replace(weak, tribes=tribes(bones={"population": 4, "x": 0, "y": 0})))
    Play(rev(strong)).do(on)


def test_surfacing_is_the_dragons_choice__rulebook_risalire_in_superficie():
    """Vast rulebook, Il Drago, Risalire in Superficie: «Una volta risvegliato, puoi risalire in superficie
    dal sottosuolo terminando il tuo turno su una tessera Cristallo»."""
    d = DragonRole(x=1, y=0, hand=HAND, awake=True, moved=True)
    state = dragon_table(lit(1, 0, "crystal-01", crystal=True), dragon=d)
    stay = Play(rev(state))
    stay.do(cmd.VastEndTurn(role="dragon"))
    assert stay.pending.decision == "surface" and stay.pending.piece == "dragon"
    stay.choose("stay")
    assert not stay.of(ev.DragonSurfaced) and not stay.state.dragon.surfaced
    assert stay.pending.reason == "power-hand" and stay.state.cells[1].crystal
    rise = Play(rev(state))
    rise.do(cmd.VastEndTurn(role="dragon"))
    rise.choose("surface")
    assert rise.state.dragon.surfaced and not rise.state.cells[1].crystal
    old = Play(rev(state, 5))  # revision 5: it surfaced at once
    old.do(cmd.VastEndTurn(role="dragon"))
    assert old.state.dragon.surfaced and old.pending.reason == "power-hand"


# --- Missing rules ----------------------------------------------------------------------------------------


def test_killing_the_thief_is_daring_and_the_enchanted_bow_that_kills_him_eagle_eyed__sidequest_cards():
    """The Sidequest cards (docs/vast/facts.md §2 Sidequests): Daring, «attack and kill the Thief»;
    Eagle-Eyed, «her Bow or Enchanted Bow hits another player and does damage»."""
    seeing = KnightRole(x=1, y=0, placed={"perception": 2}, grit=4)
    state = thief_table(
        lit(1, 0, OPEN), lit(2, 0, OPEN), knight=seeing, th=thief(1, 0, stealth=2), turn="knight"
    )
    p = Play(rev(state))
    p.do(cmd.AttackThief())
    assert p.of(ev.ThiefKilled) and "feat:daring" in p.state.knight.feats
    old = Play(rev(state, 5))
    old.do(cmd.AttackThief())
    assert old.of(ev.ThiefKilled) and "feat:daring" not in old.state.knight.feats
    bow = KnightRole(x=-1, y=0, treasures=("enchanted-bow",), placed={"enchanted-bow": 1})
    far = thief_table(lit(1, 0, OPEN), lit(-1, 0, OPEN), knight=bow, th=thief(1, 0, stealth=0), turn="knight")
    shot = Play(rev(far))
    shot.do(cmd.ShootThief())
    assert shot.of(ev.ThiefKilled) and shot.state.knight.feats == ("feat:eagle-eyed",)


def test_deep_and_dark_without_a_cave_player_gives_the_knight_a_treasure_card__event_card_deep_and_dark():
    """The Event card Deep and Dark (docs/vast/facts.md §2 Event cards): «the Cave draws 2 Omens; with no Cave
    player she gains a Treasure card»."""
    base = no_cave(variants=(), knight=KnightRole(grit=5))
    base = replace(base, event_deck=("deep-and-dark-1", "rats-1"), treasure_deck=("javelin", "elven-sword"))
    p = Play(rev(base))
    p._take(event_offer(p.state))
    p.draw("deep-and-dark-1")
    assert p.pending.reason == "treasure-top" and p.pending.piece == "knight"
    p.draw("javelin")
    p.choose("keep")
    assert p.state.knight.treasures == ("javelin",)
    old = Play(rev(base, 5))
    old._take(event_offer(old.state))
    old.draw("deep-and-dark-1")
    assert old.pending is None and old.state.knight.treasures == ()


# --- Il Collasso: every player's piece steps off first ------------------------------------------------


def collapsing(*cells, th=None, gob=None, knight=None):
    roles = ("knight", "goblins", "cave", "thief")
    state = thief_table(*cells, roles=roles, th=th, gob=gob, knight=knight, turn="cave", sealed=False)
    state = replace(state, cave=CaveRole(hand=(), supply=12))
    return replace(state, collapse=True, piles=(0, 0, 0), stack=(), crystals=())


def test_the_thief_and_a_tribe_step_off_a_collapsing_tile_first__rulebook_il_collasso():
    """Vast rulebook, Il Collasso: «Se una tessera contenente la pedina di un giocatore deve essere rimossa,
    quel giocatore può prima muoversi su una tessera adiacente per restare sulla mappa»."""
    gob = GoblinsRole(phase="", tribes=tribes(bones={"population": 2, "x": 2, "y": 0}))
    state = collapsing(lit(1, 0, OPEN), lit(2, 0, OPEN), th=thief(2, 0), gob=gob)
    p = Play(rev(state))
    p.do(cmd.RemoveTile(x=2, y=0))
    assert p.pending.decision == "thief-off:2,0" and p.pending.piece == "thief"
    p.choose("1,0")
    assert p.pending.decision == "tribe-off:2,0" and p.pending.piece == "goblins"
    p.choose("1,0")
    assert p.of(ev.TileRemoved) and cell_at(p.state, (2, 0)) is None
    assert (p.state.thief.x, p.state.thief.y) == (1, 0)
    bones = p.state.goblins.tribes[1]
    assert (bones.x, bones.y, bones.population) == (1, 0, 2)
    old = Play(rev(state, 5))  # revision 5: both fell with the tile
    old.do(cmd.RemoveTile(x=2, y=0))
    assert old.of(ev.TileRemoved) and old.state.thief.x is None and old.state.goblins.tribes[1].x is None


def test_a_tile_whose_piece_can_only_step_into_an_attack_is_skipped__rulebook_il_collasso():
    """Vast rulebook, Il Collasso: «Se non ci sono tessere adiacenti che non causino un attacco, quella
    tessera viene ignorata e devi sceglierne una differente»."""
    gob = GoblinsRole(phase="", tribes=tribes(fangs={"population": 2, "x": 1, "y": 0}))
    cells = (lit(1, 0, OPEN), lit(2, 0, OPEN), lit(0, 1, OPEN))
    state = collapsing(*cells, th=thief(0, 0), gob=gob, knight=KnightRole(x=2, y=0))
    assert (2, 0) not in removable(rev(state))  # her only way off is onto the Fangs: an attack
    assert refused(rev(state), cmd.RemoveTile(x=2, y=0)) == "vast.collapse.not-removable"
    assert (2, 0) in removable(rev(state, 5))
    assert safe_steps(rev(state), (1, 0), "fangs") == [(0, 0)]  # not onto the Knight


# --- Wrath -----------------------------------------------------------------------------------------------


def wrath_table(knight: KnightRole, revision: int = 6):
    """The Dragon underground on (1, 0) in a 5 x 5 block of Lit tiles; the Thief on (2, 0), carrying a
    token."""
    cells = [lit(x, y, OPEN) for x in range(-1, 4) for y in range(-2, 3) if (x, y) != (0, 0)]
    roles = ("knight", "dragon", "cave", "thief")
    state = thief_table(
        *cells, roles=roles, th=thief(2, 0, carried=1), knight=knight, turn="dragon", sealed=False
    )
    p = Play(rev(state, revision))
    p.do(cmd.UsePower(power="wrath", pay=("claw-1", "claw-2", "flame-1", "wing-1")))
    p.roll(3)  # the cross: (1, 0) its own tile, (1, 1), (2, 0), (1, -1); (0, 0) the Entrance never falls
    return p


def test_wrath_collapses_the_dragons_own_tile_and_moves_the_thief__rulebook_poteri_collera():
    """Vast rulebook, Il Drago, Poteri, Collera: «Fai crollare le tessere colpite: tutte le Tribù Goblin si
    disperdono; sposta le pedine degli altri giocatori su uno spazio adiacente»; Il Dado del Drago: «Lo spazio
    centrale sul dado rappresenta la tessera su cui si trova il giocatore che ha lanciato il dado»."""
    p = wrath_table(KnightRole(x=-1, y=-2))
    assert set(p.of(ev.PowerStruck)[0].tiles) == {(1, 0), (1, 1), (2, 0), (1, -1)}
    assert p.pending.decision == "wrath-off:1,0" and p.pending.options == ("0,0",)
    p.choose("0,0")
    assert p.pending.decision == "wrath-thief:2,0" and p.pending.piece == "dragon"
    assert set(p.pending.options) == {"2,1", "3,0", "2,-1"}
    p.choose("3,0")
    p.settle()
    collapsed = {(e.x, e.y) for e in p.of(ev.TileCollapsed)}
    assert collapsed == {(1, 0), (1, 1), (2, 0), (1, -1)}
    assert (p.state.dragon.x, p.state.dragon.y) == (0, 0)
    th = p.state.thief
    assert (th.x, th.y, th.carried) == (3, 0, 1)  # still on the map, with his token
    old = wrath_table(KnightRole(x=-1, y=-2), revision=5)
    old.settle()
    assert (1, 0) not in {(e.x, e.y) for e in old.of(ev.TileCollapsed)}
    assert old.state.thief.x is None and old.state.thief.carried == 0  # he fell with his tile


def test_wrath_leaves_the_shielded_knights_tile__rulebook_equipaggiamento_scudo():
    """Vast rulebook, Equipaggiamento, Scudo: «ignorare gli effetti causati dagli altri giocatori che ti
    obbligherebbero a spostarti»: Wrath cannot move her, so her tile stays."""
    p = wrath_table(KnightRole(x=1, y=1, placed={"shield": 1}))
    assert (1, 1) not in p.of(ev.PowerStruck)[0].tiles
    q = wrath_table(KnightRole(x=1, y=1))
    assert (1, 1) in q.of(ev.PowerStruck)[0].tiles


# --- I Goblin: Secrets at any time of the turn -------------------------------------------------------------


def goblins_turn(revision: int, **gob_fields):
    """The Goblins' turn just started (Rage 2), the Secrets in ``gob_fields`` in hand."""
    from dicelog.domain.vast.rules.flow import advance, start_turn

    state = rev(goblin_table(lit(1, 0, OPEN), gob=GoblinsRole(rage=2, **gob_fields), turn="cave"), revision)
    p = Play(state)
    p._take(start_turn(state, "goblins", 2))
    p._take(advance(p.state))
    return p


def test_secrets_are_played_at_any_time_of_the_goblins_turn__rulebook_i_goblin():
    """Vast rulebook, I Goblin: «Puoi giocare le carte Segreti in qualunque momento durante il tuo turno»: the
    Goblin Ruby played before the War draw already redraws a War card this turn."""
    p = goblins_turn(6, hand=("goblin-ruby", "leader", "poison"))
    assert p.pending.decision == "secrets-window:war" and p.pending.default == "go-on"
    assert p.pending.options == ("go-on", "goblin-ruby", "poison")  # the Leader waits for an overpopulation
    p.choose("goblin-ruby")
    assert p.state.goblins.face_up == ("goblin-ruby",)
    assert p.pending.decision == "secrets-window:war" and p.pending.options == ("go-on", "poison")
    p.choose("go-on")
    p.draw("thirst", "spite")
    assert p.pending.decision == "ruby:war"  # the Ruby redraws this turn
    old = goblins_turn(5, hand=("goblin-ruby", "leader", "poison"))
    assert old.pending.reason == "war"  # revision 5: straight to the War draw, Secrets wait for activation
    old.draw("thirst", "spite")
    assert old.pending.decision == "war-choice"


def test_each_phase_before_the_activation_offers_the_secrets_again__rulebook_i_goblin():
    """Vast rulebook, I Goblin, Riepilogo del Turno: the window opens before each phase's work (War,
    populate, Monsters, Secrets), a played card opens it again; a Secrets card is a command in any phase."""
    p = goblins_turn(6, hand=("poison",))
    phases = []
    for _ in range(40):
        pending = p.pending
        if pending is None:
            break
        if isinstance(pending, DecisionRequested) and pending.decision.startswith("secrets-window:"):
            phases.append(pending.decision.partition(":")[2])
            p.choose("poison" if pending.decision.endswith("secrets") else "go-on")
        elif isinstance(pending, DecisionRequested):
            p.default()
        else:
            p.draw(*pending.cards[: pending.count])
    assert phases[:4] == ["war", "populate", "monsters", "secrets"]
    assert p.state.goblins.poison_played and p.state.goblins.phase == "activate"
    laid = replace(p.state, goblins=replace(p.state.goblins, phase="populate", hand=("poison",)))
    Play(rev(laid)).do(cmd.PlaySecret(card="poison"))
    assert refused(rev(laid, 5), cmd.PlaySecret(card="poison")) == "vast.secret.when"


def test_the_secrets_window_is_the_goblins_secret__rulebook_i_goblin():
    """The window's options are cards of the Goblins' hand: the other seats see them masked."""
    from dicelog.domain.core.visibility import seat_viewer

    p = goblins_turn(6, hand=("poison",))
    seats = tuple(Seat(name=r, controls=(r,)) for r in ("knight", "goblins", "cave"))
    assert "poison" not in str(RULESET.view_event(p.pending, seat_viewer(seats, "knight")))
    assert "poison" in str(RULESET.view_event(p.pending, seat_viewer(seats, "goblins")))
    p.choose("go-on")
    assert describe(p.state, p.of(ev.SecretsWindowClosed)[0]) == "The Goblins play no Secrets card before war"


# --- La Caverna, Eventi: the Event deck's top three -------------------------------------------------------


def test_the_cave_reads_the_top_three_event_cards_and_plays_one_of_them__rulebook_la_caverna_eventi():
    """Vast rulebook, La Caverna, Eventi: «Puoi esaminare le tre carte in cima al mazzo degli Eventi in
    qualunque momento»; «pesca 3 carte Evento, scegli quella da giocare e rimetti le altre al fondo del mazzo
    degli Eventi»: the deck has an order, the 3 drawn for an Event tile are those the Cave read."""
    from dicelog.domain.vast.rules.flow import advance

    state = replace(table(lit(1, 0, OPEN)), rules_revision=6)  # 4 Event cards, none up yet
    p = Play(state)
    p._take(advance(p.state))
    assert p.pending.reason == "event-top" and p.pending.count == 3 and p.pending.piece == "cave"
    p.draw("light", "rats-1", "ambush-1")
    assert p.state.event_top == ("light", "rats-1", "ambush-1") and len(p.state.event_deck) == 4
    p._take(event_offer(p.state))  # an Event tile: no draw, the top three are offered in order
    assert p.pending.decision == "event-choice" and p.pending.options == ("light", "rats-1", "ambush-1")
    p.choose("rats-1")
    assert p.state.event_bottom == ("light", "ambush-1")
    assert p.pending.reason == "event-top" and p.pending.cards == ("vantage-point",)
    p.draw("vantage-point")
    assert p.state.event_top == ("vantage-point",)
    from dicelog.domain.vast.rules.tiles import top_events

    assert top_events(p.state) == ("vantage-point", "light", "ambush-1")  # then the bottom's, in order
    old = Play(replace(state, rules_revision=5))  # revision 5: no order, 3 drawn at random for an Event tile
    assert not advance(old.state)
    assert old._take(event_offer(old.state))[-1].reason == "events"


def test_only_the_cave_sees_the_top_three_event_cards__rulebook_la_caverna_eventi():
    """Vast rulebook, La Caverna, Eventi: the top three are the Cave's to read; the other seats see them
    masked, in the state and in the draw that brings them up."""
    from dicelog.domain.core.events import CardsDrawn
    from dicelog.domain.core.visibility import seat_viewer

    state = replace(rev(table(lit(1, 0, OPEN))), event_top=("light", "rats-1", "ambush-1"))
    seats = (Seat(name="sir", controls=("knight",)), Seat(name="deep", controls=("cave",)))
    knight, cave = seat_viewer(seats, "sir"), seat_viewer(seats, "deep")
    assert RULESET.view_state(state, cave).event_top == ("light", "rats-1", "ambush-1")
    assert set(RULESET.view_state(state, knight).event_top) == {"?"}
    up = CardsDrawn(reason="event-top", deck="events", cards=("light",))
    assert RULESET.view_event(up, knight).cards == ("?",) and RULESET.view_event(up, cave) == up


def test_a_pending_roll_names_its_die__rulebook_il_dado_del_drago_and_il_ladro():
    """Vast has two dice: the Dragon die (Vast rulebook §Il Dado del Drago) and the Thief's Action die (§Il
    Ladro); from rules revision 6 each pending roll says which one to roll."""
    from dicelog.domain.core.events import RollRequested
    from dicelog.domain.vast.ruleset import die_of

    state = table(dark(1, 0, "event-10"), variants=("flare:knight",))
    flare = Play(rev(state)).do(cmd.UseFlare(x=1, y=0))
    assert [e.die for e in flare if isinstance(e, RollRequested)] == ["dragon"]
    old = Play(rev(state, 5)).do(cmd.UseFlare(x=1, y=0))
    assert [e.die for e in old if isinstance(e, RollRequested)] == [None]  # stored games re-derive alike
    assert die_of("thief-action:pickpocket:knight:1") == die_of("evasion:dragon:claw") == "action"
    assert die_of("thief-gem:red") == die_of("ambush") == die_of("power:claw:1,0") == "dragon"


# --- Setup -------------------------------------------------------------------------------------------------


def test_a_game_whose_role_no_seat_controls_is_refused__setup_seat_controls():
    """A Vast game is created only when every role in play has exactly one seat and no seat controls a role
    not in play (docs/vast/index.md): otherwise nobody could ever play it."""
    raw = msgspec.Raw(msgspec.json.encode({"roles": ["knight", "cave"]}))

    def created(*controls: tuple[str, ...], revision: int = 6) -> GameCreated:
        seats = tuple(Seat(name=f"s{i}", controls=c) for i, c in enumerate(controls))
        return GameCreated(ruleset="vast", setup=raw, seats=seats, rules_revision=revision)

    RULESET.check_new_game(created(("knight",), ("cave",)))
    RULESET.check_new_game(created(("knight", "cave")))  # one seat may hold both
    for bad in [(("knight",),), (("knight",), ("cave",), ("cave",)), (("knight",), ("cave", "thief"))]:
        with pytest.raises(RuleBroken) as info:
            RULESET.check_new_game(created(*bad))
        assert info.value.rule == "setup.seat-controls"
        # a game of revision 6 stored before the check (d0b0d80 to 8477aad) still folds, its seats as stored
        assert RULESET.initial_state(created(*bad)).roles == ("knight", "cave")
    RULESET.check_new_game(created(("knight",), revision=5))  # games created before keep their seats


def test_every_goblin_event_against_the_dragon_has_a_log_line__log():
    """Log lines for the Ash Dragon's Tribe attack and the Trap cancelling a Power (they had none)."""
    state = dragon_table(lit(1, 0, OPEN))
    assert (
        describe(state, ev.TribeAttackedDragon(tribe="fangs"))
        == "The Fangs Tribe attacks the Dragon: it loses 1 Health"
    )
    assert (
        describe(state, ev.TrapSprung(power="claw"))
        == "The Goblins spring their Trap: the Dragon's Claw does nothing"
    )


def test_log_lines_read_right_without_a_cave_and_for_a_grit_loss_at_zero__log():
    """Without a Cave player nobody «plays» the Event nor owns the supply; the end of turn names the tiles it
    really removes; a Grit loss at 0 is no gain of 0."""
    state = no_cave(variants=(), knight=KnightRole(grit=0))
    assert describe(state, ev.EventPlayed(card="rats-1")) == "The Event Rats is played on the Knight"
    looted = describe(state, ev.ThiefLooted(source="supply", gem=None, x=0, y=0))
    assert looted == "The Thief takes a Treasure token from the supply"
    ending = describe(state, ev.TurnEnding(role="knight", steps=("remove",) * 4))
    assert ending == "No Cave player: the Knight removes 4 tiles"
    assert describe(state, ev.GritChanged(delta=0, why="rats")) == "The Knight's Grit stays at 0 (Rats)"
    with_cave = dragon_table(lit(1, 0, OPEN))
    assert describe(with_cave, ev.EventPlayed(card="rats-1")).startswith("The Cave plays the Event")


def test_bringing_up_the_event_decks_top_three_plays_no_event__rulebook_la_caverna_eventi():
    """Vast rulebook, La Caverna, Eventi: the Cave may look at the top three Event cards at any time; looking
    plays nothing. The draw that brings them up at a game's start had the Cave play one on the Knight, then
    the next three, until the deck ran out (5 Events before the Knight's first move)."""
    from dicelog.domain.core.ruleset import Begin

    roles = ("knight", "cave")
    setup = msgspec.Raw(msgspec.json.encode({"roles": roles}))
    created = GameCreated(
        ruleset="vast", setup=setup, seats=(Seat(name="t", controls=roles),), rules_revision=6
    )
    p = Play(RULESET.initial_state(created))
    p.do(Begin())
    p.settle()
    assert not p.of(ev.EventPlayed) and len(p.state.event_top) == 3
    assert p.state.turn == "knight" and len(p.state.event_deck) == 15
