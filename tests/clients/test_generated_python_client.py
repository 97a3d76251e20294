"""A Python client generated from the committed OpenAPI document plays a whole game with typed models only.

``openapi-python-client`` generates a client from ``openapi/openapi.json`` into a temporary directory
(configuration: ``clients/python/config.yaml``); the test imports it and plays a Chapter 1 game of
Mice and Mystics against a live service with the generated operation functions and models only: the
game is created with the generated ``NewMiceAndMysticsGame``, every command sent is one of the
generated command classes (a listed legal command, or a ``Choose`` built from the pending decision),
and every answer must parse into generated classes all the way down: no raw ``dict`` anywhere, no key
a model does not declare.

What the document still leaves open is listed, each with its reason, and must still occur (so the
lists shrink as the document is fixed): ``ACCEPTED_WARNINGS`` (none today) and ``ACCEPTED_UNTYPED``.
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

from tests.clients.conftest import MAX_COMMANDS, MICE, OPENAPI, ROOT, SEATS
from tests.services import _unavailable

CONFIG = ROOT / "clients" / "python" / "config.yaml"
PACKAGE = "dicelog_client"

ACCEPTED_WARNINGS: dict[str, str] = {}
"""A text found in a generator warning -> why the playing test accepts that warning (each must
still occur)."""

ACCEPTED_UNTYPED = {
    ".payload.command": "CommandAccepted.command is an open object with a required `type`: "
    "a reader who may not see a command's arguments gets only its type, so it cannot be the command "
    "union (GameCommand).",
}
"""The end of a path in an answer -> why the playing test accepts a raw dict there (each must still occur)."""


def _generator() -> str:
    """The ``openapi-python-client`` of this virtualenv (a test dependency), else the one on PATH."""
    beside = Path(sys.executable).parent / "openapi-python-client"
    found = str(beside) if beside.exists() else shutil.which("openapi-python-client")
    if found is None:
        _unavailable("openapi-python-client", "not installed (pip install -e '.[test]')")
    return found  # type: ignore[return-value]


def generate(out: Path, document: Path) -> tuple[int, str, list[str]]:
    """Run the generator on ``document`` into ``out``; its exit code, output and warnings."""
    out.mkdir(parents=True)
    run = subprocess.run(
        [
            _generator(),
            "generate",
            "--path",
            str(document),
            "--output-path",
            str(out / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(CONFIG),
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=out,
    )
    output = run.stdout + run.stderr
    warnings = []
    if "Warning(s) encountered" in output:
        section = output.split("Warning(s) encountered", 1)[1].split("If you believe this was a mistake", 1)[
            0
        ]
        section = section.split("\n", 1)[1] if "\n" in section else ""
        warnings = [
            w.strip() for w in re.split(r"(?m)^(?=WARNING |Unable to |Skipping )", section) if w.strip()
        ]
    return run.returncode, output, warnings


def load(out: Path) -> ModuleType:
    """Import the client generated into ``out`` (afresh)."""
    sys.path.insert(0, str(out))
    forget()
    return importlib.import_module(PACKAGE)


def forget() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def test_openapi_python_client_reads_the_committed_document_without_warnings(tmp_path):
    code, output, warnings = generate(tmp_path / "client", OPENAPI)
    assert code == 0, f"openapi-python-client refuses openapi/openapi.json:\n{output}"
    assert not warnings, "openapi-python-client warns about openapi/openapi.json:\n\n" + "\n\n".join(warnings)


def operation(package: ModuleType, operation_id: str) -> ModuleType:
    """The generated module of an operation, by its operationId, whatever tag folder it is in."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()
    found = sorted(Path(package.__file__).parent.glob(f"api/*/{snake}.py"))
    assert len(found) == 1, (
        f"operationId {operation_id}: expected one generated module {snake}.py, found {found}"
    )
    return importlib.import_module(f"{PACKAGE}.api.{found[0].parent.name}.{snake}")


