"""bench/broadcast's measuring half (run.sh starts everything): creates the activity's channel, posts
updates one after another and reads when each broadcast's 200 came in (`dispatches.broadcast_at`), then
registers the tokens and times one update's per-device fan-out. Prints the table row for docs/benchmarks.md.

    python3 bench/broadcast/updates.py GATEWAY_URL API_KEY APP_ID UPDATES TOKENS   (DATABASE_URL set)
"""
import http.client
import json
import os
import subprocess
import sys
import time
import urllib.parse

gateway, api_key, app_id, updates, tokens = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
activity = "bench-final"
database = os.environ["DATABASE_URL"]
address = urllib.parse.urlsplit(gateway)
connection = http.client.HTTPConnection(address.hostname, address.port)


def post(path, body):
    """Posts JSON; returns (status, body, when the answer had arrived)."""
    connection.request("POST", path, json.dumps(body),
                       {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    return response.status, json.loads(data or b"{}"), time.time()


def sql(query):
    return subprocess.run(["psql", database, "-v", "ON_ERROR_STOP=1", "-qtA", "-F", " ", "-c", query],
                          check=True, capture_output=True, text=True).stdout.strip()


def wait_until(query, seconds=600):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if sql(query) == "t":
            return
        time.sleep(0.01)
    sys.exit(f"bench/broadcast: gave up waiting for: {query}")


def broadcast_delays(sent):
    """Milliseconds from each update's 201 to its broadcast's 200, in the order sent."""
    ids = ",".join(f"'{dispatch}'" for dispatch, _ in sent)
    wait_until(f"SELECT count(*) = {len(sent)} FROM dispatches WHERE id IN ({ids}) AND status = 'done'")
    rows = dict(line.split() for line in sql(
        f"SELECT id, extract(epoch FROM broadcast_at) FROM dispatches WHERE id IN ({ids})").splitlines())
    statuses = sql(f"SELECT DISTINCT broadcast_status FROM dispatches WHERE id IN ({ids})")
    if statuses != "200":
        sys.exit(f"bench/broadcast: broadcast statuses {statuses!r}, expected only 200")
    return [(float(rows[dispatch]) - answered) * 1000 for dispatch, answered in sent]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


status, body, _ = post("/live_activity/channels", {"app_id": app_id, "activity_id": activity})
if status != 201:
    sys.exit(f"bench/broadcast: channel creation answered {status} {body}")

sent = []
for minute in range(updates):
    status, body, answered = post("/messages/live_activity/update", {
        "app_id": app_id, "activity_id": activity, "content_state": {"home": 1, "away": 0, "minute": minute}})
    if status != 201:
        sys.exit(f"bench/broadcast: update answered {status} {body}")
    sent.append((body["dispatch_id"], answered))
delays = broadcast_delays(sent)

sql(f"""INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
        SELECT (SELECT id FROM apps WHERE app_identifier = '{app_id}'), '{activity}', 'device-' || i,
               lpad(to_hex(i), 64, '0')
        FROM generate_series(1, {tokens}) i""")
sql("VACUUM ANALYZE activity_tokens")
status, body, answered = post("/messages/live_activity/update", {
    "app_id": app_id, "activity_id": activity, "content_state": {"home": 2, "away": 0, "minute": 90}})
if status != 201:
    sys.exit(f"bench/broadcast: update answered {status} {body}")
dispatch = body["dispatch_id"]
[fanout_broadcast] = broadcast_delays([(dispatch, answered)])
sent_count, completed = sql(
    f"SELECT sent_count, extract(epoch FROM completed_at) FROM dispatches WHERE id = '{dispatch}'").split()
if int(sent_count) != tokens:
    sys.exit(f"bench/broadcast: the fan-out sent {sent_count} of {tokens}")
fanout_ms = (float(completed) - answered) * 1000

print(f"{updates} broadcast-only updates, then one update to a channel plus {tokens} registered tokens", file=sys.stderr)
print("| updates | broadcast 201→200 p50 | p99 | max | tokens | that update's broadcast | its per-device fan-out | fan-out ÷ broadcast p50 |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
p50 = percentile(delays, 0.5)
print(f"| {updates} | {p50:.1f} ms | {percentile(delays, 0.99):.1f} ms | {max(delays):.1f} ms | {tokens} "
      f"| {fanout_broadcast:.1f} ms | {fanout_ms:.0f} ms | {fanout_ms / max(p50, 0.001):.0f}× |")
