-- Audiences: starts to everyone matching a connected audience object, or a segment's.

-- A workspace's named audiences (POST /segments), the connected audience object kept as its JSON text.
CREATE TABLE segments (
    id           uuid PRIMARY KEY,
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    audience     text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX segments_workspace_idx ON segments (workspace_id, created_at, id);

-- A start to an audience: the custom_audience as given, and/or the segment evaluated at delivery. Its
-- targets are not resolved at acceptance; its fan-out pages through the app's push-to-start tokens of the
-- type (fanout_cursor is their id), and each device it reaches becomes a dispatch_targets row with
-- APNs's answer, so confirmation works as for a start to named users.
ALTER TABLE dispatches
    ADD COLUMN audience   text,
    ADD COLUMN segment_id uuid;

-- The audience fan-out's keyset: a type's push-to-start tokens in id order.
CREATE INDEX push_to_start_tokens_fanout_idx ON push_to_start_tokens (app_id, attributes_type, id);

-- Keys that may manage segments (`segments.manage`).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage', 'live_activity.read',
                         'users.track', 'segments.manage']::text[]
);
