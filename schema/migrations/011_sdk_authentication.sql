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

-- Per-app limit on /push_token_tag registrations per clock minute, shared by every gateway the way the
-- message endpoints' hourly limits are (005): gateways lease blocks of the minute's quota and spend
-- them in memory. Housekeeping deletes past minutes.
CREATE TABLE token_tag_rate_windows (
    app_id       uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    window_start timestamptz NOT NULL,
    granted      integer NOT NULL CHECK (granted >= 0),
    PRIMARY KEY (app_id, window_start)
);

-- As livegate_lease_quota, for an app's registration window.
CREATE FUNCTION livegate_lease_token_tag_quota(p_app uuid, p_window timestamptz, p_wanted integer, p_limit integer)
RETURNS TABLE (leased integer, window_total integer)
LANGUAGE plpgsql AS $$
DECLARE
    current_total integer;
    grant_now integer;
BEGIN
    INSERT INTO token_tag_rate_windows (app_id, window_start, granted) VALUES (p_app, p_window, 0)
        ON CONFLICT (app_id, window_start) DO NOTHING;
    SELECT w.granted INTO current_total FROM token_tag_rate_windows w
        WHERE w.app_id = p_app AND w.window_start = p_window
        FOR UPDATE;
    grant_now := least(p_wanted, greatest(p_limit - current_total, 0));
    IF grant_now > 0 THEN
        UPDATE token_tag_rate_windows w SET granted = w.granted + grant_now
            WHERE w.app_id = p_app AND w.window_start = p_window;
    END IF;
    RETURN QUERY SELECT grant_now, current_total + grant_now;
END
$$;
