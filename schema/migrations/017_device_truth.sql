-- What the app reports of an activity on each device: ActivityKit's activityState, and the broadcast
-- channel the activity was started on. One row per device and activity; a report older (by the device's
-- own clock) than the row's never replaces it.
CREATE TABLE activity_device_states (
    app_id      uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    activity_id text NOT NULL CHECK (octet_length(activity_id) BETWEEN 1 AND 256),
    device_id   text NOT NULL CHECK (octet_length(device_id) BETWEEN 1 AND 256),
    state       text NOT NULL CHECK (state IN ('active', 'stale', 'ended', 'dismissed')),
    -- Set while the activity follows this channel: a delivered broadcast reaches it, so its token is
    -- left out of that update's fan-out.
    channel_id  text CHECK (octet_length(channel_id) BETWEEN 1 AND 256),
    -- The device's time of the change (never ahead of the server's); orders the reports.
    reported_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, activity_id, device_id)
);

-- Each device's last push for its activity: which dispatch, APNs's answer, when. Written with the page
-- or batch that sent it (one statement for all its devices). No index reads these columns, so the
-- update can stay on the row's page (HOT, no index entry written) when the page has room: pages are
-- filled to 80 % from now on (existing ones get room as they are rewritten).
ALTER TABLE activity_tokens
    ADD COLUMN last_dispatch_id uuid,
    ADD COLUMN last_apns_status smallint,
    ADD COLUMN last_pushed_at   timestamptz;
ALTER TABLE activity_tokens SET (fillfactor = 80);

-- An activity's dispatches, unfinished first, then by completion, newest first: what the activity
-- resource lists. It replaces the partial index of unfinished ones, which supersession and the delivery
-- checks read through the same leading columns (`completed_at IS NULL` is an index condition here): a
-- dispatch's finish now adds an entry, and no index is added to the four versions each dispatch writes.
CREATE INDEX dispatches_activity_idx ON dispatches (app_id, activity_id, completed_at);
DROP INDEX dispatches_unfinished_activity_idx;

-- Each push-to-start target: APNs's answer, and when the started activity showed up on the device (its
-- update token arrived under the start's activity_id, or it reported itself active).
ALTER TABLE dispatch_targets
    ADD COLUMN apns_status  smallint,
    ADD COLUMN answered_at  timestamptz,
    ADD COLUMN confirmed_at timestamptz;
-- A registration or a report confirms the device's unconfirmed starts: found by device, never by
-- scanning an activity's dispatches (no index finds finished ones by activity).
CREATE INDEX dispatch_targets_unconfirmed_idx ON dispatch_targets (device_id) WHERE confirmed_at IS NULL;

-- A finished start is checked once for devices that never confirmed it; the check sets this.
ALTER TABLE dispatches ADD COLUMN confirmation_checked_at timestamptz;
-- Only starts enter it, and only once finished: updates never pay for it.
CREATE INDEX dispatches_unchecked_starts_idx ON dispatches (completed_at)
    WHERE event = 'start' AND completed_at IS NOT NULL AND confirmation_checked_at IS NULL;

-- Keys that may read activities as resources (`live_activity.read`).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage', 'live_activity.read']::text[]
);

-- Reports are kept as long as the activity log (an activity lives 12 hours at most on a device).
CREATE INDEX activity_device_states_received_idx ON activity_device_states (received_at);

-- Push-to-start token health: the ActivityAttributes type a start was sent for, its starts by type and
-- time (only starts enter the index), and the push-to-start tokens APNs called dead, kept two days.
ALTER TABLE dispatches ADD COLUMN attributes_type text;
CREATE INDEX dispatches_starts_idx ON dispatches (app_id, attributes_type, created_at) WHERE event = 'start';
CREATE TABLE push_to_start_token_removals (
    app_id          uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    attributes_type text NOT NULL,
    removed_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_to_start_token_removals_idx ON push_to_start_token_removals (app_id, attributes_type, removed_at);
