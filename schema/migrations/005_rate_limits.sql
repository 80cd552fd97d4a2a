-- Per-workspace hourly rate limits shared by every gateway. A gateway does not write per
-- request: it leases blocks of the window's quota from here and spends them in memory. `granted` is
-- what all gateways together were handed for the clock hour; it never exceeds the limit, so the
-- workspace never gets more than its limit, and a gateway returns what it did not spend when it stops.
CREATE TABLE rate_limit_windows (
    workspace_id uuid NOT NULL,
    -- The clock hour (UTC) the quota belongs to.
    window_start timestamptz NOT NULL,
    granted      integer NOT NULL CHECK (granted >= 0),
    PRIMARY KEY (workspace_id, window_start)
);

-- Hands out up to p_wanted requests of the window's quota, never beyond p_limit in all, and says how
-- much was handed out and the window's new total. The row lock serializes concurrent gateways.
CREATE FUNCTION livegate_lease_quota(p_workspace uuid, p_window timestamptz, p_wanted integer, p_limit integer)
RETURNS TABLE (leased integer, window_total integer)
LANGUAGE plpgsql AS $$
DECLARE
    current_total integer;
    grant_now integer;
BEGIN
    INSERT INTO rate_limit_windows (workspace_id, window_start, granted) VALUES (p_workspace, p_window, 0)
        ON CONFLICT (workspace_id, window_start) DO NOTHING;
    SELECT w.granted INTO current_total FROM rate_limit_windows w
        WHERE w.workspace_id = p_workspace AND w.window_start = p_window
        FOR UPDATE;
    grant_now := least(p_wanted, greatest(p_limit - current_total, 0));
    IF grant_now > 0 THEN
        UPDATE rate_limit_windows w SET granted = w.granted + grant_now
            WHERE w.workspace_id = p_workspace AND w.window_start = p_window;
    END IF;
    RETURN QUERY SELECT grant_now, current_total + grant_now;
END
$$;
