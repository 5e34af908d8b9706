"""NATS_URL names one server or a cluster's, comma-separated, as nats-server's own tools take them."""

from __future__ import annotations

from shared.bus.connect import server_urls
from shared.infra.embedded_nats import Routes


def test_a_cluster_url_is_every_server_in_order() -> None:
    assert server_urls("nats://a:4222, nats://b:4222,nats://c:4222") == [
        "nats://a:4222", "nats://b:4222", "nats://c:4222"]
    assert server_urls("nats://127.0.0.1:4222") == ["nats://127.0.0.1:4222"]


def test_a_cluster_member_routes_to_every_other_member() -> None:
    args = Routes("league", 6001, (6000, 6001, 6002)).args()
    assert args == ["--cluster_name", "league", "--cluster", "nats://127.0.0.1:6001",
                    "--routes", "nats://127.0.0.1:6000,nats://127.0.0.1:6002"]
