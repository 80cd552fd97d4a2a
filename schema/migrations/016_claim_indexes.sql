-- A claim takes the dispatches due (pending, by next_attempt_at), those whose lease ran out, and those
-- of a worker whose session ended. One index held pending and delivering dispatches together, ordered by
-- next_attempt_at, where every dispatch being delivered sorts before the pending ones: each claim walked
-- past all of them (hundreds under load, 1,400 index entries for 25 rows in bench/tracking at 3,000
-- updates/s). Each kind now has its own: due ones by time, delivering ones by lease (expired leases are
-- a range at its start; a dead session's dispatches are looked for about once a second).
CREATE INDEX dispatches_due_idx ON dispatches (next_attempt_at) WHERE status = 'pending';
CREATE INDEX dispatches_leased_idx ON dispatches (leased_until) WHERE status = 'delivering';
DROP INDEX dispatches_pending_idx;
