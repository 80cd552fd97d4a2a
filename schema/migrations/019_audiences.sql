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

-- An audience is evaluated by probing each candidate's attributes by (user, name): the primary key carries
-- the scalar values too, so a probe reads the index alone (an index-only scan), not the table's page as
-- well. Arrays stay out (a probe for includes_value reads the row).
ALTER TABLE user_attributes DROP CONSTRAINT user_attributes_pkey;
ALTER TABLE user_attributes ADD PRIMARY KEY (user_id, name) INCLUDE (kind, string_value, number_value, boolean_value, time_value);

-- Keys that may manage segments (`segments.manage`).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage', 'live_activity.read',
                         'users.track', 'segments.manage']::text[]
);

-- /users/track has an hourly limit of its own per workspace (Braze's allows 3,000 calls per 3 seconds),
-- leased by gateways from its own windows as the message endpoints' limit is.
ALTER TABLE workspaces ADD COLUMN users_track_rate_limit_per_hour integer NOT NULL DEFAULT 3600000
    CHECK (users_track_rate_limit_per_hour > 0);
CREATE TABLE users_track_rate_windows (
    workspace_id uuid NOT NULL,
    window_start timestamptz NOT NULL,
    granted      integer NOT NULL CHECK (granted >= 0),
    PRIMARY KEY (workspace_id, window_start)
);
CREATE FUNCTION livegate_lease_users_track_quota(p_workspace uuid, p_window timestamptz, p_wanted integer, p_limit integer)
RETURNS TABLE (leased integer, window_total integer)
LANGUAGE plpgsql AS $$
DECLARE
    current_total integer;
    grant_now integer;
BEGIN
    INSERT INTO users_track_rate_windows (workspace_id, window_start, granted) VALUES (p_workspace, p_window, 0)
        ON CONFLICT (workspace_id, window_start) DO NOTHING;
    SELECT w.granted INTO current_total FROM users_track_rate_windows w
        WHERE w.workspace_id = p_workspace AND w.window_start = p_window
        FOR UPDATE;
    grant_now := least(p_wanted, greatest(p_limit - current_total, 0));
    IF grant_now > 0 THEN
        UPDATE users_track_rate_windows w SET granted = w.granted + grant_now
            WHERE w.workspace_id = p_workspace AND w.window_start = p_window;
    END IF;
    RETURN QUERY SELECT grant_now, current_total + grant_now;
END
$$;
