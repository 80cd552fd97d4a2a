"""Drives the PyPI braze-client against a running gateway, the way a customer's server would.

braze-client has no Live Activity method, so its own request path is pointed at LiveGate's routes:
what matters is how it reads the answer (`success` is false when `errors` is non-empty).

Usage: braze_client_test.py BASE_URL EXPECTED_JSON
EXPECTED_JSON: {"key": ..., "app_id": ..., "activity_id_with_device": ..., "users_without_token": [...]}
Exits non-zero with a message on the first mismatch.
"""
import json
import sys

from braze.client import BrazeClient, BrazeClientError


def call(client, base_url, path, payload):
    client.request_url = base_url + path
    # The client's own request-and-verdict path (name-mangled private method).
    return client._BrazeClient__create_request(payload=payload)


def check(condition, what, response):
    if not condition:
        sys.exit(f"FAILED: {what}\nresponse: {json.dumps(response, sort_keys=True)}")


def main():
    base_url, expected = sys.argv[1], json.loads(sys.argv[2])
    client = BrazeClient(api_key=expected["key"], api_url=base_url)
    update = "/messages/live_activity/update"

    # A tag with no device yet: Braze answers plain success, and so must LiveGate.
    nobody = call(client, base_url, update, {
        "app_id": expected["app_id"], "activity_id": "nobody-registered-yet",
        "content_state": {"score": "0-0"}})
    check(nobody["status_code"] == 201, "update to an empty tag is 201", nobody)
    check(nobody["success"] is True, "braze-client reads an update to an empty tag as success", nobody)
    check(nobody["warnings"], "the notice is still there, as a warning", nobody)

    # The same with an ignored dismissal_date: still a success for the client.
    ignored = call(client, base_url, update, {
        "app_id": expected["app_id"], "activity_id": expected["activity_id_with_device"],
        "content_state": {"score": "1-0"}, "dismissal_date": "2023-02-28T00:00:00+0000"})
    check(ignored["success"] is True, "an ignored dismissal_date is not a failed call", ignored)

    # A tag with a device.
    sent = call(client, base_url, update, {
        "app_id": expected["app_id"], "activity_id": expected["activity_id_with_device"],
        "content_state": {"score": "2-0"}})
    check(sent["success"] is True and sent["errors"] == [], "update to a registered tag", sent)
    check(sent.get("dispatch_id"), "the answer names its dispatch", sent)

    # What Braze does report as errors on a successful call: users without a push-to-start token.
    start = call(client, base_url, "/messages/live_activity/start", {
        "app_id": expected["app_id"], "activity_id": "kick-off", "activity_attributes_type": "MatchAttributes",
        "activity_attributes": {"home": "A", "away": "B"}, "content_state": {"score": "0-0"},
        "notification": {"alert": {"title": "Kick-off", "body": "A v B"}},
        "external_user_ids": expected["users_without_token"]})
    check(start["status_code"] == 201, "start is accepted", start)
    check(start["success"] is False, "braze-client reads Braze's start errors as a failed call", start)
    check(len(start["errors"]) == len(expected["users_without_token"]), "one error per user", start)

    # A fatal error is raised by the client, with the message Braze's shape carries.
    try:
        call(client, base_url, update, {"app_id": expected["app_id"]})
        sys.exit("FAILED: a 400 did not raise BrazeClientError")
    except BrazeClientError as error:
        message, errors = error.args
        check(message and errors, "a 400 carries message and errors", {"message": message, "errors": errors})

    # Custom attributes, through the client's own user_track (Braze's /users/track).
    tracked = client.user_track(attributes=[{
        "external_id": "fan-1", "favourite_team": "A", "season_tickets": 2, "notify": True,
        "teams": ["A", "B"], "joined": "2024-05-01T10:00:00Z"}])
    check(tracked["success"] is True and tracked["errors"] == [], "users/track is a success", tracked)
    check(tracked.get("attributes_processed") == 1, "one attributes object processed", tracked)

    print("braze-client: all checks passed")


if __name__ == "__main__":
    main()
