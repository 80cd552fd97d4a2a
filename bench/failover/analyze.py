"""bench/failover's figures for one run (run.sh starts everything).

    python3 bench/failover/analyze.py LOAD_FILE FAULT_MS DEADLINE_S KEPT_FILE NEWEST_FILE PUSHES_FILE

LOAD_FILE: load.c's lines with LOAD_TIMINGS=1, "activity sequence status sent_ms answered_ms".
KEPT_FILE: the content-state `n` of every dispatch the primary holds after the run, one a line.
NEWEST_FILE: "activity n status" for each activity's newest dispatch in the gateway's order of acceptance.
PUSHES_FILE: the simulator's pushes (GET /_sim/pushes).

Prints "created unavailable errors other outage_s late slowest_s missing off": answers by status (201,
503, 500 and other, 0 for a refused connection among them); the write outage, from the fault to the
answer of the first 201 to a request sent after the last one that failed ("never" without one; 0 when
none failed); the answers that came later
than the deadline and a second after their request went; the slowest answer; the 201'd updates the
primary does not hold; and the activities whose device's last push is not their newest state.
"""
import json
import sys


def main(load_file, fault_ms, deadline_s, kept_file, newest_file, pushes_file):
    fault_ms, deadline_ms = float(fault_ms), float(deadline_s) * 1000
    counts = {201: 0, 503: 0, 500: 0}
    other = 0
    accepted = set()
    late = 0
    slowest = 0.0
    answers = []
    with open(load_file) as lines:
        for line in lines:
            _, sequence, status, sent, answered = line.split()
            answers.append((sequence, int(status), float(sent), float(answered)))
    last_failed = max((sent for _, status, sent, _ in answers if status != 201), default=None)
    first_back = None
    for sequence, status, sent, answered in answers:
        if status in counts:
            counts[status] += 1
        else:
            other += 1
        took = answered - sent
        slowest = max(slowest, took)
        if took > deadline_ms + 1000:
            late += 1
        if status == 201:
            accepted.add(sequence)
            if last_failed is not None and sent > last_failed and (first_back is None or answered < first_back):
                first_back = answered
    with open(kept_file) as lines:
        kept = {line.strip() for line in lines if line.strip()}
    missing = len(accepted - kept)

    newest = {}
    with open(newest_file) as lines:
        for line in lines:
            activity, n, _ = line.split()
            newest[int(activity)] = n
    last_push = {}
    with open(pushes_file) as file:
        pushes = json.load(file)
    # In the order the simulator received them: the last one is what the device shows.
    for push in pushes:
        state = push["payload"]["aps"].get("content-state", {})
        if "n" in state:
            last_push[int(push["device_token"], 16) - 1] = str(state["n"])
    off = sum(1 for activity, n in newest.items() if last_push.get(activity) != n)

    if last_failed is None:
        outage = "0"
    else:
        outage = "never" if first_back is None else f"{(first_back - fault_ms) / 1000:.1f}"
    print(counts[201], counts[503], counts[500], other, outage, late, f"{slowest / 1000:.1f}", missing, off)


if __name__ == "__main__":
    main(*sys.argv[1:])
