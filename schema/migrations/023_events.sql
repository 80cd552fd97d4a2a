-- Events out: what LiveGate learns (dispatches accepted and finished, each device's push, tokens,
-- device states, start confirmations), written in the transaction of what they describe, for the
-- customer's own systems: webhooks and GET /events. Only types someone subscribes to are written.
CREATE TABLE events (
    id           bigint GENERATED ALWAYS AS IDENTITY,
    -- The writing transaction: readers take only events of transactions older than every one still
    -- running (pg_snapshot_xmin), in (xid, id) order, so an event that commits late is never skipped.
    xid          xid8 NOT NULL DEFAULT pg_current_xact_id(),
    workspace_id uuid NOT NULL,
    app_id       uuid,
    type         text NOT NULL,
    occurred_at  timestamptz NOT NULL DEFAULT now(),
    -- The event's JSON fields beyond id, type, time, workspace_id and app_id, as one object.
    data         text NOT NULL,
    PRIMARY KEY (xid, id)
);
CREATE INDEX events_workspace_idx ON events (workspace_id, xid, id);
-- Retention deletes by age.
CREATE INDEX events_occurred_idx ON events (occurred_at);

-- Where each workspace's events go: an HTTPS endpoint, the types it takes, optionally one app's only.
-- One gateway at a time sends to it (the lease), in order, from its cursor: the last event it was
-- sent, in (xid, id) order.
CREATE TABLE webhook_endpoints (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id      uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    app_id            uuid REFERENCES apps (id) ON DELETE CASCADE,
    url               text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
    event_types       text[] NOT NULL CHECK (cardinality(event_types) >= 1),
    -- The HMAC-SHA256 key of LiveGate-Signature; shown once, when the endpoint is made.
    secret            text NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    cursor_xid        xid8 NOT NULL,
    cursor_id         bigint NOT NULL DEFAULT 0,
    leased_by         text,
    leased_until      timestamptz,
    next_attempt_at   timestamptz NOT NULL DEFAULT now(),
    -- Since when batches fail (NULL while the last one got a 2xx), how many in a row, and the last error.
    failing_since     timestamptz,
    failures          integer NOT NULL DEFAULT 0,
    last_error        text,
    last_delivered_at timestamptz,
    delivered_events  bigint NOT NULL DEFAULT 0,
    -- Set when it failed for the whole retry period: nothing is sent until it is resumed, and its
    -- events wait (as long as events are kept).
    paused_at         timestamptz
);
CREATE INDEX webhook_endpoints_workspace_idx ON webhook_endpoints (workspace_id);

-- Keys that manage webhooks, and keys that read events (`GET /events`).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage', 'live_activity.read',
                         'users.track', 'segments.manage', 'live_activity.types',
                         'live_activity.priority_budget', 'webhooks.manage', 'events.read']::text[]
);
