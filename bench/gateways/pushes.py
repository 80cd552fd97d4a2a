"""bench/gateways: checks the simulator's recorded pushes after one round of fan-outs.

    python3 bench/gateways/pushes.py PUSHES_JSON TAGS DEVICES MINUTE

PUSHES_JSON is what `GET /_sim/pushes` answered. The audience is TAGS tags of DEVICES devices each, with
the push token of tag t (1-based), device i being the 64-hex-digit number t * 10**7 + i (run.sh writes
them so). Every one of those tokens must have received the round's update (content state `minute` =
MINUTE) exactly once, and nothing else may have arrived. A push the simulator recorded twice with the
same apns-id is the same push sent again (the gateway retried after losing the answer); it is counted
apart and allowed, and the caller compares it with the dispatches' retried counts. Prints
"pushes distinct_tokens repeats" and exits non-zero with the reason when the check fails.
"""
import json
import sys


def fail(message):
    sys.exit(f"bench/gateways: {message}")


def main():
    path, tags, devices, minute = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    with open(path, "rb") as file:
        pushes = json.load(file)
    expected = {format(tag * 10**7 + device, "064x") for tag in range(1, tags + 1) for device in range(1, devices + 1)}
    apns_ids, repeats = {}, 0
    for push in pushes:
        token = push["device_token"]
        if token not in expected:
            fail(f"a push to {token[:16]}…, which is not in the audience")
        if push.get("fault"):
            fail(f"a push to {token[:16]}… met a fault ({push['fault']}), and none was configured")
        state = push["payload"]["aps"]["content-state"]
        if state.get("minute") != minute:
            fail(f"a push to {token[:16]}… carries minute {state.get('minute')}, not this round's {minute}")
        apns_id = push["headers"].get("apns-id")
        if token in apns_ids:
            if apns_ids[token] != apns_id:
                fail(f"device {token[:16]}… received two different pushes (apns-id {apns_ids[token]} and {apns_id})")
            repeats += 1
        apns_ids[token] = apns_id
    missing = len(expected) - len(apns_ids)
    if missing:
        fail(f"{missing} of {len(expected)} devices received nothing")
    print(len(pushes), len(apns_ids), repeats)


main()
