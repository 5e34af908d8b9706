"""NATS protocol frames (``PUB``/``HPUB``) made here and written through nats-py's own outgoing buffer, for a writer of
many messages at once (the relay's batches, ``shared.bus.acked_publish``).

nats-py's ``publish`` is a coroutine a message that checks the subject with a regular expression, builds the header
block from a dict through a ``bytearray`` and formats the command anew. Here a frame is one bytes formatting, and a
batch of them one write, made as ``publish`` makes its own (``Client._send_command``, then ``_flush_pending``), with
its checks: a closed or draining connection refuses, and while reconnecting the buffer holds no more than nats-py's
``pending_size``. Those parts of nats-py are private: it is pinned (pyproject.toml), and ``require_frame_writing``
refuses a client without them.
"""

from __future__ import annotations

from collections.abc import Sequence

from nats.aio.client import Client
from nats.errors import ConnectionClosedError, ConnectionDrainingError, MaxPayloadError, OutboundBufferLimitError

_PRIVATE = ("_send_command", "_flush_pending", "_pending_data_size", "_max_pending_size")


def require_frame_writing(nc: Client) -> None:
    if not all(hasattr(nc, name) for name in _PRIVATE):
        raise RuntimeError(f"this nats-py's Client lacks one of {', '.join(_PRIVATE)}: install the pinned one")


def checked(text: str, what: str) -> bytes:
    """``text`` as it may stand in a frame; ValueError when it is empty or holds a separator."""
    if not text or " " in text or "\t" in text or "\r" in text or "\n" in text:  # the protocol's separators
        raise ValueError(f"{what} {text!r} is empty or holds a space or a line break")
    return text.encode()


def header_line(name: str) -> bytes:
    return f"{name}: ".encode()


def frame(subject: bytes, reply: bytes, payload: bytes, headers: Sequence[tuple[bytes, bytes]],
          max_payload: int) -> bytes:
    """One message: ``subject`` and ``reply`` as ``checked`` made them, ``headers`` as (``header_line``, ``checked``
    value) pairs. MaxPayloadError when the server would refuse its size."""
    if not headers:
        if len(payload) > max_payload:
            raise MaxPayloadError(f"a message of {len(payload)} bytes; the server takes {max_payload}")
        return b"PUB %s %s %d\r\n%s\r\n" % (subject, reply, len(payload), payload)
    block = b"NATS/1.0\r\n" + b"".join([name + value + b"\r\n" for name, value in headers]) + b"\r\n"
    size = len(block) + len(payload)
    if size > max_payload:
        raise MaxPayloadError(f"a message of {size} bytes; the server takes {max_payload}")
    return b"HPUB %s %s %d %d\r\n%s%s\r\n" % (subject, reply, len(block), size, block, payload)


async def write(nc: Client, frames: bytes, messages: int, payload_bytes: int) -> None:
    """Send ``frames`` (``messages`` of them, ``payload_bytes`` of payload) as nats-py's ``publish`` would."""
    if nc.is_closed:
        raise ConnectionClosedError
    if nc.is_draining_pubs:
        raise ConnectionDrainingError
    if not nc.is_connected:
        limit = nc._max_pending_size  # noqa: SLF001
        if limit <= 0 or len(frames) + nc._pending_data_size > limit:  # noqa: SLF001
            raise OutboundBufferLimitError
    nc.stats["out_msgs"] += messages
    nc.stats["out_bytes"] += payload_bytes
    await nc._send_command(frames)  # noqa: SLF001 - see the module's docstring
    await nc._flush_pending()  # noqa: SLF001
