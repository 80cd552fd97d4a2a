-- Payload truth: each app's ActivityAttributes types, as the app decodes them, checked at the API.

-- A type's schemas (SPEC's JSON Schema subset), kept as the JSON text given; every gateway compiles them
-- once and caches them for a few seconds.
CREATE TABLE activity_types (
    app_id        uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 256),
    content_state text NOT NULL,
    attributes    text,
    mode          text NOT NULL CHECK (mode IN ('enforce', 'warn')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, name)
);

-- The type of an update token's activity: what the SDK reported with it, or what started the activity.
ALTER TABLE activity_tokens ADD COLUMN attributes_type text;

-- Warn-mode mismatches, one row per activity and hour: the activity log gets one entry for it across
-- gateways, and the activity's page lists the latest.
CREATE TABLE activity_payload_mismatches (
    app_id      uuid NOT NULL,
    activity_id text NOT NULL,
    hour        timestamptz NOT NULL,
    message     text NOT NULL,
    dispatch_id uuid,
    PRIMARY KEY (app_id, activity_id, hour)
);
CREATE INDEX activity_payload_mismatches_hour_idx ON activity_payload_mismatches (hour);

-- Keys may be allowed to manage the types.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage', 'live_activity.read',
                         'users.track', 'segments.manage', 'live_activity.types']::text[]
);
