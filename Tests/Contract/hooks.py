"""schemathesis hooks for LiveGate's contract test (scripts/contract-test.sh).

openapi.yaml states every constraint a single field can carry. A few rules are not about one field's
shape, and JSON Schema cannot say them; these hooks keep *schema-valid* generated values inside them,
so that "a schema-valid request was refused" means a real contract bug:

- `app_id` must name an existing app of the key's workspace: a well-formed one is replaced by the
  contract test's own app (LIVEGATE_CONTRACT_APP_ID). Malformed ones are left as generated.
- `send_at` may be at most 7 days ahead of the moment the gateway receives the call: a well-formed
  one is moved to an hour from now.
- `since` must be before `until` on the activity log: a well-formed pair is put in order.
- `cursor` must be a `next_cursor` the gateway gave: a well-formed one (any length the schema allows)
  is replaced by a real cursor (base64url of "0.1": the position before every row of the activity log
  and the channel list, and a device id on the activity resource).
- `segment_id` on a start must name an existing segment: a well-formed one is replaced by the
  contract test's own (LIVEGATE_CONTRACT_SEGMENT_ID), and DELETE /segments/{segment_id} never gets
  that one (it gets a random UUID instead, a 404), so it stays for the starts.
- a webhook's `url` must be https:// (http:// to a loopback host): a well-formed one becomes a loopback
  URL where nothing listens, so the gateway's sender never reaches past this machine.
- a priority budget's `frequent_priority_budget_per_hour` is at least `priority_budget_per_hour`, and
  only raises a budget that is set: a pair of numbers is put in order, and a frequent budget without a
  standard one is dropped.
- a type's `content_state` and `attributes` must be schemas of the gateway's JSON Schema subset, which
  is recursive and has rules of its own (keywords, `format` only on numbers): a generated object is
  replaced by a valid subset schema. The subset's own refusals are tested in the gateway's suite. Its
  `mode` is `warn`: starts that name the type carry generated content states, which `enforce` refuses.
- an audience (a start's `custom_audience`, a segment's `audience`) holds at most 100 filters in
  all: a longer one is cut, the last part of its longest AND/OR first, which keeps it schema-valid.

Values that violate the schema are never touched, so negative cases stay negative; schemathesis
re-validates every case after these hooks, and judges it by what is actually sent.
"""
import copy
import datetime
import os
import re
import uuid

import yaml

import schemathesis

APP_ID = os.environ["LIVEGATE_CONTRACT_APP_ID"]
SEGMENT_ID = os.environ.get("LIVEGATE_CONTRACT_SEGMENT_ID")
# Port 9 (discard) on loopback: nothing listens there, so deliveries fail at once and stay on this machine.
UNREACHABLE_WEBHOOK = "http://127.0.0.1:9/contract-test"
SUBSET_SCHEMA = {
    "type": "object",
    "properties": {
        "status": {"type": "string", "enum": ["preparing", "on_the_way", "delivered"]},
        "eta": {"type": "number", "format": "apple-date"},
        "stops": {"type": ["array", "null"], "items": {"type": "integer"}},
    },
    "required": ["status"],
    "additionalProperties": True,
}
UUID_TEXT = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def well_formed(value, max_length=128):
    return isinstance(value, str) and 0 < len(value) <= max_length and "\x00" not in value


def date_time_pattern():
    """openapi.yaml's own DateTime pattern, so 'well-formed' means what the contract says."""
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "openapi.yaml")) as document:
        schemas = yaml.safe_load(document)["components"]["schemas"]
    return re.compile(schemas["DateTime"]["pattern"])


DATE_TIME = date_time_pattern()


def well_formed_time(value):
    return isinstance(value, str) and DATE_TIME.fullmatch(value) is not None


def filters(audience):
    """How many custom_attribute filters a connected audience object holds."""
    if not isinstance(audience, dict) or len(audience) != 1:
        return 0
    (key, value), = audience.items()
    if key in ("AND", "OR") and isinstance(value, list):
        return sum(filters(part) for part in value)
    return 1 if key == "custom_attribute" else 0


def and_or_arrays(audience):
    if isinstance(audience, dict) and len(audience) == 1:
        (key, value), = audience.items()
        if key in ("AND", "OR") and isinstance(value, list):
            yield value
            for part in value:
                yield from and_or_arrays(part)


def at_most_100_filters(audience):
    """Every AND/OR keeps at least one part, and the depth and the filters left are unchanged."""
    while filters(audience) > 100:
        max(and_or_arrays(audience), key=len).pop()


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    body = case.body if isinstance(case.body, dict) else None
    if body is not None:
        if well_formed(body.get("app_id")):
            body["app_id"] = APP_ID
        if well_formed_time(body.get("send_at")):
            soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
            body["send_at"] = soon.strftime("%Y-%m-%dT%H:%M:%SZ")
        for field in ("custom_audience", "audience"):
            if isinstance(body.get(field), dict):
                at_most_100_filters(body[field])
        if case.operation.path == "/webhooks" and well_formed(body.get("url"), max_length=2048):
            body["url"] = UNREACHABLE_WEBHOOK
        standard, frequent = body.get("priority_budget_per_hour"), body.get("frequent_priority_budget_per_hour")
        if all(type(value) in (int, float) for value in (standard, frequent)) and frequent < standard:
            body["priority_budget_per_hour"], body["frequent_priority_budget_per_hour"] = frequent, standard
        if "priority_budget_per_hour" in body and standard is None and type(frequent) in (int, float):
            body["frequent_priority_budget_per_hour"] = None
        if case.operation.path == "/live_activity/types/{attributes_type}":
            for field in ("content_state", "attributes"):
                if isinstance(body.get(field), dict):
                    body[field] = copy.deepcopy(SUBSET_SCHEMA)
            if body.get("mode") in (None, "enforce", "warn"):
                body["mode"] = "warn"
        segment_id = body.get("segment_id")
        if SEGMENT_ID and isinstance(segment_id, str) and UUID_TEXT.fullmatch(segment_id):
            body["segment_id"] = SEGMENT_ID
    path = case.path_parameters if isinstance(case.path_parameters, dict) else None
    if SEGMENT_ID and path is not None and str(path.get("segment_id", "")).lower() == SEGMENT_ID:
        path["segment_id"] = str(uuid.uuid4())
    query = case.query if isinstance(case.query, dict) else None
    if query is not None:
        if well_formed(query.get("app_id"), max_length=256):
            query["app_id"] = APP_ID
        if isinstance(query.get("cursor"), str) and query["cursor"] and all(
                c.isascii() and (c.isalnum() or c in "-_") for c in query["cursor"]):
            query["cursor"] = "MC4x"
        if well_formed_time(query.get("since")) and well_formed_time(query.get("until")):
            # Their order is not worth re-implementing here: any well-formed pair becomes an ordered one.
            query["since"], query["until"] = "2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z"
