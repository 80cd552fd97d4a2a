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
    PRIMARY KEY (app_id, activity_id, hour)
);
CREATE INDEX activity_priority_hours_hour_idx ON activity_priority_hours (hour);

-- Where a budgeted update stood when it was counted: the priority-10 updates its activity had in the
-- hour before it. Set once; a claim after a crash reads it instead of counting the update again.
ALTER TABLE dispatches ADD COLUMN budget_position integer;

-- The device's latest frequent-updates setting for the app, whichever activity reported it: the user
-- allows frequent updates per app, not per activity.
CREATE INDEX activity_device_states_frequent_idx
    ON activity_device_states (app_id, device_id, frequent_pushes_reported_at DESC)
    WHERE frequent_pushes_enabled IS NOT NULL;

-- Counts the budgeted updates of `p_ids` (each with its app's budgets, and whether it goes to devices
-- on the standard budget, on the frequent one, or both) and returns where each stood: the priority-10
-- updates its activity had in the last hour, estimated as this clock hour's count plus the part of the
-- previous hour's that the last 60 minutes still cover (rounded up, so the estimate never falls below
-- what a device could have counted). An update goes at priority 10 to a device while that count is
-- below the device's budget; an `end` and an update with an alert always do. It counts as sent high
-- when it went at 10 to some device, and as lowered when the budget lowered it for some device.
-- `first_lowered`: the first lowering of the activity's clock hour, which is logged.
-- The batch's dispatches are locked first, in id order as every statement that writes several
-- dispatches locks them, then activities in (app, activity) order, so two gateways counting overlapping
-- batches wait for each other instead of deadlocking; an update counted before (a claim after a crash)
-- keeps its position and is not counted again.
CREATE FUNCTION livegate_count_priority(
    p_ids uuid[], p_budgets integer[], p_frequent_budgets integer[], p_standard boolean[], p_frequent boolean[])
RETURNS TABLE (dispatch_id uuid, standing integer, keeps_high boolean, first_lowered boolean)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    this_hour timestamptz := date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    remaining double precision := 1 - extract(epoch FROM now() - this_hour) / 3600;
    current_high integer;
    current_lowered integer;
    previous_high integer;
    high boolean;
    low boolean;
BEGIN
    PERFORM 1 FROM dispatches d WHERE d.id = ANY(p_ids) ORDER BY d.id FOR UPDATE;
    FOR r IN
        SELECT d.id, d.app_id, d.activity_id, d.budget_position,
               d.event = 'end' OR coalesce((d.payload::jsonb -> 'aps') ? 'alert', false) AS keeps,
               b.budget, coalesce(b.frequent_budget, b.budget) AS frequent_budget, b.standard, b.frequent
        FROM unnest(p_ids, p_budgets, p_frequent_budgets, p_standard, p_frequent)
             AS b(id, budget, frequent_budget, standard, frequent)
        JOIN dispatches d ON d.id = b.id
        ORDER BY d.app_id, d.activity_id, coalesce(d.send_at, d.created_at), d.sequence
    LOOP
        dispatch_id := r.id;
        keeps_high := r.keeps;
        first_lowered := false;
        IF r.budget_position IS NOT NULL THEN
            standing := r.budget_position;
            RETURN NEXT;
            CONTINUE;
        END IF;
        INSERT INTO activity_priority_hours (app_id, activity_id, hour) VALUES (r.app_id, r.activity_id, this_hour)
            ON CONFLICT DO NOTHING;
        SELECT h.sent_high, h.lowered INTO current_high, current_lowered FROM activity_priority_hours h
            WHERE h.app_id = r.app_id AND h.activity_id = r.activity_id AND h.hour = this_hour
            FOR UPDATE;
        SELECT coalesce(max(h.sent_high), 0) INTO previous_high FROM activity_priority_hours h
            WHERE h.app_id = r.app_id AND h.activity_id = r.activity_id AND h.hour = this_hour - interval '1 hour';
        standing := current_high + ceil(previous_high * remaining)::integer;
        high := r.keeps OR (r.standard AND standing < r.budget) OR (r.frequent AND standing < r.frequent_budget);
        low := NOT r.keeps AND ((r.standard AND standing >= r.budget) OR (r.frequent AND standing >= r.frequent_budget));
        IF high OR low THEN
            UPDATE activity_priority_hours h
                SET sent_high = h.sent_high + high::integer, lowered = h.lowered + low::integer
                WHERE h.app_id = r.app_id AND h.activity_id = r.activity_id AND h.hour = this_hour;
        END IF;
        UPDATE dispatches d SET budget_position = standing WHERE d.id = r.id;
        first_lowered := low AND current_lowered = 0;
        RETURN NEXT;
    END LOOP;
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
