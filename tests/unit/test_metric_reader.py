"""The integration tests' reader of a service's /metrics: one sample by its printed name, or a labelled metric's
sum, never a metric whose name merely starts the same; a declared metric's sample not yet seen is 0."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest

from tests.integration.helpers import metric

METRICS = b"""# HELP engine_partitions_owned engine partitions this replica owns now
# TYPE engine_partitions_owned gauge
engine_partitions_owned 3.0
# TYPE engine_partitions_owned_elsewhere gauge
engine_partitions_owned_elsewhere 9.0
# TYPE engine_requests_total counter
engine_requests_total{kind="command"} 5.0
engine_requests_total{kind="view"} 2.0
engine_requests_created{kind="view"} 1.7e+09
# TYPE engine_refusals_total counter
"""


class _Metrics(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(METRICS)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def url() -> Iterator[str]:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Metrics)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_a_sample_is_read_by_its_printed_name(url: str) -> None:
    assert metric(url, "engine_partitions_owned") == 3.0
    assert metric(url, 'engine_requests_total{kind="command"}') == 5.0


def test_a_bare_name_sums_the_labelled_samples(url: str) -> None:
    assert metric(url, "engine_requests_total") == 7.0


def test_a_declared_metric_without_the_sample_yet_reads_zero(url: str) -> None:
    assert metric(url, 'engine_refusals_total{code="hockey.turn.wrong-command"}') == 0.0
    assert metric(url, 'engine_requests_total{kind="abandon"}') == 0.0


def test_a_missing_metric_fails_naming_it(url: str) -> None:
    with pytest.raises(AssertionError, match="engine_requests is not in /metrics"):
        metric(url, "engine_requests")
