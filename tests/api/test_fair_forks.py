"""Fair dice under forks (docs/event-model.md, Undo never deletes: forks; Provably fair dice), through the API
with the core's small ``race`` ruleset (it ends in a few rolls, so forks of ended games are cheap)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar.testing import TestClient

SEATS = [{"name": "one", "controls": ["a"]}, {"name": "two", "controls": ["b"]}]


def _new(client: TestClient[Any]) -> dict[str, Any]:
    body = {"ruleset": "race", "setup": {"pieces": ["a", "b"], "goal": 12}, "seats": SEATS}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play_to_end(client: TestClient[Any], game_id: str, tokens: dict[str, str]) -> None:
    for _ in range(100):
        game = client.get(f"/games/{game_id}").json()
        if game["result"] is not None:
            return
        piece = game["turn"]
        seat = "one" if piece == "a" else "two"
        r = client.post(
            f"/games/{game_id}/commands",
            json={"command": {"type": "Advance", "piece": piece}},
            headers=_auth(tokens[seat]),
        )
        assert r.status_code == 201, r.text
    raise AssertionError("the race did not end")


def _rolls(client: TestClient[Any], game_id: str) -> list[list[int]]:
    return [
        c["result"]
        for c in client.get(f"/games/{game_id}/dice").json()["chances"]
        if c["type"] == "DiceRolled"
    ]


def test_a_fork_of_a_running_game_played_to_its_end_reveals_its_own_seed_not_the_originals(race):
    made = _new(race)
    game_id, tokens = made["game"]["id"], {t["seat"]: t["token"] for t in made["tokens"]}
    piece = made["game"]["turn"]
    seat = "one" if piece == "a" else "two"
    r = race.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "Advance", "piece": piece}},
        headers=_auth(tokens[seat]),
    )
    assert r.status_code == 201, r.text
    version = race.get(f"/games/{game_id}").json()["version"]
    fork = race.post(
        f"/games/{game_id}/forks", json={"version": version}, headers=_auth(tokens["one"])
    ).json()
    fork_id = fork["game"]["id"]
    fork_tokens = {"one": fork["tokens"][0]["token"]}
    fork_tokens["two"] = race.post(f"/games/{fork_id}/claims", headers=_auth(tokens["two"])).json()["token"]
    _play_to_end(race, fork_id, fork_tokens)
    original_seed = race.app.state.runtime.games.secret(UUID(game_id)).seed
    assert original_seed not in race.get(f"/games/{fork_id}/events", params={"limit": 1000}).text
    proof = race.get(f"/games/{fork_id}/dice").json()
    assert proof["seed_matches_commitment"] is True and proof["seed"] != original_seed
    own = [c for c in proof["chances"] if c["version"] > version]
    inherited = [c for c in proof["chances"] if c["version"] <= version]
    assert own and all(c["rederived"] for c in own if c["source"] == "server")
    assert inherited and all(c["rederived"] is None for c in inherited), (
        "proven by the original, not the fork"
    )
    verification = race.post(f"/games/{fork_id}/verify").json()["verification"]
    assert verification["ok"] and verification["dice_checked"] == len(
        [c for c in own if c["source"] == "server"]
    )
    assert race.get(f"/games/{game_id}").json()["result"] is None, "the original runs on, untouched"


def test_forks_of_an_ended_game_keep_the_revealed_seed_so_the_same_commands_meet_the_same_dice(race):
    made = _new(race)
    game_id, tokens = made["game"]["id"], {t["seat"]: t["token"] for t in made["tokens"]}
    _play_to_end(race, game_id, tokens)
    events = race.get(f"/games/{game_id}/events", params={"limit": 1000}).json()["events"]
    boundary = next(e["version"] for e in events if e["type"] == "CommandAccepted" and e["seat"] == "one") - 1
    forks = []
    for _ in range(2):
        r = race.post(f"/games/{game_id}/forks", json={"version": boundary}, headers=_auth(tokens["one"]))
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["game"]["dice_commitment"] == made["game"]["dice_commitment"]
        fork_tokens = {"one": body["tokens"][0]["token"]}
        claim = race.post(f"/games/{body['game']['id']}/claims", headers=_auth(tokens["two"]))
        fork_tokens["two"] = claim.json()["token"]
        _play_to_end(race, body["game"]["id"], fork_tokens)
        forks.append(body["game"]["id"])
    assert _rolls(race, forks[0]) == _rolls(race, forks[1]) == _rolls(race, game_id)
    assert all(race.post(f"/games/{f}/verify").json()["verification"]["ok"] for f in forks)


def test_a_command_of_another_ruleset_is_a_clear_422_and_changes_nothing(race):
    """docs/api.md, API shape (the ruleset boundary): one command union serves every ruleset, and a
    game refuses another ruleset's command by name."""
    made = _new(race)
    game_id, tokens = made["game"]["id"], {t["seat"]: t["token"] for t in made["tokens"]}
    version = made["game"]["version"]
    r = race.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "EndTurn", "mouse": "a"}},
        headers=_auth(tokens["one"]),
    )
    assert r.status_code == 422 and r.json()["rule"] == "command.wrong-ruleset", r.text
    assert "race" in r.json()["detail"] and r.headers["content-type"].startswith("application/problem+json")
    assert race.get(f"/games/{game_id}").json()["version"] == version
    unknown = race.post("/games", json={"ruleset": "chess", "setup": {}, "seats": SEATS})
    assert unknown.status_code == 400 and "ruleset" in unknown.text
    assert [r["name"] for r in race.get("/rulesets").json()] == ["mice-and-mystics", "race"]
