"""Events of choices the rules leave to the players in the middle of a computation (past tense,
frozen, tagged; never changed once stored: docs/conventions.md, rule 8). Added to
``events.MouseEvent``/``EVENT_TYPES``.

MM rulebook (it) §Collocare i Servitori sul Tabellone ("Se ci sono più Entrate equidistanti, i giocatori
scelgono quella che preferiscono"; "i giocatori scelgono quelle che preferiscono") and MM rulebook (it)
§Brodie Insegue ("Se ci sono vari percorsi egualmente brevi, i giocatori possono decidere quale di questi
utilizzare"): placing minions (chapter setup, a summon, an encounter) and Brodie's chase are each one
computation that may meet several such ties. It is deferred at the first one (``ChoiceDeferred``), every tie
is explained (``TieFound``) and asked (``DecisionRequested``), every answer (``DecisionMade``) is recorded,
and the computation is re-run with the answers so far until it completes (``ChoicesSettled``, followed by its
events). See ``rules/ties.py``.
"""

from __future__ import annotations

from dicelog.domain.core.events import CardsDrawn, DiceRolled, Event


class ChoiceDeferred(Event, kw_only=True):
    """A computation met a tie the players break; it is re-run once the ties are answered.

    ``context`` names the computation (``begin``: chapter setup; ``summon``; ``encounter``: the
    encounter card drawn; ``brodie-chase``: Brodie's move roll); ``answer`` is the roll or draw it
    was resolving (``None`` for setup and summons)."""

    context: str
    """The computation deferred: ``begin`` (chapter setup), ``summon``, ``encounter`` (placing the minions of
    the encounter card drawn) or ``brodie-chase`` (Brodie's move roll)."""
    answer: DiceRolled | CardsDrawn | None = None
    """The roll or draw the computation was resolving, kept so it can be re-run: the ``CardsDrawn`` of the
    encounter card or the ``DiceRolled`` of Brodie's chase; ``None`` for ``begin`` and ``summon``."""


class TieFound(Event, kw_only=True):
    """What the ``DecisionRequested`` right after it is about: ``subject`` is the minion card whose
    ``count`` figures are being placed, or ``brodie`` (``count``: movement points left) choosing
    among equally short paths toward the mouse ``toward``."""

    decision: str
    """The decision asked next: ``ranged-minion-entrance``, ``large-minion-entrances``,
    ``melee-minion-entrances`` or ``brodie-path``."""
    subject: str
    """The minion card id whose figures are being placed (``rat-warriors``), or ``brodie``."""
    count: int = 0
    """For a placement, how many of the card's figures are still to be placed; for ``brodie``, the movement
    points he has left."""
    toward: str | None = None
    """The mouse Brodie heads for (a mouse id); ``None`` for a placement."""


class ChoicesSettled(Event, kw_only=True):
    """The deferred ``context`` completed with ``choices`` (the options chosen, in the order asked);
    the events following it are the computation's result."""

    context: str
    """The computation that completed, as in ``ChoiceDeferred.context``."""
    choices: tuple[str, ...] = ()
    """The options chosen for its ties, in the order they were asked: entrance space ids (sets of them joined
    with ``+``) or Brodie's paths (space ids joined with ``>``)."""


CHOICE_EVENTS = (ChoiceDeferred, TieFound, ChoicesSettled)
ChoiceEvent = ChoiceDeferred | TieFound | ChoicesSettled
