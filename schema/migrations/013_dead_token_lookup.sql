-- Tokens APNs called dead (410, or 400 BadDeviceToken) are deleted by value, with the page that met
-- them: `DELETE ... WHERE app_id = $1 AND push_token = ANY($2)` (FanoutStatements.removeDeadTokens).
-- No index had push_token, so each such page scanned the whole table inside the transaction that records
-- it: 1.8 s for 100 dead tokens among a million, against 0.5 ms with these indexes; a million-device
-- fan-out with a dead token on every page would have spent half an hour there.
-- Built without CONCURRENTLY (a migration runs in a transaction): writes to the table wait while it is
-- built, a second or two per million rows.
CREATE INDEX activity_tokens_push_token_idx ON activity_tokens (app_id, push_token);
CREATE INDEX push_to_start_tokens_push_token_idx ON push_to_start_tokens (app_id, push_token);
