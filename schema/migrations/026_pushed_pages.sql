-- Device truth without a write per push: a fan-out page's accepted pushes (APNs answered 200) are one
-- row naming the page's token ids, written in the same transaction as the fan-out's cursor, instead of
-- a rewrite of every device's token row. Other answers (rare: a rejected or throttled push) are still
-- recorded on the token's row (`last_*`). A device's last push is the newer of the two; a page that is
-- no device's newest any more is pruned (`PushedPages.prune`).
CREATE TABLE activity_pushed_pages (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id      uuid        NOT NULL,
    activity_id text        NOT NULL,
    dispatch_id uuid        NOT NULL,
    pushed_at   timestamptz NOT NULL DEFAULT now(),
    -- The smallest and largest of `token_ids`: a device's lookup skips pages whose range misses it.
    first_id    bigint      NOT NULL,
    last_id     bigint      NOT NULL,
    token_ids   bigint[]    NOT NULL
);
-- Stored out of line but not compressed: compressing 8 kB of ids cost more than the rest of the insert.
ALTER TABLE activity_pushed_pages ALTER COLUMN token_ids SET STORAGE EXTERNAL;
CREATE INDEX activity_pushed_pages_activity ON activity_pushed_pages (app_id, activity_id, pushed_at DESC);

-- When the row's current token arrived: a page pushed before it reached the token it replaced. Rows
-- that exist already get the migration's time (a constant, no rewrite); no page is older.
ALTER TABLE activity_tokens ADD COLUMN token_since timestamptz NOT NULL DEFAULT now();

-- Token rows are no longer rewritten by every push: the room left for those rewrites would only make
-- each fan-out page read twice the pages. Back to the room a re-registration needs.
ALTER TABLE activity_tokens SET (fillfactor = 80);
