"""Sends Live Activity pushes to an APNs simulator with aioapns (PyPI), as a customer's Python server
would, and prints what came back, for AioapnsInteropTests.

    python3 aioapns_send.py PORT CA_FILE KEY_FILE COUNT GONE_TOKEN

Tokens 1..COUNT (as 64 hex digits) get an update each, GONE_TOKEN one more. Prints one JSON object:
{"statuses": {"200": n, ...}, "gone": [status, reason]}. aioapns has no option for another host, so its
production host and port are pointed at the simulator; its ssl_context option trusts the simulator's
certificate.
"""
import asyncio
import json
import ssl
import sys

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol


async def main(port: int, ca_file: str, key_file: str, count: int, gone_token: str) -> None:
    APNsProductionClientProtocol.APNS_SERVER = "127.0.0.1"
    APNsProductionClientProtocol.APNS_PORT = port
    context = ssl.create_default_context(cafile=ca_file)
    context.set_alpn_protocols(["h2"])
    with open(key_file) as f:
        key = f.read()
    client = APNs(key=key, key_id="KEY1234567", team_id="TEAM123456", topic="com.example.scores.push-type.liveactivity",
                  use_sandbox=False, max_connection_attempts=1, ssl_context=context)

    def request(token: str, score: int) -> NotificationRequest:
        message = {"aps": {"timestamp": 1700000000 + score, "event": "update", "content-state": {"home": score}}}
        return NotificationRequest(device_token=token, message=message, priority=10, time_to_live=3600,
                                   push_type=PushType.LIVEACTIVITY)

    results = await asyncio.gather(*(client.send_notification(request("%064x" % i, i)) for i in range(1, count + 1)))
    gone = await client.send_notification(request(gone_token, 0))
    statuses: dict = {}
    for result in results:
        statuses[result.status] = statuses.get(result.status, 0) + 1
    print(json.dumps({"statuses": statuses, "gone": [gone.status, gone.description]}))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]))
