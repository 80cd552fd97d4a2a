-- Users' custom attributes, as POST /users/track sets them (Braze's attributes objects): one row per user
-- and attribute, its value in the column of its type, so an audience compares each type as that type.
CREATE TABLE user_attributes (
    user_id       bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    kind          text NOT NULL CHECK (kind IN ('string', 'number', 'boolean', 'time', 'array')),
    -- A string's text; a time's text as it was given (its instant is time_value).
    string_value  text,
    number_value  double precision,
    boolean_value boolean,
    time_value    timestamptz,
    array_value   text[],
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, name)
);

-- Keys that may set users' attributes (`users.track`).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage', 'live_activity.read',
                         'users.track']::text[]
);
