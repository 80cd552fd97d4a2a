-- Live Activities: the tokens the SDK registers, the dispatches the API accepts, and the
-- Idempotency-Key answers it has given.

-- Update tokens: one per device and tag. The same tag is often shared by every follower of one game,
-- so a tag can fan out to many devices.
CREATE TABLE activity_tokens (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id      uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    activity_id text NOT NULL CHECK (octet_length(activity_id) BETWEEN 1 AND 256),
    device_id   text NOT NULL CHECK (octet_length(device_id) BETWEEN 1 AND 256),
    user_id     bigint REFERENCES users (id) ON DELETE SET NULL,
    -- Lower-case hex, as APNs takes it in the request path.
    push_token  text NOT NULL CHECK (push_token ~ '^([0-9a-f]{2}){1,200}$'),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, activity_id, device_id)
);
-- Fan-out of one tag in token order, so delivery can page through a large audience.
CREATE INDEX activity_tokens_fanout_idx ON activity_tokens (app_id, activity_id, id);
CREATE INDEX activity_tokens_user_idx ON activity_tokens (user_id);

-- Push-to-start tokens (iOS 17.2+): one per device and ActivityAttributes type.
CREATE TABLE push_to_start_tokens (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id          uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    attributes_type text NOT NULL CHECK (octet_length(attributes_type) BETWEEN 1 AND 256),
    device_id       text NOT NULL CHECK (octet_length(device_id) BETWEEN 1 AND 256),
    user_id         bigint REFERENCES users (id) ON DELETE SET NULL,
    push_token      text NOT NULL CHECK (push_token ~ '^([0-9a-f]{2}){1,200}$'),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, attributes_type, device_id)
);
CREATE INDEX push_to_start_tokens_user_idx ON push_to_start_tokens (app_id, attributes_type, user_id);

-- An accepted API call, committed before the 201 and sent by the delivery engine.
-- No foreign keys to workspaces and apps, on purpose: each would share-lock the one app row that every
-- concurrent insert references (turning it into a MultiXact), the hottest cost of accepting a message.
-- The API checks the app before inserting; delivery skips a dispatch whose app has since been deleted.
CREATE TABLE dispatches (
    id           uuid PRIMARY KEY,
    workspace_id uuid NOT NULL,
    app_id       uuid NOT NULL,
    -- The APNs event. After an 'end' is delivered, the tag's tokens registered before created_at retire.
    event        text NOT NULL CHECK (event IN ('update', 'end', 'start')),
    activity_id  text NOT NULL CHECK (octet_length(activity_id) BETWEEN 1 AND 256),
    -- Update/end: narrows the fan-out to this user's devices under the tag. Start: unused (see targets).
    external_id  text,
    -- The complete APNs payload, built once at the API: delivery sends these bytes as they are.
    payload      text NOT NULL CHECK (octet_length(payload) <= 4096),
    priority     smallint NOT NULL CHECK (priority IN (5, 10)),
    -- apns-expiration: after this APNs stops trying to deliver.
    expires_at   timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- Delivery state, owned by the delivery engine.
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivering', 'done', 'failed')),
    attempts     integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz
);
CREATE INDEX dispatches_pending_idx ON dispatches (next_attempt_at) WHERE status IN ('pending', 'delivering');
CREATE INDEX dispatches_app_activity_idx ON dispatches (app_id, activity_id, created_at);

-- The push-to-start tokens a start dispatch resolved when it was accepted.
CREATE TABLE dispatch_targets (
    dispatch_id uuid NOT NULL REFERENCES dispatches (id) ON DELETE CASCADE,
    push_token  text NOT NULL,
    user_id     bigint,
    device_id   text NOT NULL,
    PRIMARY KEY (dispatch_id, push_token)
);

-- Idempotency-Key answers, replayed for 24 hours. A row without a response is a request in flight.
CREATE TABLE idempotency_keys (
    workspace_id    uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    idempotency_key text NOT NULL CHECK (octet_length(idempotency_key) BETWEEN 1 AND 255),
    -- SHA-256 of method, path and body: the same key with anything else is refused.
    request_hash    bytea NOT NULL CHECK (length(request_hash) = 32),
    response_status smallint,
    response_body   text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, idempotency_key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
