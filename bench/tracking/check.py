"""bench/tracking's checks and figures (run.sh starts everything).

    python3 bench/tracking/check.py devices LOAD_FILE NEWEST_FILE PUSHES_FILE DEVICES
        Every answer was a 201, and every activity that was updated ends, on each of its DEVICES
        devices, on the state of its newest dispatch in the gateway's order of acceptance (NEWEST_FILE:
        "activity n status" per activity, from the dispatches table), which must be done. Two updates
        sent a millisecond apart on two connections may be accepted in either order, so the load's own
        order is not the one to check. Prints how many activities were checked; exits 1 on the first
        thing that is wrong.

    python3 bench/tracking/check.py starts LOAD_FILE PUSHES_FILE FIRST_TOKEN
        Every start was answered 201, and the simulator received each one's push: a `start` to its
        user's push-to-start token (user K's is FIRST_TOKEN + K + 1, in hex) carrying the start's own
        content-state. Prints how many starts were checked.
"""
import json
import sys


def fail(message):
    sys.exit(f"bench/tracking: FAILED: {message}")


def check_devices(load_file, newest_file, pushes_file, devices):
    updated = set()
    with open(load_file) as lines:
        for line in lines:
            activity, sequence, status = (int(field) for field in line.split())
            if status != 201:
                fail(f"update {sequence} to track-{activity} was answered {status}, not 201")
            updated.add(activity)
    newest = {}
    with open(newest_file) as lines:
        for line in lines:
            activity, sequence, status = line.split()
            if status != "done":
                fail(f"the newest dispatch of track-{activity} (update {sequence}) ended {status}")
            newest[int(activity)] = int(sequence)
    if set(newest) != updated:
        fail(f"{len(updated)} activities were updated, {len(newest)} have dispatches")
    with open(pushes_file) as file:
        pushes = json.load(file)
    # The state each device shows: its last push, in the simulator's arrival order.
    shown = {}
    for push in pushes:
        state = push["payload"]["aps"].get("content-state", {})
        if "n" in state:
            shown[push["device_token"]] = state["n"]
    for activity, sequence in newest.items():
        for device in range(devices):
            token = format(activity * devices + device + 1, "064x")
            if shown.get(token) != sequence:
                fail(f"device {device} of track-{activity} shows update {shown.get(token)}, not the newest ({sequence})")
    print(len(newest))


def check_starts(load_file, pushes_file, first_token):
    with open(pushes_file) as file:
        pushes = json.load(file)
    received = set()
    for push in pushes:
        aps = push["payload"]["aps"]
        if aps.get("event") == "start":
            received.add((push["device_token"], aps.get("content-state", {}).get("n")))
    checked = 0
    with open(load_file) as lines:
        for line in lines:
            user, sequence, status = (int(field) for field in line.split())
            if status != 201:
                fail(f"start {sequence} for user-{user} was answered {status}, not 201")
            if (format(first_token + user + 1, "064x"), sequence) not in received:
                fail(f"start {sequence} never reached user-{user}'s device")
            checked += 1
    print(checked)


if __name__ == "__main__":
    if sys.argv[1] == "devices":
        check_devices(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "starts":
        check_starts(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        fail(f"unknown command {sys.argv[1]}")
