"""Domain metrics for Prometheus (issue 12, Observability), beside Litestar's HTTP metrics.

Served at ``/metrics`` by the API (``dicelog serve``) and by ``dicelog worker`` (its probe port),
from prometheus_client's default registry. Every label comes from a fixed set (command and event
type tags of the shipped rulesets, rule ids of the code, consumer names, outcomes): never a game
id, a seat or a token, so the number of series does not grow with the games played.

- ``dicelog_commands_total{command, outcome}`` (counter): commands sent to
  ``POST /games/{id}/commands``, by the command's type tag (a ruleset's tags are its own:
  ``Move``, ``vast.Move``) and what became of it: ``accepted``,
  ``refused`` (a rule broken: 4xx ``urn:dicelog:rule:*``), ``conflict`` (stale
  ``expected_version``), ``forbidden`` (not this seat's piece or turn; a bad token),
  ``unavailable`` (the store could not write: 503) or ``error`` (a bug: 500).
- ``dicelog_rule_refusals_total{rule}`` (counter): refusals by rule id (``move.full-space``...),
  whichever request broke the rule.
- ``dicelog_events_written_total{event}`` (counter): events this process stored, by event type.
- ``dicelog_consumer_lag_events{consumer, lane}`` (gauge, read at scrape time): stored events a
  projection or the Redis publisher has not processed yet (the store's newest notification id
  minus the consumer's checkpoint); ``dicelog_consumer_failing{consumer, lane}`` is 1 while its
  last pass failed (e.g. Redis down), else 0.
- ``dicelog_events_processed_total{consumer}`` (counter): notifications of the store's log (game
  events and the service's records) that this process's projections and Redis publisher processed,
  by consumer (``board``, ``initiative``, ``log``, ``audit_index``, ``publisher``): with several
  processes following the log, how the work is shared.
  With ``DICELOG_PARTITIONS`` > 1 only the notifications of the partitions this process holds count
  (the sum over the workers is the log's length).
- ``dicelog_partitions_held`` (gauge): partitions of games this process holds a lease on
  (``dicelog.service.store.partitions``); ``dicelog_partition_leases_total{change}`` (counter): leases
  ``acquired``, ``released`` and ``lost`` (expired before renewal: the process stalled or lost the store).
- ``dicelog_commit_group_size`` (histogram): saves written in one store transaction by the group
  commit of the write lane (``dicelog.service.store.write_lane.GroupCommit``); 1 when writes come one at a
  time.
- ``dicelog_sse_clients`` (gauge): server-sent event streams open in this process.
"""

from __future__ import annotations

import weakref
from collections import Counter as Tally
from collections.abc import Iterator
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from dicelog.domain.core.errors import DomainError

COMMANDS = Counter(
    "dicelog_commands",
    "Commands sent to POST /games/{id}/commands, by command type and outcome.",
    ["command", "outcome"],
)
RULE_REFUSALS = Counter(
    "dicelog_rule_refusals", "Requests refused because they broke a rule, by rule id.", ["rule"]
)
EVENTS_WRITTEN = Counter("dicelog_events_written", "Events stored by this process, by event type.", ["event"])
EVENTS_PROCESSED = Counter(
    "dicelog_events_processed",
    "Notifications of the store's log processed by this process's projections and publisher, by consumer.",
    ["consumer"],
)
PARTITIONS_HELD = Gauge(
    "dicelog_partitions_held",
    "Partitions of games whose projections and publishing this process holds a lease on "
    "(DICELOG_PARTITIONS > 1).",
)
PARTITION_LEASES = Counter(
    "dicelog_partition_leases",
    "Partition leases this process acquired, released (its share shrank, or it stopped) or lost "
    "(expired before renewal).",
    ["change"],
)
COMMIT_GROUP_SIZE = Histogram(
    "dicelog_commit_group_size",
    "Saves (a command's events, a creation...) written together in one store transaction: group commit.",
    buckets=(1, 2, 4, 8, 16, 32),
)
SSE_CLIENTS = Gauge("dicelog_sse_clients", "Server-sent event streams open in this process.")


def command_tag(command: Any) -> str:
    """The stored type tag of a command (``Move``, ``vast.Move``...): its msgspec tag."""
    tag = getattr(getattr(command, "__struct_config__", None), "tag", None)
    return tag if isinstance(tag, str) else type(command).__name__


def count_refusal(exc: DomainError) -> None:
    """Count a request refused by a rule (called where refusals become problem responses)."""
    RULE_REFUSALS.labels(exc.rule).inc()


def count_events(payloads: Iterator[Any]) -> None:
    """Count stored events by type (called after each save): one ``labels(...).inc(n)`` per type,
    not per event (a command stores 13 events on average; ``labels`` takes a lock each time)."""
    for name, n in Tally(type(payload).__name__ for payload in payloads).items():
        EVENTS_WRITTEN.labels(name).inc(n)


class ConsumerLag(Collector):
    """Reads each consumer's lag from the store when scraped (never on the write path).

    Follows the newest ``Follower`` handed to ``follow`` (one per process in production; tests
    open several apps in turn), held weakly so a closed app is not kept alive."""

    def __init__(self) -> None:
        self._follower: weakref.ref[Any] | None = None

    def follow(self, follower: Any) -> None:
        self._follower = weakref.ref(follower)

    def forget(self, follower: Any) -> None:
        if self._follower is not None and self._follower() is follower:
            self._follower = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        lag = GaugeMetricFamily(
            "dicelog_consumer_lag_events",
            "Stored events a projection or the publisher has not processed yet.",
            labels=["consumer", "lane"],
        )
        failing = GaugeMetricFamily(
            "dicelog_consumer_failing",
            "1 while the consumer's last pass failed (e.g. Redis down), else 0.",
            labels=["consumer", "lane"],
        )
        follower = self._follower() if self._follower is not None else None
        if follower is not None:
            for name, lane, behind in follower.lags():
                labels = [name, lane]
                if behind is not None:
                    lag.add_metric(labels, behind)
                failing.add_metric(labels, 1 if name in follower.errors else 0)
        yield lag
        yield failing


CONSUMER_LAG = ConsumerLag()
REGISTRY.register(CONSUMER_LAG)
