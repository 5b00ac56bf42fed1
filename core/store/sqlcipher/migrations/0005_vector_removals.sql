-- memvault schema 5: a counter of removed vectors, so the in-memory vector index learns of a purge
-- with a one-row read (counting memory_vectors read every stored vector: tens of ms per 10k).
CREATE TABLE vector_removals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
);
INSERT INTO vector_removals (id, n) VALUES (1, 0);
CREATE TRIGGER vector_removed AFTER DELETE ON memory_vectors
BEGIN UPDATE vector_removals SET n = n + 1 WHERE id = 1; END;
