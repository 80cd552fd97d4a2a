-- A claim takes the dispatches due (pending, by next_attempt_at), those whose lease ran out, and those
-- of a worker whose session ended. One index held pending and delivering dispatches together, ordered by
-- next_attempt_at, where every dispatch being delivered sorts before the pending ones: each claim walked
-- past all of them (hundreds under load, 1,400 index entries for 25 rows in bench/tracking at 3,000
-- updates/s). Each kind now has its own: due ones by time, leased ones by lease (expired leases are a
-- range at its start; a dead session's dispatches are looked for about once a second).
CREATE INDEX dispatches_due_idx ON dispatches (next_attempt_at) WHERE status = 'pending';
DROP INDEX dispatches_pending_idx;

-- The partial indexes below are said by columns other than the status (a dispatch has a lease exactly
-- while it is being delivered, and a completion time exactly once it is finished: every statement that
-- ends or hands one back sets both). A statement that finds dispatches by id and checks
-- `status = 'delivering'` then matches no partial index's condition, and cannot be planned as a scan of
-- every dispatch being delivered; with prepared statements planned from a moment's row counts, such
-- plans were chosen and cost a batch's finish 20-30 ms instead of well under one.
CREATE INDEX dispatches_leased_idx ON dispatches (leased_until) WHERE leased_until IS NOT NULL;
DROP INDEX dispatches_unfinished_activity_idx;
CREATE INDEX dispatches_unfinished_activity_idx ON dispatches (app_id, activity_id) WHERE completed_at IS NULL;
