-- Contract revision 3: an assistant's restore may be staged like an archive, and an import's dry
-- run waits in the inbox. SQLite cannot widen a CHECK in place: the table is rebuilt, rows kept.
CREATE TABLE proposals_new (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('add', 'correct', 'archive', 'restore', 'purge', 'import')),
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    target_id TEXT,
    norm_key TEXT,
    payload TEXT NOT NULL,         -- JSON of the validated arguments
    principal TEXT NOT NULL,
    surface TEXT NOT NULL,
    reason TEXT,
    result_id TEXT,
    created_at TEXT NOT NULL,
    decided_at TEXT
);
INSERT INTO proposals_new (id, kind, status, target_id, norm_key, payload, principal, surface, reason, result_id,
    created_at, decided_at)
    SELECT id, kind, status, target_id, norm_key, payload, principal, surface, reason, result_id, created_at, decided_at
    FROM proposals;
DROP TABLE proposals;
ALTER TABLE proposals_new RENAME TO proposals;
CREATE INDEX proposals_status ON proposals (status, created_at);
