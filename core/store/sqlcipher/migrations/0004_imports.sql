-- memvault schema 4: imports of a person's history (conversations as sources, batches, manifests).

-- A conversation keeps a pointer into the untouched original and the hash of what was read.
ALTER TABLE conversations ADD COLUMN format TEXT;
ALTER TABLE conversations ADD COLUMN reference TEXT;
ALTER TABLE conversations ADD COLUMN content_hash TEXT;
ALTER TABLE conversations ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
CREATE INDEX conversations_started ON conversations (started_at);
CREATE INDEX conversations_batch ON conversations (import_batch_id);

-- Words of each conversation, searchable without a stored copy of the transcript (contentless).
CREATE VIRTUAL TABLE conversation_fts USING fts5(
    title, body,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- One per import: where it came from, how far it got (chunks commit one by one), its undoing.
CREATE TABLE import_manifests (
    batch_id TEXT PRIMARY KEY REFERENCES import_batches(id),
    path TEXT NOT NULL,
    format TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',        -- JSON: limits and choices the import ran with
    chunks_total INTEGER NOT NULL,
    chunks_done INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    rolled_back_at TEXT
);
CREATE INDEX import_manifests_source ON import_manifests (source_hash, finished_at);

-- What each import (or consolidation run) did, so that a rollback undoes exactly that: ids and
-- prior values, no text.
CREATE TABLE import_items (
    batch_id TEXT NOT NULL REFERENCES import_batches(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('added', 'corrected', 'confirmed', 'changed', 'linked', 'domain_created')),
    memory_id TEXT,
    target_id TEXT,
    prior TEXT NOT NULL DEFAULT '{}',          -- JSON: the changed record's fields before the import
    PRIMARY KEY (batch_id, seq)
) WITHOUT ROWID;

