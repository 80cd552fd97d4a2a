"""bench/freshness's measuring half (run.sh starts everything).

    python3 bench/freshness/updates.py measure GATEWAY_URL API_KEY APP_ID ACTIVITY DEVICES ROUND SCENARIO PUSHES_FILE
        Runs one scenario (single, five-on or five-off) against a running gateway: posts the update(s),
        waits through the dispatch resource until every one has finished, reads the simulator's recorded
        pushes (LIVEGATE_BENCH_SIMULATOR, LIVEGATE_BENCH_SIMULATOR_CA) and prints one JSON line.
    python3 bench/freshness/updates.py report RESULTS_FILE DEVICES
        Prints the table for docs/benchmarks.md and checks the goals.
"""
import datetime
import http.client
import json
import os
import subprocess
import sys
import time
import urllib.parse

UPDATES = 5
INTERVAL = 0.2  # seconds between the starts of the five POSTs
POLL = 0.02
FINISHED = {"done", "failed", "superseded", "cancelled"}


def fail(message):
    sys.exit(f"bench/freshness: {message}")


def epoch(iso):
    """`2026-11-23T18:30:00.250Z` → seconds since 1970."""
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


class Gateway:
    def __init__(self, url, api_key):
        address = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(address.hostname, address.port)
        self.headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}

    def request(self, method, path, body=None):
        """Returns (status, JSON body, when the answer had arrived)."""
        self.connection.request(method, path, None if body is None else json.dumps(body), self.headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, json.loads(data or b"{}"), time.time()

    def dispatch(self, dispatch_id):
        status, body, _ = self.request("GET", f"/messages/live_activity/dispatches/{dispatch_id}")
        if status != 200:
            fail(f"GET dispatch {dispatch_id} answered {status} {body}")
        return body

    def wait(self, dispatch_id, deadline):
        while True:
            body = self.dispatch(dispatch_id)
            if body["status"] in FINISHED:
                return body
            if time.time() > deadline:
                fail(f"dispatch {dispatch_id} still '{body['status']}' (sent {body['devices']['sent']}) at the time limit")
            time.sleep(POLL)


def recorded_pushes(path):
    """The simulator's accepted pushes, oldest first (curl: the simulator speaks HTTP/2 only)."""
    subprocess.run(["curl", "-fsS", "--http2", "--cacert", os.environ["LIVEGATE_BENCH_SIMULATOR_CA"], "-o", path,
                    os.environ["LIVEGATE_BENCH_SIMULATOR"] + "/_sim/pushes"], check=True)
    with open(path, "rb") as file:
        pushes = json.load(file)
    os.remove(path)
    return pushes


def check_pushes(pushes, devices, updates, tag):
    """Per device, the states it received in arrival order: how many devices got anything, how many ended
    on the last state, how many ever went back to an older state, the pushes per update, and how many
    pushes repeated a state the device already had (`same_apns_id`: the very same push again)."""
    last, went_back, per_step = {}, 0, [0] * updates
    backwards, seen, repeated, same_apns_id = set(), {}, 0, 0
    for push in pushes:
        state = push["payload"]["aps"]["content-state"]
        if state.get("tag") != tag:
            continue
        step, token = state["step"], push["device_token"]
        per_step[step - 1] += 1
        apns_id = push["headers"].get("apns-id")
        if (token, step) in seen:
            repeated += 1
            same_apns_id += seen[(token, step)] == apns_id
        seen[(token, step)] = apns_id
        previous = last.get(token)
        if previous is not None and step < previous and token not in backwards:
            backwards.add(token)
            went_back += 1
        last[token] = step
    return {"devices_reached": len(last), "last_is_final": sum(1 for step in last.values() if step == updates),
            "went_back": went_back, "pushes_per_update": per_step, "repeated": repeated, "same_apns_id": same_apns_id}


def measure(url, api_key, app_id, activity, devices, round_number, scenario, pushes_path):
    gateway = Gateway(url, api_key)
    updates = 1 if scenario == "single" else UPDATES
    tag = f"{round_number}-{scenario}"
    posted = []
    start = time.time()
    for step in range(1, updates + 1):
        pause = start + (step - 1) * INTERVAL - time.time()
        if pause > 0:
            time.sleep(pause)
        status, body, answered = gateway.request("POST", "/messages/live_activity/update", {
            "app_id": app_id, "activity_id": activity, "content_state": {"tag": tag, "step": step}})
        if status != 201:
            fail(f"update {step} answered {status} {body}")
        posted.append((body["dispatch_id"], answered))
    # A generous limit: five full fan-outs at 500 pushes a second.
    deadline = time.time() + max(600, UPDATES * devices / 500)
    gateway.wait(posted[-1][0], deadline)
    finished = [gateway.wait(dispatch_id, deadline) for dispatch_id, _ in posted]
    check = None
    limit = int(os.environ.get("LIVEGATE_BENCH_PUSH_CHECK_LIMIT", "250000"))
    total_sent = sum(body["devices"]["sent"] for body in finished)
    if total_sent <= limit:
        check = check_pushes(recorded_pushes(pushes_path), devices, updates, tag)
    print(json.dumps({
        "round": round_number, "scenario": scenario, "devices": devices,
        "dispatches": [{
            "id": dispatch_id, "status": body["status"], "answered": answered,
            "accepted_at": epoch(body["accepted_at"]),
            "completed_at": epoch(body["completed_at"]) if body["completed_at"] else None,
            "superseded_by": body.get("superseded_by"), **body["devices"]}
            for (dispatch_id, answered), body in zip(posted, finished)],
        "check": check}))


def report(results_path, devices):
    rows = [json.loads(line) for line in open(results_path)]
    problems, goals = [], []
    print("| round | scenario | pushes sent | ÷ devices | sent per update | statuses | last 201 → last update done "
          "| ÷ single fan-out | last 201 → all finished | retried | pushes the simulator accepted (repeats) "
          "| devices whose last push is the last state |")
    print("|---:|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|")
    single_ms = {}
    for row in rows:
        dispatches = row["dispatches"]
        round_number, scenario = row["round"], row["scenario"]
        name = {"single": "one update", "five-on": "5 updates, supersession on",
                "five-off": "5 updates, supersession off"}[scenario]
        last = dispatches[-1]
        if any(d["completed_at"] is None for d in dispatches):
            problems.append(f"round {round_number} {scenario}: a finished dispatch has no completed_at: {dispatches}")
            continue
        total = sum(d["sent"] for d in dispatches)
        last_ms = (last["completed_at"] - last["answered"]) * 1000
        all_ms = (max(d["completed_at"] for d in dispatches) - last["answered"]) * 1000
        if scenario == "single":
            single_ms[round_number] = last_ms
        baseline = single_ms.get(round_number)
        ratio = f"{last_ms / baseline:.2f}×" if baseline else "–"
        check = row["check"]
        if check is None:
            reached = "not read (over LIVEGATE_BENCH_PUSH_CHECK_LIMIT pushes)"
            accepted = "–"
        else:
            accepted = f"{sum(check['pushes_per_update'])} ({check['repeated']})"
            reached = f"{check['last_is_final']} of {devices}"
            if check["went_back"]:
                reached += f"; {check['went_back']} went back to an older state"
        statuses = "/".join(d["status"] for d in dispatches)
        print(f"| {round_number} | {name} | {total} | {total / devices:.2f} | {'/'.join(str(d['sent']) for d in dispatches)} "
              f"| {statuses} | {last_ms:.0f} ms | {ratio} | {all_ms:.0f} ms | {sum(d['retried'] for d in dispatches)} "
              f"| {accepted} | {reached} |")

        # What each scenario should have left behind.
        for index, d in enumerate(dispatches, 1):
            if d["failed"]:
                problems.append(f"round {round_number} {scenario}: update {index} failed for {d['failed']} devices")
        if last["status"] != "done" or last["sent"] != devices:
            problems.append(f"round {round_number} {scenario}: the last update ended '{last['status']}' "
                            f"with {last['sent']} of {devices} sent")
        if scenario == "five-off":
            for index, d in enumerate(dispatches, 1):
                if d["status"] != "done" or d["sent"] != devices:
                    problems.append(f"round {round_number} five-off: update {index} ended '{d['status']}' "
                                    f"with {d['sent']} of {devices} sent (supersession was off)")
        if scenario == "five-on":
            for index, d in enumerate(dispatches[:-1], 1):
                if d["status"] != "superseded":
                    problems.append(f"round {round_number} five-on: update {index} ended '{d['status']}', not superseded")
                if d["completed_at"] > last["completed_at"]:
                    problems.append(f"round {round_number} five-on: update {index} finished after the last one")
        if check is not None:
            sent = [d["sent"] for d in dispatches]
            if check["pushes_per_update"] != sent:
                problems.append(f"round {round_number} {scenario}: the simulator accepted {check['pushes_per_update']} "
                                f"pushes per update, the dispatches count {sent} sent")
            if check["repeated"]:
                problems.append(f"round {round_number} {scenario}: {check['repeated']} pushes repeated a state the "
                                f"device had already been sent ({check['same_apns_id']} with the same apns-id)")
            if check["devices_reached"] != devices:
                problems.append(f"round {round_number} {scenario}: {check['devices_reached']} of {devices} devices got a push")
            # Without supersession, devices ending on an older state is what is being measured, not a fault.
            if scenario != "five-off" and check["last_is_final"] != devices:
                problems.append(f"round {round_number} {scenario}: {check['last_is_final']} of {devices} devices "
                                "ended on the last state")
            if scenario != "five-off" and check["went_back"]:
                problems.append(f"round {round_number} {scenario}: {check['went_back']} devices got an older state "
                                "after a newer one")
        if scenario == "five-on" and baseline:
            goals.append((f"round {round_number}: pushes {total} ≤ 2 × {devices} devices", total <= 2 * devices))
            goals.append((f"round {round_number}: last 201 → last update done {last_ms:.0f} ms ≤ 1.2 × single "
                          f"{baseline:.0f} ms ({last_ms / baseline:.2f}×)", last_ms <= 1.2 * baseline))
    print()
    for text, passed in goals:
        print(f"{'PASS' if passed else 'FAIL'}: {text}")
    for text in problems:
        print(f"PROBLEM: {text}")
    if not goals:
        print("FAIL: no goal could be checked")


if __name__ == "__main__":
    if len(sys.argv) == 10 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]),
                sys.argv[8], sys.argv[9])
    elif len(sys.argv) == 4 and sys.argv[1] == "report":
        report(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)
