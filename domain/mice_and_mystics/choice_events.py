"""Events of choices the rules leave to the players in the middle of a computation (past tense,
frozen, tagged; never changed once stored: STYLE.md, 8). Added to ``events.MouseEvent``/``EVENT_TYPES``.

001 §Collocare i Servitori sul Tabellone ("Se ci sono più Entrate equidistanti, i giocatori
scelgono quella che preferiscono"; "i giocatori scelgono quelle che preferiscono") and 000 §Brodie
Insegue ("Se ci sono vari percorsi egualmente brevi, i giocatori possono decidere quale di questi
utilizzare"): placing minions (chapter setup, a summon, an encounter) and Brodie's chase are each one
computation that may meet several such ties. It is deferred at the first one (``ChoiceDeferred``),
every tie is explained (``TieFound``) and asked (``DecisionRequested``), every answer
(``DecisionMade``) is recorded, and the computation is re-run with the answers so far until it
completes (``ChoicesSettled``, followed by its events). See ``rules/ties.py``.
"""

from __future__ import annotations

from domain.core.events import CardsDrawn, DiceRolled, Event


class ChoiceDeferred(Event, kw_only=True):
    """A computation met a tie the players break; it is re-run once the ties are answered.

    ``context`` names the computation (``begin``: chapter setup; ``summon``; ``encounter``: the
    encounter card drawn; ``brodie-chase``: Brodie's move roll); ``answer`` is the roll or draw it
    was resolving (``None`` for setup and summons)."""

    context: str
    answer: DiceRolled | CardsDrawn | None = None


class TieFound(Event, kw_only=True):
    """What the ``DecisionRequested`` right after it is about: ``subject`` is the minion card whose
    ``count`` figures are being placed, or ``brodie`` (``count``: movement points left) choosing
    among equally short paths toward the mouse ``toward``."""

    decision: str
    subject: str
    count: int = 0
    toward: str | None = None


class ChoicesSettled(Event, kw_only=True):
    """The deferred ``context`` completed with ``choices`` (the options chosen, in the order asked);
    the events following it are the computation's result."""

    context: str
    choices: tuple[str, ...] = ()


CHOICE_EVENTS = (ChoiceDeferred, TieFound, ChoicesSettled)
ChoiceEvent = ChoiceDeferred | TieFound | ChoicesSettled
