-- Activity log entries about a workspace's webhook endpoints (paused after failing for the whole retry
-- period, resumed): an endpoint may take every app's events, so its entries may have no app; and what
-- such an entry is about (the endpoint, its URL's host, its failures, the last error) is kept as
-- structured details, which `GET /message_activity_log` answers as an object. Both changes touch only
-- the catalog: no rewrite of the table, a brief lock.
ALTER TABLE message_activity_log ALTER COLUMN app_id DROP NOT NULL;
ALTER TABLE message_activity_log ADD COLUMN details jsonb;
