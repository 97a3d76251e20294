"""Vast's commands (Vast rulebook; docs/vast/facts.md), tagged ``vast.<Name>`` (stored forever).

Each command names its role in ``ROLE_OF`` (the seat must control that role). Positions are
``x``/``y`` from the Entrance, north and east positive. Secret arguments (the tile the Cave places)
are masked for other seats by ``dicelog.domain.vast.visibility.view_command``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from dicelog.domain.core.commands import Choose, Command, Draw, Roll, Shuffle
from dicelog.domain.core.ruleset import Begin

Coord = Annotated[int, Meta(ge=-60, le=60, description="Tiles from the Entrance (east / north positive).")]
TileId = Annotated[str, Meta(min_length=1, max_length=32)]
CardId = Annotated[str, Meta(min_length=1, max_length=32)]
OmenToken = Annotated[str, Meta(min_length=1, max_length=16)]
Side = Literal["N", "E", "S", "W"]
CubeTarget = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=32,
        description="movement, perception, strength, map, bomb, shield, or a Treasure card id of hers.",
    ),
]


class VastCommand(Command, kw_only=True, tag=lambda name: f"vast.{name}"):
    """Base of Vast's commands."""


# --- the Knight (Vast rulebook §Il Cavaliere) -------------------------------------------------------------


class PlaceHeroCube(VastCommand, kw_only=True):
    """Place a Hero cube (Vast rulebook §Cubetti Eroe): on a stat (the next space, up to 3), on equipment
    (Ancient Map up to 3, Bomb, Shield: once per turn each) or on a Treasure card of hers (using it; it turns
    face up). Refused without an unused cube (``cube.none-left``) or when the target is full
    (``cube.target-full``)."""

    target: CubeTarget


class MoveKnight(VastCommand, kw_only=True):
    """Move one tile, orthogonally (Vast rulebook §2. Muovi e Agisci): only with an Encounter left and
    Movement left; through a wall only with an Ancient Map cube unused. Entering a Dark tile spends an
    Encounter and reveals it (§Rivelare e risolvere le tessere Buie)."""

    x: Coord
    y: Coord


class SmashCrystal(VastCommand, kw_only=True):
    """Smash the Crystal on her tile (Vast rulebook §Cristalli: Strength 3 or more; +2 Grit), in the open
    Encounter or a new one."""


class CollectTreasure(VastCommand, kw_only=True):
    """Collect every Treasure token on her tile, one at a time (Vast rulebook §Tesori e Gemme), in the open
    Encounter or a new one."""


class CompleteSidequest(VastCommand, kw_only=True):
    """Reveal a fulfilled Sidequest from her hand (Vast rulebook §Missioni Secondarie; docs/vast/facts.md §2
    Sidequests)."""

    card: CardId
    """The Sidequest card id (``swift``) from her hand."""


class UseBomb(VastCommand, kw_only=True):
    """Put a Bomb token on a wall of her tile, removing it for good (Vast rulebook §Equipaggiamento, Bomba):
    needs the Bomb's cube this turn and a token left."""

    side: Side
    """The side of her tile whose wall the Bomb token removes."""


class UseFlare(VastCommand, kw_only=True):
    """Flare (docs/vast/facts.md §7 Variant cards; Knight vs Cave): once per turn, any space, no Encounter:
    the Dragon die is rolled round it and every Dark tile hit is revealed."""

    x: Coord
    y: Coord


class VastEndTurn(VastCommand, kw_only=True, tag="vast.EndTurn"):
    """End the turn of ``role`` (Vast rulebook: each role's §Riepilogo del Turno). The Cave may end its turn
    only after Shape the Cave and Place Treasure, when it could do them."""

    role: Literal["knight", "goblins", "dragon", "cave", "thief"]
    """The role whose turn ends."""


# --- the Cave (Vast rulebook §La Caverna) -------------------------------------------------------------------


