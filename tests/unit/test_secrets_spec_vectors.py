"""The test vectors of docs/verifiable-secrets.md (Test vectors), checked twice: (a) by a verifier written
here from the specification alone (``hashlib``, ``hmac`` and ``json`` only, none of the project's functions),
and (b) against what the project's own code produces for the same game.

The game: ``secret-hand`` (the tests-only ruleset of tests/rulesets/secret_hand_dist), two players, one card
each, one round, server dice with a fixed seed and a fixed view key, played to its end. Regenerate the files
after a deliberate change of format with ``.venv/bin/python -m tests.unit.test_secrets_spec_vectors``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest

from dicelog.domain.core.dice import commitment, draw_cards, roll_faces, shuffle_order
from dicelog.domain.core.events import GameCreated, Seat
from dicelog.domain.core.game import (
    CHAIN_FORMAT,
    Recorded,
    create,
    event_salt,
    fold,
    link_hash,
    record_link,
    run_command_and_auto_answers_records,
)
from dicelog.domain.core.visibility import AUDITOR_VIEWER, Lens, seat_viewer
from dicelog.service.app.export import reader_export_lines, verify_file
from dicelog_secret_hand.ruleset import register

register()

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "test-vectors"
SUMMARY = VECTORS / "secrets-v1.json"
FULL = VECTORS / "secrets-v1-full.jsonl"
VIEW = VECTORS / "secrets-v1-view-one.jsonl"

GAME_ID = UUID("00000000-0000-4000-8000-000000000033")
AT = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
SEATS = (Seat(name="one", controls=("ann",)), Seat(name="two", controls=("bob",)))
SEED = bytes(range(32))
VIEW_KEY = bytes(range(100, 132))


# --- (a) an independent verifier, written from docs/verifiable-secrets.md alone ----------------------------


def canonical(value: Any) -> bytes:
    """Canonical JSON: compact, keys in the order given, UTF-8, no ASCII escaping."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def spec_salt(view_key_hex: str, game_id: str, version: int) -> str:
    key = bytes.fromhex(view_key_hex)
    return hmac.new(key, f"{game_id}:{version}".encode(), hashlib.sha256).hexdigest()


def spec_digest(salt_hex: str, payload: bytes) -> str:
    return hashlib.sha256(bytes.fromhex(salt_hex) + payload).hexdigest()


def spec_link(timestamp: str, seat: str, command_id: str, prev_hash: str, type_: str, digest: str) -> bytes:
    fields = {
        "timestamp": timestamp,
        "seat": seat,
        "command_id": command_id,
        "prev_hash": prev_hash,
        "type": type_,
        "digest": digest,
    }
    return canonical(fields)


def spec_hash(game_id: str, version: int, link: bytes) -> str:
    return hashlib.sha256(f"{game_id}:{version}:".encode() + link).hexdigest()


def spec_words(seed: bytes, k: int) -> Iterator[int]:
    block = 0
    while True:
        out = hmac.new(seed, f"dicelog:{k}:{block}".encode(), hashlib.sha256).digest()
        for i in range(8):
            yield int.from_bytes(out[4 * i : 4 * i + 4], "big")
        block += 1


def spec_uniform(words: Iterator[int], n: int) -> int:
    limit = 2**32 - 2**32 % n
    return next(w for w in words if w < limit) % n


def spec_draw(seed: bytes, k: int, cards: list[str], count: int, weights: list[int]) -> list[str]:
    words, left, left_weights, drawn = spec_words(seed, k), list(cards), list(weights), []
    for _ in range(min(count, len(left))):
        if not left_weights:
            drawn.append(left.pop(spec_uniform(words, len(left))))
            continue
        point, i = spec_uniform(words, sum(left_weights)), 0
        while point >= left_weights[i]:
            point, i = point - left_weights[i], i + 1
        drawn.append(left.pop(i))
        left_weights.pop(i)
    return drawn


def spec_roll(seed: bytes, k: int, dice: int, sides: int) -> list[int]:
    words = spec_words(seed, k)
    return [spec_uniform(words, sides) + 1 for _ in range(dice)]


