-- Every push of a fan-out records its device's last push on the token's row (device truth): each row is
-- rewritten once per dispatch that reaches it. At 80 % full a page holds new versions for a fifth of its
-- rows; the others moved to another page, and each such move wrote an entry in every one of the table's
-- six indexes. Half-full pages hold a new version of every row, and PostgreSQL prunes the old ones the
-- next time the page is visited, so each push's record stays on its page (HOT) with no index entry.
-- Catalog only: new pages get the room, existing ones as they are rewritten (VACUUM FULL to do all now).
ALTER TABLE activity_tokens SET (fillfactor = 50);