class PlaceTile(VastCommand, kw_only=True):
    """Shape the Cave (Vast rulebook §2. Modella la Caverna): place a tile of the hand Dark side up next to
    any tile; a Crystal tile first when the hand holds one. The hand is refilled to 3 from the stack."""

    tile: TileId
    """The tile of the Cave's hand (masked as ``"?"`` for other seats)."""
    x: Coord
    y: Coord


class RemoveTile(VastCommand, kw_only=True):
    """During the Collapse, remove a tile (Vast rulebook §Il Collasso): tiles touching 1 other tile first,
    then 2; a revealed Crystal tile first when one can go; never the Entrance. 3 per turn."""

    x: Coord
    y: Coord


class PlaceTreasure(VastCommand, kw_only=True):
    """Place a Treasure token on a Dark tile with no player's piece and no Treasure token (Vast rulebook §3.
    Piazza un Tesoro)."""

    x: Coord
    y: Coord


class Hatred(VastCommand, kw_only=True):
    """Omen Hatred (Vast rulebook §Presagi, Disprezzo; cost 1, 2, 3 for the turn's uses; Mushroom, Trail,
    Chasm): place another tile (``tile``, ``x``, ``y``), or during the Collapse remove one (``x``, ``y``)."""

    pay: tuple[OmenToken, ...]
    """The Omen tokens paid (ids such as ``quartz-2``), returned to the bag."""
    x: Coord
    y: Coord
    tile: TileId | None = None
    """Before the Collapse, the tile of the hand to place; ``null`` during the Collapse."""


class PastPlunder(VastCommand, kw_only=True):
    """Omen Past Plunder (Vast rulebook §Presagi, Antichi Bottini; cost 1, 2, 3; Boulder, Quartz, Mushroom):
    place another Treasure token as in Place Treasure."""

    pay: tuple[OmenToken, ...]
    """The Omen tokens paid (ids such as ``quartz-2``), returned to the bag."""
    x: Coord
    y: Coord


class SoporificSpores(VastCommand, kw_only=True):
    """Omen Soporific Spores (Vast rulebook §Presagi, Spore Soporifere; cost 3; Quartz, Mushroom, Trail) on a
    player: the Knight loses 5 Grit; the Goblins bring a Tribe of their choice down to Population 1 (decision
    ``spores-tribe``; Rage +1)."""

    pay: tuple[OmenToken, ...]
    """The Omen tokens paid (ids such as ``quartz-2``), returned to the bag."""
    target: Literal["knight", "goblins", "dragon", "thief"] = "knight"
    """The player hit (the Dragon moves a cube from Wakefulness back to a Sloth track of its choice; the
    Thief loses an Upgrade of his choice, decision ``spores-upgrade``)."""


class Rockslide(VastCommand, kw_only=True):
    """Omen Rockslide (Vast rulebook §Presagi, Frana; cost 2; Bat, Boulder, Quartz): a Rockslide (a wall) on
    the edge between two tiles, at least one Lit."""

    pay: tuple[OmenToken, ...]
    """The Omen tokens paid (ids such as ``quartz-2``), returned to the bag."""
    x: Coord
    y: Coord
    side: Side
    """The side of the tile at ``x``, ``y`` the Rockslide lies on."""


class GiantBats(VastCommand, kw_only=True):
    """Omen Giant Bats (Vast rulebook §Presagi, Pipistrelli Giganti; cost 1; Chasm, Bat, Boulder): move the
    Knight, or a Treasure token from ``from_x``/``from_y``, up to 3 tiles to ``x``/``y`` (Vast rulebook
    §Esempio #3: through and onto Lit tiles only, never through a wall; a tile with an Event token stops it;
    the Knight's Shield refuses it)."""

    pay: tuple[OmenToken, ...]
    """The Omen tokens paid (ids such as ``quartz-2``), returned to the bag."""
    target: Literal["knight", "treasure", "fangs", "bones", "eye"]
    """What the bats carry: the Knight, a Treasure token, or a revealed Goblin Tribe."""
    x: Coord
    y: Coord
    from_x: Coord | None = None
    """The Treasure token's tile (column); ``null`` for the Knight."""
    from_y: Coord | None = None
    """The Treasure token's tile (row); ``null`` for the Knight."""


