"""JetStream's side of the relay: messages/s into the event stream on one nats-server (1 replica) and on a 3-node
cluster (3 replicas, ``JETSTREAM_REPLICAS=3``), published as the relay publishes (``AckedPublisher.publish_all``:
batches of 250 written at once, each message with its Nats-Msg-Id and expected stream, every acknowledgement awaited
before the next batch), with the nats-servers' CPU and the publisher's own per message from /proc. The servers and the
publisher share this machine's cores.

    python -m bench.jetstream [--messages 20000] [--bytes 1400] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.hardware import describe
from bench.proc_cpu import sample
from shared.bus.acked_publish import AckedPublisher, Outgoing
from shared.bus.auth import ADMIN
from shared.bus.connect import connect
from shared.bus.namespace import Namespace
from shared.bus.streams import ensure_events_stream
from shared.infra.embedded_nats import EmbeddedNats
from shared.infra.nats_auth import auth_config, nkey_file
from shared.infra.nats_cluster import EmbeddedNatsCluster

BATCH = 250
"""Messages written at once: a page of the relay (``RELAY_BATCH``, 500 events) in messages of about two events."""


@contextmanager
def servers(folder: Path, size: int) -> Iterator[tuple[str, dict[str, int]]]:
    """``size`` 1: one nats-server; more: a cluster. Yields the URL and each server's pid."""
    auth = auth_config(folder / "secrets", [""])
    if size == 1:
        single = EmbeddedNats(folder / "nats", auth)
        try:
            yield single.start(), {single.name: single.pid}
        finally:
            single.stop()
        return
    cluster = EmbeddedNatsCluster(folder / "cluster", auth, size=size)
    try:
        yield cluster.start(), {server.name: server.pid for server in cluster.servers}
    finally:
        cluster.stop()


async def publish(url: str, nkey: str, replicas: int, messages: int, size: int,
                  pids: dict[str, int]) -> dict[str, Any]:
    nc = await connect(url, name="bench-jetstream", nkey_file=nkey)
    ns = Namespace()
    await ensure_events_stream(nc.jetstream(), ns, replicas=replicas)
    publisher = AckedPublisher(nc)
    await publisher.start()
    payload = b"x" * size
    try:
        before, began, own = sample(pids), time.perf_counter(), time.process_time()
        for start in range(0, messages, BATCH):
            batch = await publisher.publish_all(
                [Outgoing(ns.event_subject("bench", f"bench-{n % 1000}"), payload, str(uuid.uuid4()), ns.events_stream)
                 for n in range(start, min(start + BATCH, messages))])
            await batch.done
        elapsed, own = time.perf_counter() - began, time.process_time() - own
        after = sample(pids)
    finally:
        await publisher.close()
        await nc.close()
    cpu = sum(after[name] - before[name] for name in pids)
    return {"replicas": replicas, "servers": len(pids), "messages": messages, "bytes": size,
            "messages_per_s": round(messages / elapsed, 1), "seconds": round(elapsed, 2),
            "nats_cpu_ms_per_message": round(cpu * 1000 / messages, 4),
            "publisher_cpu_ms_per_message": round(own * 1000 / messages, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--bytes", type=int, default=1400,
                        help="payload of each message: the relay's hold a stream's events of one transaction (a"
                             " command's public ones, or its private draws); bench.event_volume prints their mean")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    print(f"JetStream benchmark — {describe()}; {args.messages:,} messages of {args.bytes} bytes, batches of {BATCH}"
          " acknowledged as the relay does", flush=True)
    rows = []
    for size in (1, 3):
        with tempfile.TemporaryDirectory(prefix="bench-jetstream-") as tmp, servers(Path(tmp), size) as (url, pids):
            nkey = str(nkey_file(Path(tmp) / "secrets", ADMIN))
            rows.append(asyncio.run(publish(url, nkey, size, args.messages, args.bytes, pids)))
        row = rows[-1]
        print(f"  {row['servers']} server(s), stream replicas {row['replicas']}: {row['messages_per_s']:,.0f}"
              f" messages/s, CPU per message: nats-server {row['nats_cpu_ms_per_message']:.3f} ms, publisher"
              f" {row['publisher_cpu_ms_per_message']:.3f} ms", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
        print(f"  figures written to {args.json}")


if __name__ == "__main__":
    main()
