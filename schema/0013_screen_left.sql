-- PullParity schema, version 13: contract v1.2, the screen left during a refresh. Frozen once shipped.
--
-- `sessions.outcome` may now be `abandoned` (a `screen_left` while refreshing or holding); the
-- column is TEXT and needs no change. The digests count abandoned sessions beside the other
-- outcomes (digests of an older version are rebuilt by the next write, which fills it).
ALTER TABLE session_digests ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