class CrystalCurse(VastCommand, kw_only=True):
    """Omen Crystal Curse (Vast rulebook §Presagi, Maledizione del Cristallo; cost 1; Trail, Chasm, Bat): turn
    a Lit tile a quarter turn (``rotate``: ``x``, ``y``, ``clockwise``; Bombs and Rockslides on its edges
    leave), or move the top 3 Event cards to the bottom of the deck (``events-to-bottom``)."""

    pay: tuple[OmenToken, ...]
    """The Omen tokens paid (ids such as ``quartz-2``), returned to the bag."""
    effect: Literal["rotate", "events-to-bottom", "event-token"]
    """Which of the curse's effects (``event-token``: restore one on the revealed Event tile ``x``, ``y``)."""
    x: Coord = 0
    y: Coord = 0
    clockwise: bool = True
    """The direction of the quarter turn."""


class UseBow(VastCommand, kw_only=True):
    """The Bow (Vast rulebook §Equipaggiamento, Arco): with its cube, shoot a revealed Tribe at any range; it
    loses Strength - 1 discs and does not scatter; no Encounter."""

    tribe: Literal["fangs", "bones", "eye"]
    """The Tribe shot."""


class AttackDragon(VastCommand, kw_only=True):
    """Attack the Dragon on her tile, spending an Encounter (Vast rulebook §Attaccare il Drago): underground
    before the Collapse only with the Bomb's cube (``bomb``), once a turn; underground during the Collapse
    once a turn; surfaced as often as she has Encounters. Strength above the Dragon's Armor hits (1 Health);
    equal, the Dragon die must hit the center; below, refused (``dragon.too-strong``)."""

    bomb: bool = False
    """With the Bomb (its Hero cube placed this turn), at the Dragon underground."""
    with_javelin: bool = False
    """With the Javelin (a Treasure card of hers, no cube): at the Dragon underground too, Strength +1; the
    card then leaves the game (Vast rulebook §Tesori, Giavellotto)."""


class ShootDragon(VastCommand, kw_only=True):
    """Shoot the Dragon with the Enchanted Bow (its Hero cube placed this turn; once a turn; no Encounter):
    up to 5 tiles away in a straight line, underground or not, over Dark tiles; it discards Power cards equal
    to her Strength less 1 (Vast rulebook §Tesori, Arco Incantato)."""


# --- the Goblins (Vast rulebook §I Goblin)
# ---------------------------------------------------------------------


class ActivateTribe(VastCommand, kw_only=True):
    """Activate a Tribe once this turn (Vast rulebook §5. Attiva le Tribù): a hidden one comes out (``reveal``
    onto ``x``/``y``: a Dark tile of its symbol, or an empty space next to the map where it lurks); a lurking
    one steps onto a tile next to it (``none``) or hides; a revealed one moves to ``x``/``y`` (any distance,
    not through walls, 1 disc lost per 2 Lit tiles left; the fewest-loss way is taken) and then acts:
    ``attack`` (the Knight on its tile, which it may enter only stronger than her; or a Crystal, with a second
    Tribe), ``plunder`` (a Treasure token), ``explore`` (from a Dark tile onto the empty space ``ex``/``ey``),
    ``hide``, ``special`` (Fangs +1 Rage, Bones a Monster, Eye a Secrets card) or ``none``."""

    tribe: Literal["fangs", "bones", "eye"]
    """The Tribe activated."""
    action: Literal["none", "attack", "plunder", "explore", "reveal", "hide", "special"]
    """Its action after moving."""
    x: Coord | None = None
    """Where it goes (column); ``null``: it stays."""
    y: Coord | None = None
    """Where it goes (row); ``null``: it stays."""
    ex: Coord | None = None
    """``explore``: the empty space it explores (column)."""
    ey: Coord | None = None
    """``explore``: the empty space it explores (row)."""