def spec_shuffle(seed: bytes, k: int, cards: list[str]) -> list[str]:
    words, order = spec_words(seed, k), list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = spec_uniform(words, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


DERIVATIONS: list[dict[str, Any]] = [
    {"kind": "roll", "k": 0, "dice": 5, "sides": 6},
    {"kind": "roll", "k": 7, "dice": 3, "sides": 20},
    {"kind": "shuffle", "k": 1, "cards": [f"card-{n:02}" for n in range(1, 11)]},
    {"kind": "draw", "k": 2, "cards": ["a", "b", "c", "d", "e"], "count": 3, "weights": [5, 1, 1, 2, 8]},
]
"""Rolls, a shuffle and a weighted draw under the vectors' seed, beyond what the game itself draws."""


def spec_derive(seed: bytes, case: dict[str, Any]) -> list[Any]:
    if case["kind"] == "roll":
        return spec_roll(seed, case["k"], case["dice"], case["sides"])
    if case["kind"] == "shuffle":
        return spec_shuffle(seed, case["k"], case["cards"])
    return spec_draw(seed, case["k"], case["cards"], case["count"], case["weights"])


def spec_lines(path: Path) -> list[tuple[bytes, dict[str, Any]]]:
    """Each non-blank line of a JSONL file, raw and parsed; every line is itself canonical JSON."""
    out = []
    for raw in path.read_bytes().splitlines():
        if raw.strip():
            parsed = json.loads(raw)
            assert canonical(parsed) == raw, "an export line is canonical JSON"
            out.append((raw, parsed))
    return out


def spec_check_full(path: Path) -> dict[str, Any]:
    """Verify a ``dicelog-export/2`` file as the specification says; return the vectors it yields."""
    (_, header), *lines = spec_lines(path)
    assert header["format"] == "dicelog-export/2" and header["events"] == len(lines)
    game_id = header["game_id"]
    created = lines[0][1]["state"]["payload"]
    ended = lines[-1][1]["state"]["payload"]
    assert created["type"] == "GameCreated" and created["chain_format"] == 2
    assert ended["type"] == "GameEnded"
    seed, view_key = bytes.fromhex(ended["seed"]), ended["view_key"]
    assert hashlib.sha256(seed).hexdigest() == created["dice_commitment"]
    assert hashlib.sha256(bytes.fromhex(view_key)).hexdigest() == created["view_key_commitment"]
    prev, events, chance, requested = "0" * 64, [], [], None
    for version, (_, line) in enumerate(lines, start=1):
        assert line["originator_id"] == game_id and line["originator_version"] == version
        state = line["state"]
        assert list(state) == ["timestamp", "seat", "command_id", "prev_hash", "payload", "salt"]
        payload = state["payload"]
        assert next(iter(payload)) == "type" and line["topic"].endswith("/" + payload["type"])
        salt = spec_salt(view_key, game_id, version)
        assert state["salt"] == salt
        assert state["prev_hash"] == prev
        digest = spec_digest(salt, canonical(payload))
        link = spec_link(
            state["timestamp"], state["seat"], state["command_id"], prev, payload["type"], digest
        )
        prev = spec_hash(game_id, version, link)
        events.append(
            {
                "version": version,
                "salt": salt,
                "payload": canonical(payload).decode(),
                "digest": digest,
                "link": link.decode(),
                "hash": prev,
            }
        )
        if payload["type"] == "DrawRequested":
            requested = payload
        elif payload["type"] == "CardsDrawn":
            assert requested is not None
            k = len(chance)
            cards = spec_draw(
                seed, k, requested["cards"], requested.get("count", 1), requested.get("weights", [])
            )
            assert cards == payload["cards"]
            block = hmac.new(seed, f"dicelog:{k}:0".encode(), hashlib.sha256).hexdigest()
            chance.append({"k": k, "version": version, "block_0": block, "cards": cards})
    return {
        "game_id": game_id,
        "seed": seed.hex(),
        "view_key": view_key,
        "dice_commitment": created["dice_commitment"],
        "view_key_commitment": created["view_key_commitment"],
        "events": events,
        "chance": chance,
    }


def spec_check_view(path: Path, final: dict[str, Any]) -> list[int]:
    """Verify a ``dicelog-view/2`` file as the specification says, then against the final log's vectors
    (``final``); return the versions the reader held by digest only."""
    (_, header), *lines = spec_lines(path)
    assert header["format"] == "dicelog-view/2" and header["events"] == len(lines)
    game_id, prev, digest_only = header["game_id"], "0" * 64, []
    keys = [
        "version",
        "timestamp",
        "seat",
        "command_id",
        "prev_hash",
        "type",
        "digest",
        "hash",
        "shown",
        "salt",
    ]
    for version, (_, line) in enumerate(lines, start=1):
        assert list(line) == [*keys, "payload"] and line["version"] == version
        assert line["prev_hash"] == prev
        link = spec_link(
            line["timestamp"], line["seat"], line["command_id"], prev, line["type"], line["digest"]
        )
        prev = spec_hash(game_id, version, link)
        assert line["hash"] == prev
        if line["shown"] == "full":
            assert line["salt"] is not None
            assert spec_digest(line["salt"], canonical(line["payload"])) == line["digest"]
        else:
            assert line["salt"] is None
            assert (line["payload"] is None) == (line["shown"] == "hidden")
            digest_only.append(version)
        # after the end: what the reader held is the final log's event, link for link
        assert final["events"][version - 1]["link"] == link.decode()
    return digest_only


@pytest.fixture(scope="module")
def summary() -> dict[str, Any]:
    return json.loads(SUMMARY.read_text(encoding="utf-8"))


def test_an_independent_verifier_recomputes_every_salt_digest_link_and_hash_of_the_full_export(summary):
    recomputed = spec_check_full(FULL)
    assert recomputed == {
        k: v for k, v in summary.items() if k not in ("view_one_digest_only", "derivations")
    }


def test_an_independent_verifier_checks_a_seats_view_and_then_every_digest_it_held_against_the_final_log(
    summary,
):
    digest_only = spec_check_view(VIEW, summary)
    assert digest_only and digest_only == summary["view_one_digest_only"]


def test_an_independent_verifier_derives_the_rolls_shuffle_and_weighted_draw_of_the_vectors(summary):
    seed = bytes.fromhex(summary["seed"])
    assert [{**case, "values": spec_derive(seed, case)} for case in DERIVATIONS] == summary["derivations"]


# --- (b) the project's code produces the same vectors for the same game -----------------------------------


def project_game() -> list[Recorded]:
    """The vectors' game, played through the domain with the first legal command each turn."""
    setup = {"players": ["ann", "bob"], "hand_size": 1, "rounds": 1}
    created = GameCreated(
        ruleset="secret-hand",
        setup=msgspec.Raw(msgspec.json.encode(setup)),
        seats=SEATS,
        dice_mode="server",
        dice_commitment=commitment(SEED),
        chain_format=CHAIN_FORMAT,
        view_key_commitment=commitment(VIEW_KEY),
    )
    records = create(GAME_ID, created, at=AT, seed=SEED, command_id="c0", nonce_key=VIEW_KEY)
    game = fold(None, records)
    n = 1
    while game.result is None:
        seat = "one" if game.ruleset.turn_piece(game.state) == "ann" else "two"
        command = game.ruleset.legal_commands(game.state)[0]
        new = run_command_and_auto_answers_records(
            game, command, seat=seat, command_id=f"c{n}", at=AT, seed=SEED, nonce_key=VIEW_KEY
        )
        game, records, n = fold(game, new), records + new, n + 1
    return records


def project_exports(records: list[Recorded]) -> tuple[bytes, bytes]:
    """The full export of the ended game, and seat ``one``'s view of it just before its end."""
    game = fold(None, records)
    full = b"".join(
        line + b"\n" for line in reader_export_lines(game, records, Lens(game.ruleset, AUDITOR_VIEWER))
    )
    running = fold(None, records[:-1])
    lens = Lens(running.ruleset, seat_viewer(SEATS, "one"))
    view = b"".join(line + b"\n" for line in reader_export_lines(running, records[:-1], lens))
    return full, view


@pytest.fixture(scope="module")
def records() -> list[Recorded]:
    return project_game()


def test_the_projects_exports_of_the_game_are_the_vectors_files(records):
    full, view = project_exports(records)
    assert full == FULL.read_bytes()
    assert view == VIEW.read_bytes()


def test_the_projects_salts_digests_links_and_hashes_are_the_vectors(records, summary):
    assert (
        commitment(SEED) == summary["dice_commitment"]
        and commitment(VIEW_KEY) == summary["view_key_commitment"]
    )
    assert len(records) == len(summary["events"])
    for record, want in zip(records, summary["events"], strict=True):
        link = record_link(record)
        assert record.salt == event_salt(VIEW_KEY, GAME_ID, record.originator_version) == want["salt"]
        assert link.digest == want["digest"]
        assert msgspec.json.encode(link).decode() == want["link"]
        assert msgspec.json.encode(record.payload).decode() == want["payload"]
        assert link_hash(GAME_ID, record.originator_version, link) == want["hash"]


def test_the_projects_dice_derive_the_same_values(summary):
    for want in summary["derivations"]:
        k = want["k"]
        if want["kind"] == "roll":
            got = roll_faces(SEED, k, want["dice"], want["sides"])
        elif want["kind"] == "shuffle":
            got = shuffle_order(SEED, k, want["cards"])
        else:
            got = draw_cards(SEED, k, want["cards"], want["count"], want["weights"])
        assert list(got) == want["values"], want


def test_the_projects_verifier_accepts_the_vectors_files():
    with FULL.open("rb") as full:
        assert verify_file(full).ok
    with VIEW.open("rb") as view, FULL.open("rb") as full:
        report = verify_file(view, against=full)
        assert report.ok and report.view_key_revealed


def _write() -> None:  # pragma: no cover - run by hand to regenerate the vectors after a deliberate change
    records = project_game()
    full, view = project_exports(records)
    VECTORS.mkdir(exist_ok=True)
    FULL.write_bytes(full)
    VIEW.write_bytes(view)
    vectors = spec_check_full(FULL)
    vectors["view_one_digest_only"] = spec_check_view(VIEW, vectors)
    vectors["derivations"] = [{**case, "values": spec_derive(SEED, case)} for case in DERIVATIONS]
    SUMMARY.write_text(json.dumps(vectors, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    _write()
