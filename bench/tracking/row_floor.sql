-- bench/tracking's PostgreSQL floor (pgbench, simple protocol): what a batch of small dispatches' rows
-- cost PostgreSQL with nothing else, in the gateway's table with its indexes: :rows rows written as
-- group commit writes updates sent now (leased, for random activities of the :activities), one
-- statement and commit, then finished as a batch finishes them, one statement and commit. No
-- supersession, no token lookups or records, no round trips beyond these two.
\set activity random(0, :activities - 1)
WITH inserted AS (
    INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, payload, priority, expires_at,
                            next_attempt_at, status, leased_by, leased_by_session, leased_until, attempts)
    SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002',
           'update', 'floor-' || ((:activity + i * 7919) % :activities), '{"aps":{"timestamp":1795747200,"event":"update","content-state":{"n":123456},"stale-date":1795776000}}', 10, now() + interval '8 hours',
           now(), 'delivering', 'floor', 1, now() + interval '30 seconds', 1
    FROM generate_series(1, :rows) i
    RETURNING id)
SELECT quote_literal(array_agg(id)::text) AS ids FROM inserted
\gset
UPDATE dispatches
SET status = 'done', completed_at = now(), leased_by = NULL, leased_until = NULL,
    fanout_cursor = 1, sent_count = sent_count + 1
WHERE id = ANY(:ids::uuid[]) AND leased_by = 'floor' AND status = 'delivering';
