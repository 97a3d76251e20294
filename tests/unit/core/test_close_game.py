"""``CloseGame``: the service ends a running game that is no longer played (a campaign's revert closes the
reverted chapter's game, docs/campaigns.md): ``GameEnded`` with the given result, the seed revealed, no
command after it, and the log still re-derives."""

from __future__ import annotations

import pytest

from dicelog.domain.core.campaign import project_campaign
from dicelog.domain.core.commands import CloseGame, Shuffle
from dicelog.domain.core.dice import commitment
from dicelog.domain.core.errors import GameOver, NotThisAggregate
from dicelog.domain.core.events import CommandAccepted, GameEnded
from dicelog.domain.core.game import project_game
from dicelog.domain.core.verify import verify
from dicelog.domain.core.visibility import SPECTATOR_VIEWER, Lens
from tests.unit.core.race import RACE, Advance
from tests.unit.core.test_campaign import Log
from tests.unit.core.test_game import SEED, new_game, run


def test_closing_a_running_game_ends_it_with_the_result_given_and_reveals_the_seed():
    records, game = new_game("server", seed=SEED)
    close = CloseGame(result="reverted", reason="campaign reverted")
    records, game = run(records, game, close, "server", SEED)
    accepted, ended = records[-2].payload, records[-1].payload
    assert isinstance(accepted, CommandAccepted) and isinstance(ended, GameEnded)
    assert (ended.result, ended.reason) == ("reverted", "campaign reverted")
    assert game.result == "reverted" and commitment(bytes.fromhex(ended.seed)) == game.created.dice_commitment
    with pytest.raises(GameOver):
        run(records, game, Advance(piece="a"), "one", SEED)
    verification = verify(records)
    assert verification.ok and verification.seed_revealed, verification


def test_a_game_closed_while_a_roll_is_pending_still_verifies_and_every_reader_sees_the_close():
    records, game = new_game("manual")
    records, game = run(records, game, Shuffle(order=("a", "b")), "one")
    records, game = run(records, game, Advance(piece="a"), "one")
    assert game.pending is not None
    records, game = run(records, game, CloseGame(result="reverted"), "server")
    assert game.result == "reverted" and verify(records).ok
    accepted = records[-2].payload
    assert Lens(RACE, SPECTATOR_VIEWER).event(accepted, seat="server") == accepted


def test_a_campaigns_events_are_no_game_and_a_games_events_no_campaign():
    records, _ = new_game()
    with pytest.raises(NotThisAggregate):
        project_campaign(None, records)
    with pytest.raises(NotThisAggregate):
        project_game(None, Log().records)