class PlaySecret(VastCommand, kw_only=True):
    """Play a Secrets card in the activation phase (docs/vast/facts.md §3 Secrets cards): ``hex``,
    ``secret-tunnels``, ``trap`` (face up), or ``fire-bomber`` / ``blind-fury`` on a ``tribe`` (``leader`` is
    played when a Tribe overpopulates)."""

    card: CardId
    """The Secrets card, from the Goblins' hand."""
    tribe: Literal["fangs", "bones", "eye"] | None = None
    """The Tribe it is played on (Fire Bomber, Blind Fury)."""


class TribeFlare(VastCommand, kw_only=True):
    """Flare (docs/vast/facts.md §7 Variant cards; Goblins vs Cave): in the activation phase each revealed
    Tribe on the map may once a turn light it on its own space: the Dragon die is rolled round it and every
    Dark tile hit is revealed (the tokens placed, nothing else resolved)."""

    tribe: Literal["fangs", "bones", "eye"]
    """The Tribe lighting it."""


class WispMove(VastCommand, kw_only=True):
    """The Wisp (docs/vast/facts.md §3 Monster cards; rules revision 3): in the activation phase, before its
    Tribe acts, once a turn, it moves the Knight up to 3 spaces over Lit tiles (her Shield's cube stops
    it)."""

    tribe: Literal["fangs", "bones", "eye"]
    """The revealed Tribe holding the Wisp."""
    x: Coord
    """Where the Knight goes: column."""
    y: Coord
    """Where the Knight goes: row."""


# --- the Dragon (Vast rulebook §Il Drago)
# ----------------------------------------------------------------------

PowerName = Literal[
    "claw",
    "flame",
    "wing",
    "hiss",
    "slither",
    "swat",
    "scorch",
    "burn",
    "slap",
    "shriek",
    "scratch",
    "flame-wall",
    "smash",
    "wrath",
]
SlothTrack = Literal["greed", "hunger", "pride-events", "pride-still", "pride-gem"]


class MoveDragon(VastCommand, kw_only=True):
    """The Dragon's free move (Vast rulebook §1. Muovi e Usa i Poteri): once a turn, 1 or 2 tiles in a
    straight line, before or after its Powers. Underground it crosses walls and enters Dark tiles; surfaced it
    does neither (§Limitazioni di Movimento), and entering the Knight's tile when her Strength reaches its
    Armor is an attack by her."""

    x: Coord
    y: Coord


class UsePower(VastCommand, kw_only=True):
    """Use a Power (Vast rulebook §Poteri), paying its symbols with Power cards of the hand and Gems on the
    map (each Gem once a turn; ``?`` takes any symbol). ``pay`` names the cards (``claw-3``) and Gems
    (``gem:flame``); empty, the rules pay with Gems first, then the lowest cards that fit. Targets by Power:
    ``wing``, ``burn``, ``flame-wall``, ``slap`` (where the Knight goes) and ``swat`` (where the token goes)
    use ``x``/``y``; ``swat`` takes the token from ``from_x``/``from_y`` (``token``: ``treasure`` or a Gem's
    symbol); ``hiss`` names a ``tribe``; ``slither`` moves a cube ``source`` -> ``target``. Refused when
    unpaid (``dragon.cannot-pay``) or the target is not allowed."""

    power: PowerName
    """The Power used."""
    pay: tuple[Annotated[str, Meta(min_length=1, max_length=16)], ...] = ()
    """Power cards and ``gem:<symbol>`` paying it; empty: the cheapest payment."""
    x: Coord | None = None
    """Target column (Wing, Burn, Flame Wall, Slap, Swat)."""
    y: Coord | None = None
    """Target row, as ``x``."""
    from_x: Coord | None = None
    """Swat: the column of the tile next to the Dragon the token leaves."""
    from_y: Coord | None = None
    """Swat: the row, as ``from_x``."""
    token: Literal["treasure", "claw", "flame", "wing"] | None = None
    """Swat: the token pushed."""
    tribe: Literal["fangs", "bones", "eye"] | None = None
    """Hiss: the Tribe on the map."""
    source: SlothTrack | None = None
    """Slither: the Sloth track a cube leaves."""
    target: SlothTrack | None = None
    """Slither: the Sloth track with room it reaches."""


