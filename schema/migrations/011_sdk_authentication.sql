-- SDK authentication (Braze's "SDK Authentication"), opt-in per app: the customer's server signs a
-- short-lived JWT per user with a private key; the app holds the public half here. When enforced, a
-- /push_token_tag call that names an external_id must carry a JWT whose sub is that external_id.
ALTER TABLE apps
    -- SubjectPublicKeyInfo PEMs (EC P-256 for ES256, RSA for RS256), as OpenSSL writes them back.
    -- Two at most: the current key and the next one, during a rotation.
    ADD COLUMN sdk_auth_public_keys text[] NOT NULL DEFAULT '{}'
        CONSTRAINT apps_sdk_auth_key_count CHECK (cardinality(sdk_auth_public_keys) <= 2),
    ADD COLUMN sdk_auth_enforced boolean NOT NULL DEFAULT false,
    -- Enforcing without a key would refuse every identified registration.
    ADD CONSTRAINT apps_sdk_auth_enforced_needs_key
        CHECK (NOT sdk_auth_enforced OR cardinality(sdk_auth_public_keys) >= 1);
