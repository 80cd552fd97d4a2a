-- An app's hourly priority budget: how many priority-10 updates one of its activities may get in an
-- hour before the rest go at priority 5, which iOS does not hold against the device's budget (Apple
-- publishes no number for it). The frequent budget applies to devices whose app reports that the user
-- allows frequent updates. Null: no budget, every update at the priority it asked for (Braze's way).
ALTER TABLE apps
    ADD COLUMN priority_budget_per_hour          integer CHECK (priority_budget_per_hour BETWEEN 1 AND 100000),
    ADD COLUMN frequent_priority_budget_per_hour integer CHECK (frequent_priority_budget_per_hour BETWEEN 1 AND 100000),
    ADD CONSTRAINT apps_frequent_budget_needs_budget
        CHECK (frequent_priority_budget_per_hour IS NULL OR priority_budget_per_hour IS NOT NULL);

-- Each activity's clock hours (UTC) under a budget: updates that went at priority 10 to at least one of
-- its devices, updates the budget lowered to priority 5 for at least one, and APNs's 429 answers
-- (TooManyRequests) for its devices. Every gateway counts into the same row, under its lock.
CREATE TABLE activity_priority_hours (
    app_id      uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    activity_id text NOT NULL CHECK (octet_length(activity_id) BETWEEN 1 AND 256),
    hour        timestamptz NOT NULL,
    sent_high   integer NOT NULL DEFAULT 0,
    lowered     integer NOT NULL DEFAULT 0,
    throttled   integer NOT NULL DEFAULT 0,
    -- The last update counted: where it stood (its priority-10 updates in the hour before it), and the
    -- positions below which it went at priority 10 to some device and from which the budget lowered it
    -- for some device. The counting statement carries them in the row it upserts: the only inputs its
    -- ON CONFLICT branch can read (EXCLUDED) without a lookup per row.
    last_position integer NOT NULL DEFAULT 0,
    high_below    integer NOT NULL DEFAULT 0,
    low_from      integer NOT NULL DEFAULT 0,
    PRIMARY KEY (app_id, activity_id, hour)
) WITH (fillfactor = 50);  -- room on each page, so an hour's bumps stay HOT (no new index entries)
CREATE INDEX activity_priority_hours_hour_idx ON activity_priority_hours (hour);

-- Where a budgeted update stood when it was counted: the priority-10 updates its activity had in the
-- hour before it. Written with the dispatch's next record (a fan-out's page, a hand-back), so a claim
-- after those reads it instead of counting the update again.
ALTER TABLE dispatches ADD COLUMN budget_position integer;

-- The device's latest frequent-updates setting for the app, whichever activity reported it: the user
-- allows frequent updates per app, not per activity.
CREATE INDEX activity_device_states_frequent_idx
    ON activity_device_states (app_id, device_id, frequent_pushes_reported_at DESC)
    WHERE frequent_pushes_enabled IS NOT NULL;

-- Counts a batch of budgeted updates, each of another activity (the caller splits batches where an
-- activity repeats), and returns where each stood: the priority-10 updates its activity had in the last
-- hour, estimated as this clock hour's count plus the part of the previous hour's that the last 60
-- minutes still cover (rounded up, so the estimate never falls below what a device could have
-- counted). An update goes at priority 10 to a device while that count is below the device's budget;
-- one that keeps its priority (an end, an alert) always does. It counts as sent high when it went at 10
-- to some device (`p_standard`: it goes to devices on the standard budget, `p_frequent`: to devices on
-- the frequent one), and as lowered when the budget lowered it for some device; `lowered` comes back
-- as the hour's count after it, so 1 marks the hour's first lowering.
-- One upsert for the whole batch, in (app, activity) order, so gateways counting overlapping batches
-- wait for each other instead of deadlocking: the previous hour's share and the update's thresholds
-- come in as the new row's `last_position`, `high_below` and `low_from`, and a row that exists adds its
-- own count to the share under its lock (linear in the batch: no lookup per row). The counts are soft
-- state: the transaction commits without waiting for its WAL to be flushed, and a crash can lose the
-- last few increments.
CREATE FUNCTION livegate_count_priority(
    p_apps uuid[], p_activities text[], p_keeps boolean[], p_budgets integer[], p_frequent_budgets integer[],
    p_standard boolean[], p_frequent boolean[])
RETURNS TABLE (app_id uuid, activity_id text, standing integer, lowered integer)
LANGUAGE plpgsql AS $$
DECLARE
    this_hour timestamptz := date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    remaining double precision := 1 - extract(epoch FROM now() - this_hour) / 3600;
    never constant integer := 2147483647;
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    RETURN QUERY
    WITH b AS (
        SELECT * FROM unnest(p_apps, p_activities, p_keeps, p_budgets, p_frequent_budgets, p_standard, p_frequent)
             AS b(app_id, activity_id, keeps, budget, frequent_budget, standard, frequent)
    ),
    s AS (
        SELECT b.app_id, b.activity_id, ceil(coalesce(p.sent_high, 0) * remaining)::integer AS share,
               -- Priority 10 to some device while the position is below the largest budget it goes to.
               CASE WHEN b.keeps THEN never
                    ELSE greatest(CASE WHEN b.standard THEN b.budget ELSE -1 END,
                                  CASE WHEN b.frequent THEN b.frequent_budget ELSE -1 END) END AS high_below,
               -- Lowered for some device from the smallest budget it goes to.
               CASE WHEN b.keeps THEN never
                    ELSE least(CASE WHEN b.standard THEN b.budget ELSE never END,
                               CASE WHEN b.frequent THEN b.frequent_budget ELSE never END) END AS low_from
        FROM b LEFT JOIN activity_priority_hours p
               ON p.app_id = b.app_id AND p.activity_id = b.activity_id AND p.hour = this_hour - interval '1 hour'
    )
    INSERT INTO activity_priority_hours AS h
        (app_id, activity_id, hour, sent_high, lowered, last_position, high_below, low_from)
    SELECT s.app_id, s.activity_id, this_hour, (s.share < s.high_below)::integer, (s.share >= s.low_from)::integer,
           s.share, s.high_below, s.low_from
    FROM s ORDER BY s.app_id, s.activity_id
    ON CONFLICT ON CONSTRAINT activity_priority_hours_pkey DO UPDATE SET
        last_position = h.sent_high + EXCLUDED.last_position,
        sent_high = h.sent_high + (h.sent_high + EXCLUDED.last_position < EXCLUDED.high_below)::integer,
        lowered = h.lowered + (h.sent_high + EXCLUDED.last_position >= EXCLUDED.low_from)::integer,
        high_below = EXCLUDED.high_below,
        low_from = EXCLUDED.low_from
    RETURNING h.app_id, h.activity_id, h.last_position, h.lowered;
END
$$;

-- Keys that may read and set apps' priority budgets (`/live_activity/priority_budget`).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_permissions_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_check CHECK (
    permissions <@ ARRAY['messages.live_activity.update', 'messages.live_activity.start',
                         'message_activity_log.read', 'live_activity.channels.manage', 'live_activity.read',
                         'users.track', 'segments.manage', 'live_activity.types',
                         'live_activity.priority_budget']::text[]
);
