-- memvault on PostgreSQL, schema 1: the SQLCipher store's schema 6 (core/store/sqlcipher/migrations/),
-- with PostgreSQL's own indexes. Times are ISO 8601 UTC text (sortable) and ids opaque text, as there.
-- Words: a tsvector per record ('simple' configuration: no language's stemming), kept by the engine.
-- Fragments: a trigram table of memvault's own (pg_trgm is not everywhere pgvector is).

CREATE TABLE sources (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('manual', 'conversation', 'file', 'import', 'assistant')),
    title TEXT,
    reference TEXT,
    integrity_hash TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE import_batches (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('committed', 'rolled_back')),
    counts TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE conversations (
    rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT PRIMARY KEY,
    source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
    title TEXT,
    started_at TEXT,
    snippet TEXT,
    import_batch_id TEXT,
    format TEXT,
    reference TEXT,
    content_hash TEXT,
    turns INTEGER NOT NULL DEFAULT 0,
    words TSVECTOR
);
CREATE INDEX conversations_started ON conversations (started_at);
CREATE INDEX conversations_batch ON conversations (import_batch_id);
CREATE INDEX conversations_words ON conversations USING gin (words);

CREATE TABLE domains (
    name TEXT PRIMARY KEY,
    description TEXT NOT NULL DEFAULT '',
    keywords TEXT NOT NULL DEFAULT '[]',
    related TEXT NOT NULL DEFAULT '[]',
    priority DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    depth TEXT NOT NULL DEFAULT 'normal' CHECK (depth IN ('shallow', 'normal', 'deep')),
    token_share DOUBLE PRECISION NOT NULL DEFAULT 0.25,
    centroid BYTEA,
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
    rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,  -- what the in-memory indexes key on
    id TEXT PRIMARY KEY,
    domain TEXT NOT NULL REFERENCES domains(name) ON UPDATE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('FACT', 'PREFERENCE', 'DECISION', 'PROJECT', 'PROJECT_STATE',
        'GOAL', 'CONSTRAINT', 'DISCOVERY', 'WORKFLOW', 'SUCCESSFUL_APPROACH', 'FAILED_APPROACH',
        'OPEN_QUESTION', 'NEXT_ACTION', 'USER_CORRECTION')),
    statement TEXT NOT NULL,
    norm_key TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('current', 'historical', 'partial', 'disputed',
        'superseded', 'archived')),
    confidence DOUBLE PRECISION NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    importance DOUBLE PRECISION NOT NULL CHECK (importance BETWEEN 0 AND 1),
    explicitness TEXT NOT NULL CHECK (explicitness IN ('explicit', 'inferred', 'consolidated')),
    sensitivity TEXT NOT NULL CHECK (sensitivity IN ('normal', 'personal', 'sensitive')),
    access_scope TEXT NOT NULL CHECK (access_scope IN ('local_only', 'remote_allowed', 'workspace_allowed')),
    authorized_principal_id TEXT,
    authorized_workspace_id TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    source TEXT,
    source_reference TEXT,
    evidence TEXT,
    evidence_hash TEXT,
    source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
    project_id TEXT REFERENCES projects(id) ON DELETE SET NULL,
    import_batch_id TEXT REFERENCES import_batches(id) ON DELETE SET NULL,
    created_by TEXT NOT NULL,
    event_time TEXT,
    learned_at TEXT NOT NULL,
    observed_at TEXT,
    valid_from TEXT,
    valid_until TEXT,
    last_confirmed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    supersedes_id TEXT REFERENCES memories(id),
    superseded_by_id TEXT REFERENCES memories(id),
    superseded_at TEXT,
    archived_reason TEXT,
    archived_at TEXT,
    status_before_archive TEXT,
    revision INTEGER NOT NULL DEFAULT 1,
    due_at TEXT,
    words TSVECTOR                 -- statement (weight A), tags (B), entity names (C)
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
CREATE INDEX memories_words ON memories USING gin (words);

CREATE TABLE memory_trigrams (
    trigram TEXT NOT NULL,
    memory_rowid BIGINT NOT NULL REFERENCES memories(rowid) ON DELETE CASCADE,
    PRIMARY KEY (trigram, memory_rowid)
);
CREATE INDEX memory_trigrams_memory ON memory_trigrams (memory_rowid);

CREATE TABLE memory_usage (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    retrieval_count INTEGER NOT NULL DEFAULT 0,
    last_retrieved_at TEXT
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
);
CREATE INDEX memory_entities_entity ON memory_entities (entity_id);

CREATE TABLE links (
    from_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    to_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('depends_on', 'contradicts', 'supersedes',
        'part_of_project', 'failed_for', 'relates_to', 'mentions')),
    weight DOUBLE PRECISION NOT NULL DEFAULT 1.0 CHECK (weight BETWEEN 0 AND 1),
    created_at TEXT NOT NULL,
    PRIMARY KEY (from_id, to_id, type)
);
CREATE INDEX links_to ON links (to_id, type);

CREATE TABLE project_states (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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

CREATE TABLE proposals (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('add', 'correct', 'archive', 'restore', 'purge', 'import')),
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    target_id TEXT,
    norm_key TEXT,
    payload TEXT NOT NULL,
    principal TEXT NOT NULL,
    surface TEXT NOT NULL,
    reason TEXT,
    result_id TEXT,
    created_at TEXT NOT NULL,
    decided_at TEXT
);
CREATE INDEX proposals_status ON proposals (status, created_at);

CREATE TABLE events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    time TEXT NOT NULL,
    principal TEXT NOT NULL,
    surface TEXT NOT NULL,
    action TEXT NOT NULL,
    memory_id TEXT,
    details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_memory ON events (memory_id, id);