class DragonCollect(VastCommand, kw_only=True):
    """Collect the Treasure tokens on its tile after all its movement (Vast rulebook §2. Raccogli un Tesoro):
    no more moves or Powers this turn."""


class PlaceGem(VastCommand, kw_only=True):
    """Place a Dragon Gem from the reserve on its tile (Vast rulebook §3. Posa una Gemma di Drago)."""

    gem: Literal["claw", "flame", "wing"]
    """The Gem placed."""


# --- the Thief (Vast rulebook §Il Ladro; docs/vast/facts.md §6)
# -------------------------------------------------------------------

ThiefTarget = Literal["knight", "dragon", "fangs", "bones", "eye"]
Cubes = Annotated[int, Meta(ge=1, le=3, description="Action cubes spent (Vast rulebook: 1, 2 or 3).")]


class AttackThief(VastCommand, kw_only=True):
    """The Knight attacks the Thief on her tile (Vast rulebook §Interagire con il Ladro): her Perception must
    be greater than his Stealth; it takes an Encounter; he dies and she gains Grit equal to his Loot Drop
    level. Refused: ``thief.not-here``, ``thief.unseen``, ``no-encounter-left``."""


class ShootThief(VastCommand, kw_only=True):
    """Shoot the Thief with the Enchanted Bow (its Hero cube placed this turn; once a turn; no Encounter; the
    same shot as ``ShootDragon``): up to 5 tiles away in a straight line, her Perception above his Stealth; he
    dies (Vast rulebook §Tesori, Arco Incantato)."""


class MoveThief(VastCommand, kw_only=True):
    """Move the Thief one tile, orthogonally (Vast rulebook §2. Muovi e Agisci): onto a Dark or Lit tile,
    occupied or not, with Movement left and before he ended his movement; across a wall only with ``climb``
    (Vast rulebook §Arrampicare: 2 Action cubes, 1 with Climbing Gear). Entering the Entrance stashes what he
    carries."""

    x: Coord
    y: Coord
    climb: bool = False
    """Climb across the wall between the tiles (its Action cubes are spent)."""


class PeekTile(VastCommand, kw_only=True):
    """End the Thief's movement on the Dark tile he stands on and look at it (Vast rulebook §2. Muovi e
    Agisci); he then decides to reveal it, oriented as the rules allow (``peek:x,y``: ``reveal`` or ``keep``).
    An Ambush he reveals never ambushes."""


class Loot(VastCommand, kw_only=True):
    """Saccheggiare (Vast rulebook §Saccheggiare): take a Treasure token or a Dragon Gem on his tile. 1 cube;
    a Gem for 1 cube rolls the Dragon die (a center hit kills him), for 2 it is taken safely."""

    cubes: Annotated[int, Meta(ge=1, le=2)] = 1
    """Action cubes spent (1 or 2)."""
    gem: Literal["claw", "flame", "wing"] | None = None
    """The Dragon Gem taken; ``null``: a Treasure token."""


class Pickpocket(VastCommand, kw_only=True):
    """Borseggiare (Vast rulebook §Borseggiare): a player on his tile whose Perception (the Dragon: Armor) is
    lower than his Stealth, once a turn each; 1 cube succeeds on 4+, 2 on 2+, 3 always. Success takes a
    Treasure token from the Cave's supply and: the Knight's Treasure card goes to the bottom of the deck, the
    Goblins discard a Secrets card, a Dragon's Wakefulness cube goes back to Greed. A target with nothing to
    take is refused (``thief.nothing-to-take``)."""

    target: ThiefTarget
    """``knight``, ``dragon`` or a Tribe (``fangs``, ``bones``, ``eye``)."""
    cubes: Cubes


class PickLock(VastCommand, kw_only=True):
    """Scassinare (Vast rulebook §Scassinare): open the Vault on his tile, once a turn each: 1 cube succeeds
    on 4+, 2 on 2+, 3 always (one cube fewer with the Lock Picking Kit). Success removes the Vault and takes a
    Treasure token from the Cave's supply."""

    cubes: Cubes