def untyped(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Where a parsed answer holds what the document did not type: a raw dict (a model was
    expected, or the schema is an untyped object), or a key its model does not declare."""
    if isinstance(value, dict):
        return [(path, f"a raw dict (keys {sorted(value)[:6]})")]
    if isinstance(value, list):
        return [where for i, item in enumerate(value) for where in untyped(item, f"{path}[{i}]")]
    if not attrs.has(type(value)):
        return []  # str, int, float, bool, None, an enum member, UUID, Unset
    assert type(value).__module__.startswith(f"{PACKAGE}.models."), (
        f"{path}: {type(value)} is not a generated model"
    )
    names = [f.name for f in attrs.fields(type(value)) if f.name != "additional_properties"]
    extra: dict[str, Any] = getattr(value, "additional_properties", {})
    found = []
    if names and extra:
        found.append(
            (path, f"{type(value).__name__} has keys the document does not declare: {sorted(extra)}")
        )
    for name in names:
        found += untyped(getattr(value, name), f"{path}.{name}")
    if not names:  # a map (additionalProperties: a schema): its values must be typed
        for key, item in extra.items():
            found += untyped(item, f"{path}[{key!r}]")
    return found


class Answers:
    """Checks the typed answers of generated ``sync_detailed`` calls; collects, across the game, every
    place an answer is not typed all the way down (asserted at the end, all listed at once)."""

    def __init__(self) -> None:
        self.holes: dict[str, str] = {}

    def __call__(self, response: Any, model: type, status: int = 200) -> Any:
        assert response.status_code == status, f"{response.status_code}: {response.content[:500]!r}"
        answer = response.parsed
        assert isinstance(answer, model), (
            f"expected {model.__name__}, parsed {type(answer).__name__}: {answer!r:.300}"
        )
        for path, what in untyped(answer):
            self.holes.setdefault(re.sub(r"\[\d+\]", "[]", f"{model.__name__}{path}"), what)
        return answer


def test_a_generated_python_client_plays_a_game_with_typed_models_only(tmp_path, live_service):
    started = time.monotonic()
    code, output, warnings = generate(tmp_path / "client", OPENAPI)
    assert code == 0, f"openapi-python-client refuses openapi/openapi.json:\n{output}"
    unexplained = [w for w in warnings if not any(text in w for text in ACCEPTED_WARNINGS)]
    assert not unexplained, "openapi-python-client warns about openapi/openapi.json:\n\n" + "\n\n".join(
        unexplained
    )
    fixed = [text for text in ACCEPTED_WARNINGS if not any(text in w for w in warnings)]
    assert not fixed, f"no such warning now: remove {fixed} from ACCEPTED_WARNINGS"
    try:
        client_package = load(tmp_path / "client")
        generated = time.monotonic()
        summary = play(client_package, live_service)
        print(
            f"python client: generated in {generated - started:.1f}s, played in "
            f"{time.monotonic() - generated:.1f}s: "
            f"{summary}"
        )
    finally:
        if str(tmp_path / "client") in sys.path:
            sys.path.remove(str(tmp_path / "client"))
        forget()


def play(package: ModuleType, base_url: str) -> str:
    """Play Chapter 1 to its end through the generated client; return a one-line summary."""
    m = importlib.import_module(f"{PACKAGE}.models")
    parsed = Answers()
    create_game, get_legal_commands, send_command, get_game, get_state, list_events, get_turn, verify_game = (
        operation(package, name)
        for name in (
            "createGame",
            "getLegalCommands",
            "sendCommand",
            "getGame",
            "getState",
            "listEvents",
            "getTurn",
            "verifyGame",
        )
    )
    anonymous = package.Client(base_url=base_url, raise_on_unexpected_status=True)
    body = m.NewMiceAndMysticsGame(
        ruleset="mice-and-mystics",
        setup=m.Setup(chapter="chapter-1", mice=MICE),
        seats=[m.Seat(name=name, controls=mice) for name, mice in SEATS.items()],
        dice_mode=m.DiceMode.SERVER,
        # Decisions left to players are asked (DecisionRequested), so the client answers some with Choose.
        decision_policy=m.DecisionPolicy.ASK,
    )
    created = parsed(create_game.sync_detailed(client=anonymous, body=body), m.GameCreatedBody, 201)
    game_id, first_version = created.game.id, created.game.version
    seats = {
        t.seat: package.AuthenticatedClient(base_url=base_url, token=t.token, raise_on_unexpected_status=True)
        for t in created.tokens
    }
    assert set(seats) == set(SEATS)
    controller = {mouse: seat.name for seat in created.game.seats for mouse in seat.controls}

    seat, sent, version, result = "red", Counter[str](), first_version, None
    event_types: Counter[str] = Counter()
    while sent.total() < MAX_COMMANDS:
        legal = parsed(get_legal_commands.sync_detailed(game_id, client=seats[seat]), m.LegalCommands)
        assert legal.version >= version
        if legal.pending is not None:
            actor = legal.pending_seat or seat  # a decision that names no piece: any seat answers
        elif legal.turn is not None:
            actor = controller[legal.turn]
        else:
            break
        if actor != seat:
            seat = actor
            continue
        command = answer(m, legal.pending) if legal.pending is not None else choose(m, legal.commands)
        request = m.CommandRequest(command=command, expected_version=legal.version)
        outcome = parsed(
            send_command.sync_detailed(game_id, client=seats[seat], body=request), m.CommandResult, 201
        )
        sent[type(command).__name__] += 1
        assert outcome.game_id == game_id
        assert outcome.version > version and outcome.events, "every command writes events"
        assert [e.version for e in outcome.events] == list(
            range(outcome.version - len(outcome.events) + 1, outcome.version + 1)
        )
        for event in outcome.events:
            assert isinstance(event, m.EventOut) and not event.hidden
            assert type(event.payload).__name__ == event.type_ and event.payload.type_ == event.type_, event
            event_types[event.type_] += 1
        version, result = outcome.version, outcome.result
        if result is not None:
            break

    game = parsed(get_game.sync_detailed(game_id, client=seats["red"]), m.GameSummary)
    assert game.version == version and game.result == result
    assert version > first_version and sent.total() > 0
    turns = event_types["TurnEnded"]
    assert turns >= 2 and sent["EndTurn"] >= 2, f"no turn passed: {sent}"
    assert sent["Choose"] >= 1, "no decision was asked and answered"
    state = parsed(get_state.sync_detailed(game_id, client=seats["red"]), m.StateAt)
    assert state.version == version
    page = parsed(list_events.sync_detailed(game_id, client=seats["red"], limit=200), m.EventPage)
    assert [e.version for e in page.events][:3] == [1, 2, 3]
    turn = parsed(get_turn.sync_detailed(game_id, 1, client=seats["red"]), m.TurnView)
    assert turn.number == 1 and turn.events
    report = parsed(verify_game.sync_detailed(game_id, client=seats["red"]), m.VerifyResult)
    unexplained = {
        p: w for p, w in parsed.holes.items() if not any(p.endswith(end) for end in ACCEPTED_UNTYPED)
    }
    assert not unexplained, "answers not typed all the way down:\n" + "\n".join(
        f"{p}: {w}" for p, w in sorted(unexplained.items())
    )
    fixed = [end for end in ACCEPTED_UNTYPED if not any(p.endswith(end) for p in parsed.holes)]
    assert not fixed, f"typed now: remove {fixed} from ACCEPTED_UNTYPED"
    assert report.verification.ok, report.verification.divergence
    assert report.verification.events == version
    assert result is not None, f"no result after {MAX_COMMANDS} commands (the policy loses in ~100-150)"
    assert report.verification.seed_revealed, "the seed is revealed when the game ends"
    return (
        f"{sent.total()} commands ({dict(sent)}), {turns} turns, result {result}, version {version}, "
        f"verify ok ({report.verification.events} events, {report.verification.dice_checked} dice)"
    )


def answer(m: ModuleType, pending: Any) -> Any:
    """The answer to a pending node: server dice roll themselves, so only decisions come here."""
    assert isinstance(pending, m.DecisionRequested), (
        f"unexpected pending node in a server-dice game: {pending!r}"
    )
    option = pending.default if isinstance(pending.default, str) else pending.options[0]
    return m.Choose(type_="Choose", option=option)


def choose(m: ModuleType, commands: list[Any]) -> Any:
    """A simple deterministic policy over the listed commands, by their generated classes: recover,
    fight, search, else end the turn (the mice never walk: the game ends, in defeat, by itself)."""
    for kind in (m.Recover, m.Battle, m.Search, m.EndTurn):
        options = [c for c in commands if isinstance(c, kind)]
        if options:
            return options[0]
    raise AssertionError(f"no Recover, Battle, Search or EndTurn among the legal commands: {commands}")
