-- Tenancy: workspaces own apps, users and REST API keys.

CREATE TABLE workspaces (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    rate_limit_per_hour integer NOT NULL DEFAULT 250000 CHECK (rate_limit_per_hour > 0),
    created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE apps (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id     uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- Braze's "app API identifier": the app_id every request carries.
    app_identifier   text NOT NULL UNIQUE CHECK (length(app_identifier) BETWEEN 1 AND 128),
    name             text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    bundle_id        text NOT NULL CHECK (length(bundle_id) BETWEEN 1 AND 255),
    apns_team_id     text,
    apns_key_id      text,
    -- PKCS#8 PEM of the P-256 signing key: never logged, never returned by an endpoint.
    apns_private_key text,
    -- 'production', 'sandbox' or an http(s) URL.
    apns_endpoint    text NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    -- Credentials come as a set, or not at all (an app without them gets "No push credential").
    CHECK ((apns_team_id IS NULL) = (apns_key_id IS NULL) AND (apns_key_id IS NULL) = (apns_private_key IS NULL))
);
CREATE INDEX apps_workspace_idx ON apps (workspace_id);

CREATE TABLE users (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- NULL for a user known only by an alias.
    external_id  text CHECK (length(external_id) BETWEEN 1 AND 512),
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, external_id)
);

CREATE TABLE user_aliases (
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    alias_label  text NOT NULL CHECK (length(alias_label) BETWEEN 1 AND 512),
    alias_name   text NOT NULL CHECK (length(alias_name) BETWEEN 1 AND 512),
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (workspace_id, alias_label, alias_name)
);
CREATE INDEX user_aliases_user_idx ON user_aliases (user_id);

CREATE TABLE api_keys (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    -- SHA-256 of the key; the key itself is shown once and never stored.
    key_hash     bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    -- The key's first characters, so a person can tell keys apart in a listing.
    key_hint     text NOT NULL,
    permissions  text[] NOT NULL CHECK (
        permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                             'message_activity_log.read']::text[]
    ),
    -- Empty: any address may use the key.
    allowed_ips  cidr[] NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz
);
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id);
