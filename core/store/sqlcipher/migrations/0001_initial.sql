-- memvault schema 1: memories and everything around them.
-- Times are ISO 8601 UTC text (sortable); ids are opaque text.

CREATE TABLE sources (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('manual', 'conversation', 'file', 'import', 'assistant')),
    title TEXT,
    reference TEXT,
    integrity_hash TEXT,           -- evidence is a pointer plus a hash, never a copy
    created_at TEXT NOT NULL
);

CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
    title TEXT,
    started_at TEXT,
    snippet TEXT,
    import_batch_id TEXT
);

CREATE TABLE import_batches (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('committed', 'rolled_back')),
    counts TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE domains (
    name TEXT PRIMARY KEY,
    description TEXT NOT NULL DEFAULT '',
    keywords TEXT NOT NULL DEFAULT '[]',       -- JSON list
    related TEXT NOT NULL DEFAULT '[]',        -- JSON list of domain names
    priority REAL NOT NULL DEFAULT 0.5,
    depth TEXT NOT NULL DEFAULT 'normal' CHECK (depth IN ('shallow', 'normal', 'deep')),
    token_share REAL NOT NULL DEFAULT 0.25,
    centroid BLOB,
    pinned INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    norm_name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);

CREATE TABLE memories (
    id TEXT PRIMARY KEY,
    domain TEXT NOT NULL REFERENCES domains(name) ON UPDATE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('FACT', 'PREFERENCE', 'DECISION', 'PROJECT', 'PROJECT_STATE',
        'GOAL', 'CONSTRAINT', 'DISCOVERY', 'WORKFLOW', 'SUCCESSFUL_APPROACH', 'FAILED_APPROACH',
        'OPEN_QUESTION', 'NEXT_ACTION', 'USER_CORRECTION')),
    statement TEXT NOT NULL,
    norm_key TEXT NOT NULL,        -- statement after the duplicate normalisation
    status TEXT NOT NULL CHECK (status IN ('current', 'historical', 'partial', 'disputed',
        'superseded', 'archived')),
    confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    importance REAL NOT NULL CHECK (importance BETWEEN 0 AND 1),
    explicitness TEXT NOT NULL CHECK (explicitness IN ('explicit', 'inferred', 'consolidated')),
    sensitivity TEXT NOT NULL CHECK (sensitivity IN ('normal', 'personal', 'sensitive')),
    access_scope TEXT NOT NULL CHECK (access_scope IN ('local_only', 'remote_allowed',
        'workspace_allowed')),
    authorized_principal_id TEXT,
    authorized_workspace_id TEXT,
    tags TEXT NOT NULL DEFAULT '[]',           -- JSON list
    source TEXT,
    source_reference TEXT,
    evidence TEXT,
    evidence_hash TEXT,
    source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
    project_id TEXT REFERENCES projects(id) ON DELETE SET NULL,
    import_batch_id TEXT REFERENCES import_batches(id) ON DELETE SET NULL,
    created_by TEXT NOT NULL,      -- principal that wrote (or proposed) it
    event_time TEXT,
    learned_at TEXT NOT NULL,      -- knowledge time: when the store learned it
    observed_at TEXT,
    valid_from TEXT,               -- valid time: when it became true in the world
    valid_until TEXT,
    last_confirmed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    supersedes_id TEXT REFERENCES memories(id),
    superseded_by_id TEXT REFERENCES memories(id),
    superseded_at TEXT,            -- knowledge time of the supersession
    archived_reason TEXT,
    archived_at TEXT,
    status_before_archive TEXT,    -- what restore returns the record to
    revision INTEGER NOT NULL DEFAULT 1,
    due_at TEXT
);
CREATE INDEX memories_status_domain ON memories (status, domain);
CREATE INDEX memories_type_status ON memories (type, status);
CREATE INDEX memories_norm_key ON memories (norm_key, domain, type);
CREATE INDEX memories_scope ON memories (access_scope, status);
CREATE INDEX memories_valid ON memories (valid_from, valid_until);
CREATE INDEX memories_learned ON memories (learned_at);
CREATE INDEX memories_supersedes ON memories (supersedes_id);
CREATE INDEX memories_project ON memories (project_id);
CREATE INDEX memories_due ON memories (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX memories_batch ON memories (import_batch_id) WHERE import_batch_id IS NOT NULL;

-- Usage counters live beside the record so that reading does not bump its revision.
CREATE TABLE memory_usage (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    retrieval_count INTEGER NOT NULL DEFAULT 0,
    last_retrieved_at TEXT
);

-- Lexical index over statement, tags and entity names; contentless so text lives once.
CREATE VIRTUAL TABLE memory_fts USING fts5(
    statement, tags, entities,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE entities (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    norm_name TEXT NOT NULL UNIQUE,
    kind TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE memory_entities (
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    PRIMARY KEY (memory_id, entity_id)
) WITHOUT ROWID;
CREATE INDEX memory_entities_entity ON memory_entities (entity_id);

CREATE TABLE links (
    from_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    to_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('depends_on', 'contradicts', 'supersedes',
        'part_of_project', 'failed_for', 'relates_to', 'mentions')),
    weight REAL NOT NULL DEFAULT 1.0 CHECK (weight BETWEEN 0 AND 1),
    created_at TEXT NOT NULL,
    PRIMARY KEY (from_id, to_id, type)
) WITHOUT ROWID;
CREATE INDEX links_to ON links (to_id, type);

CREATE TABLE project_states (
    id INTEGER PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    recorded_at TEXT NOT NULL
);
CREATE INDEX project_states_project ON project_states (project_id, recorded_at);

CREATE TABLE decisions (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    project_id TEXT REFERENCES projects(id) ON DELETE SET NULL,
    decided_at TEXT NOT NULL
);

CREATE TABLE unresolved_items (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    project_id TEXT REFERENCES projects(id) ON DELETE SET NULL,
    kind TEXT NOT NULL,
    due_at TEXT,
    resolved_at TEXT
);
CREATE INDEX unresolved_due ON unresolved_items (resolved_at, due_at);

-- The approval inbox: proposed writes and purge requests wait here for a person.
CREATE TABLE proposals (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('add', 'correct', 'archive', 'purge')),
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
CREATE INDEX proposals_status ON proposals (status, created_at);

-- Append-only history of every state change: ids, never memory text.
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time TEXT NOT NULL,
    principal TEXT NOT NULL,
    surface TEXT NOT NULL,
    action TEXT NOT NULL,
    memory_id TEXT,
    details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_memory ON events (memory_id, id);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TABLE feedback (
    id INTEGER PRIMARY KEY,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    useful INTEGER NOT NULL CHECK (useful IN (0, 1)),
    principal TEXT NOT NULL,
    note TEXT,
    time TEXT NOT NULL
);
CREATE INDEX feedback_memory ON feedback (memory_id);

-- What search returned: ids, scores and latency; never query or memory text.
CREATE TABLE retrieval_log (
    id INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    principal TEXT NOT NULL,
    ids TEXT NOT NULL,             -- JSON list
    scores TEXT NOT NULL,          -- JSON list
    latency_ms REAL NOT NULL,
    shadow INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE principals (
    name TEXT PRIMARY KEY,
    surface TEXT NOT NULL CHECK (surface IN ('local', 'remote', 'workspace')),
    workspace_id TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,   -- sha256 of the token; the token itself is never kept
    principal TEXT NOT NULL REFERENCES principals(name),
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL            -- JSON
);

-- A purged record leaves only this: no content.
CREATE TABLE tombstones (
    memory_id TEXT PRIMARY KEY,
    purged_at TEXT NOT NULL,
    reason_category TEXT NOT NULL
);

-- Trigram index beside the word index: partial words and CJK text match.
CREATE VIRTUAL TABLE memory_trigram USING fts5(
    statement,
    content = '', contentless_delete = 1,
    tokenize = 'trigram remove_diacritics 1'
);

-- Local embeddings of statements (float32, L2-normalised), encrypted with the rest of the store.
CREATE TABLE memory_vectors (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BLOB NOT NULL
);

-- Backups memvault made: purge reaches each of them.
CREATE TABLE backups (
    path TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'manual' CHECK (kind IN ('manual', 'daily', 'weekly', 'pre-restore')),
    removed_at TEXT
);
