"""Partitions of games (``dicelog.service.store.partitions``): the stored names and the setting.

The partition of a notification and the tracking records' application name are stored names (the
checkpoints of every projection are kept under them): they must never change.
"""

from __future__ import annotations

from uuid import UUID

import pytest

from dicelog.service.ops.settings import Settings
from dicelog.service.store.partitions import partition_of, tracking_name

GAME = UUID("7f3c1e2a-9b4d-4c8e-a1f0-5d6b7c8e9f01")


def test_a_partition_is_the_uuid_as_an_integer_modulo_the_count() -> None:
    assert partition_of(GAME, 8) == GAME.int % 8 == 1
    assert partition_of(str(GAME), 8) == 1  # the notification's originator id may come as text
    assert partition_of(GAME, 1) == 0
    assert {partition_of(UUID(int=n), 8) for n in range(64)} == set(range(8))


def test_the_tracking_name_of_a_partition_is_stored_as_written() -> None:
    assert tracking_name("Games", 3, 8) == "Games#3/8"


def test_partitions_default_to_one_and_more_need_postgresql() -> None:
    assert Settings.from_env({}).partitions == 1
    settings = Settings.from_env(
        {"DICELOG_STORE": "postgres", "DICELOG_PARTITIONS": "8", "DICELOG_LEASE_TTL": "3"}
    )
    assert (settings.partitions, settings.lease_ttl) == (8, 3.0)
    with pytest.raises(
        ValueError, match="DICELOG_PARTITIONS=.2.: more than 1 partition needs DICELOG_STORE=postgres"
    ):
        Settings.from_env({"DICELOG_PARTITIONS": "2"})
    for bad in ("0", "x", "1025"):
        with pytest.raises(ValueError, match="DICELOG_PARTITIONS"):
            Settings.from_env({"DICELOG_STORE": "postgres", "DICELOG_PARTITIONS": bad})
    with pytest.raises(ValueError, match="DICELOG_LEASE_TTL"):
        Settings.from_env({"DICELOG_LEASE_TTL": "0"})