CREATE FUNCTION memvault_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'events are append-only'; END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION memvault_append_only();
-- Every machine listening hears of a committed change (core/store/postgres/listen.py); delivered at
-- the commit, once per transaction and channel.
CREATE FUNCTION memvault_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_notify('memvault_changes', ''); RETURN NULL; END $$;
CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION memvault_notify();

CREATE TABLE feedback (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    useful INTEGER NOT NULL CHECK (useful IN (0, 1)),
    principal TEXT NOT NULL,
    note TEXT,
    time TEXT NOT NULL
);
CREATE INDEX feedback_memory ON feedback (memory_id);

CREATE TABLE retrieval_log (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    time TEXT NOT NULL,
    principal TEXT NOT NULL,
    ids TEXT NOT NULL,
    scores TEXT NOT NULL,
    latency_ms DOUBLE PRECISION NOT NULL,
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
    token_hash TEXT PRIMARY KEY,
    principal TEXT NOT NULL REFERENCES principals(name),
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE tombstones (
    memory_id TEXT PRIMARY KEY,
    purged_at TEXT NOT NULL,
    reason_category TEXT NOT NULL
);

CREATE TABLE memory_vectors (
    rowid BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE,  -- a replaced vector takes a new one (`put`)
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BYTEA NOT NULL
);

CREATE TABLE backups (
    path TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'manual' CHECK (kind IN ('manual', 'daily', 'weekly', 'pre-restore')),
    removed_at TEXT
);

CREATE TABLE import_manifests (
    batch_id TEXT PRIMARY KEY REFERENCES import_batches(id),
    path TEXT NOT NULL,
    format TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    chunks_total INTEGER NOT NULL,
    chunks_done INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    rolled_back_at TEXT
);
CREATE INDEX import_manifests_source ON import_manifests (source_hash, finished_at);

CREATE TABLE import_items (
    batch_id TEXT NOT NULL REFERENCES import_batches(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('added', 'corrected', 'confirmed', 'changed', 'linked', 'domain_created')),
    memory_id TEXT,
    target_id TEXT,
    prior TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (batch_id, seq)
);

-- One counter every write to searchable state moves, in the writing transaction (by trigger, so no
-- write path forgets it): caches in every process, on every machine, key on it.
CREATE TABLE store_version (id INTEGER PRIMARY KEY CHECK (id = 1), n BIGINT NOT NULL);
INSERT INTO store_version (id, n) VALUES (1, 0);
CREATE FUNCTION memvault_store_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; RETURN NULL; END $$;
CREATE TRIGGER sv_memories AFTER INSERT OR UPDATE OR DELETE ON memories
    FOR EACH ROW EXECUTE FUNCTION memvault_store_written();
CREATE TRIGGER sv_links AFTER INSERT OR UPDATE OR DELETE ON links
    FOR EACH ROW EXECUTE FUNCTION memvault_store_written();
CREATE TRIGGER sv_entities AFTER INSERT OR DELETE ON memory_entities
    FOR EACH ROW EXECUTE FUNCTION memvault_store_written();
CREATE TRIGGER sv_domains AFTER INSERT OR UPDATE OR DELETE ON domains
    FOR EACH ROW EXECUTE FUNCTION memvault_store_written();
CREATE TRIGGER sv_feedback AFTER INSERT OR DELETE ON feedback
    FOR EACH ROW EXECUTE FUNCTION memvault_store_written();
CREATE TRIGGER sv_vectors AFTER INSERT OR UPDATE OR DELETE ON memory_vectors
    FOR EACH ROW EXECUTE FUNCTION memvault_store_written();
CREATE TRIGGER sv_settings AFTER INSERT OR UPDATE OR DELETE ON settings
    FOR EACH ROW EXECUTE FUNCTION memvault_store_written();

CREATE TABLE vector_removals (id INTEGER PRIMARY KEY CHECK (id = 1), n BIGINT NOT NULL);
INSERT INTO vector_removals (id, n) VALUES (1, 0);
CREATE FUNCTION memvault_vector_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE vector_removals SET n = n + 1 WHERE id = 1; RETURN NULL; END $$;
CREATE TRIGGER vector_removed AFTER DELETE ON memory_vectors
    FOR EACH ROW EXECUTE FUNCTION memvault_vector_removed();

CREATE TABLE oauth_clients (
    client_id TEXT PRIMARY KEY,
    client_name TEXT,
    secret_hash TEXT,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE oauth_requests (
    id TEXT PRIMARY KEY,
    page_hash TEXT NOT NULL UNIQUE,
    client_id TEXT NOT NULL REFERENCES oauth_clients(client_id),
    scopes TEXT NOT NULL,
    granted TEXT,
    redirect_uri TEXT NOT NULL,
    redirect_explicit INTEGER NOT NULL,
    code_challenge TEXT NOT NULL,
    state TEXT,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'answered')),
    decided_at TEXT
);

CREATE TABLE oauth_connections (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(client_id),
    request_id TEXT NOT NULL REFERENCES oauth_requests(id),
    scopes TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    refreshed_at TEXT,
    revoked_at TEXT,
    revoked_reason TEXT
);

CREATE TABLE oauth_codes (
    code_hash TEXT PRIMARY KEY,
    request_id TEXT NOT NULL UNIQUE REFERENCES oauth_requests(id),
    expires_at TEXT NOT NULL,
    used_at TEXT,
    connection_id TEXT REFERENCES oauth_connections(id)
);

CREATE TABLE oauth_tokens (
    token_hash TEXT PRIMARY KEY,
    connection_id TEXT NOT NULL REFERENCES oauth_connections(id),
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    revoked_at TEXT
);
CREATE INDEX oauth_tokens_by_connection ON oauth_tokens (connection_id);
