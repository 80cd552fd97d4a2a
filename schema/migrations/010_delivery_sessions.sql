-- Crash takeover in seconds: each delivery worker holds, on a connection of its own,
-- a session-level advisory lock on (1279738956, its number) for as long as it runs. A claim records that
-- number; a worker that can take the lock itself knows the claimer's session is gone (its process died,
-- or the database ended the session) and takes the dispatch over at once. The lease stays, for what a
-- session cannot tell (a network partition that leaves the server's end of the session open).

-- Numbers for workers; one that wraps around onto a live worker's fails to lock, and the worker draws again.
CREATE SEQUENCE delivery_worker_numbers AS integer CYCLE;

-- The number of the worker session that claimed the dispatch; NULL: only the lease tells (a claim
-- made without a session).
ALTER TABLE dispatches ADD COLUMN leased_by_session integer;
