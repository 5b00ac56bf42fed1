-- memvault schema 2: what the retrieval brain needs beside schema 1.

-- One counter that every write to searchable state moves, in the same transaction as the
-- write (by trigger, so no write path can forget it). Search caches in any process key on
-- it, so a write anywhere invalidates them everywhere. Usage counters and the retrieval log
-- are deliberately not counted: reading must not invalidate reading.
CREATE TABLE store_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
);
INSERT INTO store_version (id, n) VALUES (1, 0);

CREATE TRIGGER sv_memories_insert AFTER INSERT ON memories
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_memories_update AFTER UPDATE ON memories
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_memories_delete AFTER DELETE ON memories
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_links_insert AFTER INSERT ON links
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_links_update AFTER UPDATE ON links
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_links_delete AFTER DELETE ON links
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_entities_insert AFTER INSERT ON memory_entities
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_entities_delete AFTER DELETE ON memory_entities
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_domains_insert AFTER INSERT ON domains
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_domains_update AFTER UPDATE ON domains
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_domains_delete AFTER DELETE ON domains
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_feedback_insert AFTER INSERT ON feedback
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_feedback_delete AFTER DELETE ON feedback
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_vectors_insert AFTER INSERT ON memory_vectors
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_vectors_delete AFTER DELETE ON memory_vectors
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_settings_insert AFTER INSERT ON settings
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_settings_update AFTER UPDATE ON settings
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER sv_settings_delete AFTER DELETE ON settings
BEGIN UPDATE store_version SET n = n + 1 WHERE id = 1; END;
