"""bench/delivery's peer row: aioapns (PyPI), a Python APNs client people use for this, sending the
same pushes as the gateway (the dispatch's payload, one per device token) to the same simulator.

    python3 aioapns_peer.py --port PORT --ca CERT --key-file KEY.p8 --key-id KEY --team-id TEAM \
        --topic TOPIC --payload FILE --tokens N --connections C

Prints "pushes_per_second elapsed_ms". aioapns is used as its README shows (APNs(key=..., key_id=...,
team_id=..., topic=..., use_sandbox=False), then send_notification per push), with max_connections set to
the gateway's connection count. It has no setting for another host, so its production host and port are
pointed at the simulator, and it trusts the simulator's certificate through its ssl_context option
(which also offers h2 by ALPN).
Concurrency is bounded at connections x the streams the server allows, as a sender would, so tasks wait
on a semaphore rather than in aioapns's busy-wait for a free connection.
"""
import argparse
import asyncio
import json
import ssl
import sys
import time

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol


async def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("--ca", "--key-file", "--key-id", "--team-id", "--topic", "--payload"):
        parser.add_argument(name, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tokens", type=int, required=True)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--streams", type=int, default=500, help="the server's SETTINGS_MAX_CONCURRENT_STREAMS")
    args = parser.parse_args()

    APNsProductionClientProtocol.APNS_SERVER = args.host
    APNsProductionClientProtocol.APNS_PORT = args.port
    with open(args.key_file) as f:
        key = f.read()
    with open(args.payload) as f:
        message = json.load(f)
    context = ssl.create_default_context(cafile=args.ca)
    # aioapns offers no ALPN (Apple's servers speak HTTP/2 without it); the simulator, like most HTTP/2
    # servers, picks h2 by ALPN, so the context offers it.
    context.set_alpn_protocols(["h2"])
    client = APNs(
        key=key, key_id=args.key_id, team_id=args.team_id, topic=args.topic, use_sandbox=False,
        max_connections=args.connections, ssl_context=context)
    window = asyncio.Semaphore(args.connections * args.streams)
    failures = []

    async def send(index: int) -> None:
        async with window:
            result = await client.send_notification(NotificationRequest(
                device_token="%064x" % index, message=message, priority=10, time_to_live=3600,
                push_type=PushType.LIVEACTIVITY))
            if not result.is_successful:
                failures.append((result.status, result.description))

    started = time.monotonic()
    await asyncio.gather(*(send(i) for i in range(1, args.tokens + 1)))
    elapsed = time.monotonic() - started
    if failures:
        print(f"aioapns: {len(failures)} of {args.tokens} pushes failed, first: {failures[0]}", file=sys.stderr)
        return 1
    print(f"{int(args.tokens / elapsed)} {elapsed * 1000:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
