"""``evolve`` dispatches on ``type(event)`` (``evolve.HANDLERS``): every event a Mice and Mystics game
can store has a handler there, or is listed in ``evolve.IGNORED`` as leaving the state unchanged, so
a new event type added without a handler is caught here."""

from dicelog.domain.core import events as core
from dicelog.domain.mice_and_mystics.chapter_events import CHAPTER_EVENTS
from dicelog.domain.mice_and_mystics.choice_events import CHOICE_EVENTS
from dicelog.domain.mice_and_mystics.events import EVENT_TYPES
from dicelog.domain.mice_and_mystics.evolve import HANDLERS, IGNORED, _unchanged
from dicelog.domain.mice_and_mystics.item_events import ITEM_EVENTS

# Core events ``game.apply`` folds itself and never passes to a ruleset's ``evolve``.
NOT_EVOLVED = (
    core.GameCreated,
    core.CommandAccepted,
    core.UndoRequested,
    core.UndoApproved,
    core.UndoRejected,
    core.UndoApplied,
)
CORE_EVENTS = [
    c
    for c in vars(core).values()
    if isinstance(c, type) and issubclass(c, core.Event) and c is not core.Event
]


def test_every_event_type_has_a_handler_or_is_deliberately_ignored():
    missing = [cls.__name__ for cls in EVENT_TYPES if cls not in HANDLERS]
    assert missing == []
    ignored = {cls for cls, handler in HANDLERS.items() if handler is _unchanged}
    assert ignored == set(IGNORED)
    assert set(IGNORED) <= set(EVENT_TYPES)


def test_every_core_event_reaching_evolve_has_a_handler():
    reaching = [c for c in CORE_EVENTS if c not in NOT_EVOLVED]
    assert reaching  # the pending/answer nodes and GameEnded
    assert [c.__name__ for c in reaching if c not in HANDLERS] == []


def test_the_table_holds_only_known_event_types():
    assert set(HANDLERS) <= {*EVENT_TYPES, *CORE_EVENTS}
    groups = CHAPTER_EVENTS + ITEM_EVENTS + CHOICE_EVENTS
    assert len(set(groups)) == len(groups)


def test_no_event_type_subclasses_another_so_dispatch_on_the_exact_type_is_complete():
    """A subclass would still fold like its base (``dicelog.domain.core.dispatch.ByEventType``), but none
    exists."""
    for cls in (*EVENT_TYPES, *HANDLERS):
        assert cls.__bases__ == (core.Event,), cls
