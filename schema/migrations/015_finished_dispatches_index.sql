-- Housekeeping deletes finished dispatches past the retention in batches:
-- `... WHERE status IN ('done', 'failed', 'superseded', 'cancelled') AND completed_at < now() - ...`
-- (Housekeeping.run). No index had completed_at, so every pass, every 10 minutes, read the whole table to
-- find that fewer than a batch were due: 66 ms for 271,000 rows here, so seconds of CPU and gigabytes
-- read per pass for a month of a million dispatches a day. This index holds finished dispatches only
-- (its predicate is the statement's): accepting an update writes it once, when the update supersedes one,
-- and delivery once per dispatch it finishes. At 16 clients, alternating with and without it, neither
-- bench/ingest's accepted calls nor PostgreSQL's CPU per call moved beyond the noise (docs/benchmarks.md).
-- Built without CONCURRENTLY (a migration runs in a transaction): writes to the table wait while it is
-- built, a second or two per million rows.
CREATE INDEX dispatches_finished_idx ON dispatches (completed_at)
    WHERE status IN ('done', 'failed', 'superseded', 'cancelled');
