-- Broadcast channels: at most one APNs channel per app and activity.

-- Where the app's channels are managed when not where its pushes go (NULL: Apple's management host for
-- production and sandbox, the push URL itself for a custom endpoint).
ALTER TABLE apps ADD COLUMN apns_channels_endpoint text;

ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage']::text[]
);

CREATE TABLE broadcast_channels (
    id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id                 uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    activity_id            text NOT NULL CHECK (octet_length(activity_id) BETWEEN 1 AND 256),
    -- 'creating': claimed by a gateway that is asking APNs (no id yet); 'live': usable; 'ending': the
    -- activity ended, the channel is deleted at APNs after delete_after; 'gone': APNs forgot it.
    state                  text NOT NULL CHECK (state IN ('creating', 'live', 'ending', 'gone')),
    -- APNs's apns-channel-id (base64).
    channel_id             text CHECK (octet_length(channel_id) BETWEEN 1 AND 256),
    message_storage_policy smallint NOT NULL CHECK (message_storage_policy IN (0, 1)),
    delete_after           timestamptz,
    created_at             timestamptz NOT NULL DEFAULT now(),
    -- One channel per activity, whichever gateway asks.
    UNIQUE (app_id, activity_id),
    CHECK ((state = 'creating') = (channel_id IS NULL)),
    CHECK ((state = 'ending') = (delete_after IS NOT NULL))
);
-- Listing an app's channels in creation order (keyset paging).
CREATE INDEX broadcast_channels_listing_idx ON broadcast_channels (app_id, created_at, id);