class Backstab(VastCommand, kw_only=True):
    """Pugnalare alle Spalle (Vast rulebook §Pugnalare alle Spalle): wound a player on his tile (up to 3 tiles
    away on a Lit tile with the Hand Crossbow), once a turn each, Stealth above their Perception (the Dragon:
    Armor). 1 cube Light, 2 Moderate, 3 Heavy: the Knight loses 1/3/5 Grit, a Tribe 1/2/3 Population, the
    Dragon discards 1/2/3 Power cards."""

    target: ThiefTarget
    """``knight``, ``dragon`` or a Tribe (``fangs``, ``bones``, ``eye``)."""
    cubes: Cubes


class HideLoot(VastCommand, kw_only=True):
    """Celare il Bottino (Vast rulebook §Celare il Bottino): lower his Loot Drop level by the cubes spent."""

    cubes: Cubes


class ThiefFlare(VastCommand, kw_only=True):
    """Flare (docs/vast/facts.md §7 Variant cards, the Thief's: on his own space, 1 Action cube a use): the
    Dragon die is rolled round his tile and every Dark tile hit is revealed."""


KNIGHT_COMMANDS = (
    PlaceHeroCube,
    MoveKnight,
    SmashCrystal,
    CollectTreasure,
    CompleteSidequest,
    UseBomb,
    UseFlare,
    UseBow,
    AttackDragon,
    ShootDragon,
    AttackThief,
    ShootThief,
)
THIEF_COMMANDS = (MoveThief, PeekTile, Loot, Pickpocket, PickLock, Backstab, HideLoot, ThiefFlare)
DRAGON_COMMANDS = (MoveDragon, UsePower, DragonCollect, PlaceGem)
GOBLIN_COMMANDS = (ActivateTribe, PlaySecret, TribeFlare, WispMove)
CAVE_COMMANDS = (
    PlaceTile,
    RemoveTile,
    PlaceTreasure,
    Hatred,
    PastPlunder,
    SoporificSpores,
    Rockslide,
    GiantBats,
    CrystalCurse,
)
ROLE_COMMANDS = (
    *KNIGHT_COMMANDS,
    *GOBLIN_COMMANDS,
    *DRAGON_COMMANDS,
    *CAVE_COMMANDS,
    *THIEF_COMMANDS,
    VastEndTurn,
)

VastCommandUnion = (
    Begin
    | PlaceHeroCube
    | MoveKnight
    | SmashCrystal
    | CollectTreasure
    | CompleteSidequest
    | UseBomb
    | UseFlare
    | UseBow
    | AttackDragon
    | ShootDragon
    | MoveDragon
    | UsePower
    | DragonCollect
    | PlaceGem
    | ActivateTribe
    | PlaySecret
    | TribeFlare
    | WispMove
    | VastEndTurn
    | PlaceTile
    | RemoveTile
    | PlaceTreasure
    | Hatred
    | PastPlunder
    | SoporificSpores
    | Rockslide
    | GiantBats
    | CrystalCurse
    | AttackThief
    | ShootThief
    | MoveThief
    | PeekTile
    | Loot
    | Pickpocket
    | PickLock
    | Backstab
    | HideLoot
    | ThiefFlare
    | Roll
    | Shuffle
    | Draw
    | Choose
)


_ROLE_BY_TYPE: dict[type, str] = {
    kind: role
    for role, kinds in (
        ("thief", THIEF_COMMANDS),
        ("dragon", DRAGON_COMMANDS),
        ("goblins", GOBLIN_COMMANDS),
        ("cave", CAVE_COMMANDS),
        ("knight", KNIGHT_COMMANDS),
    )
    for kind in kinds
}
"""Each role's command types (each type is listed by one role; no command type is subclassed)."""


def role_of(command: Command) -> str | None:
    """The role a command is for (the issuing seat must control it): by its type (``_ROLE_BY_TYPE``), an
    ``EndTurn`` by its ``role``; ``None`` for the core's commands (``Begin``, ``Roll``, ``Draw``...)."""
    role = _ROLE_BY_TYPE.get(type(command))
    if role is None and isinstance(command, VastEndTurn):
        return command.role
    return role
