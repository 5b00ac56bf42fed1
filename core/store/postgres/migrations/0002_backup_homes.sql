-- memvault on PostgreSQL, schema 2: each machine's backups are its own (issue 30). A backup is a file on
-- the machine that wrote it; the list names the home that wrote each (`home_id`: the store_id in that
-- home's key file, which its backups' `-keys` carry too), so a machine lists, checks, rewrites and
-- expires only its own, and never marks another machine's files removed because it cannot see them.
-- Two machines may use the same relative path (`backups/memvault-<time>-daily.db`): the key is both.
ALTER TABLE backups ADD COLUMN home_id TEXT NOT NULL DEFAULT '';
ALTER TABLE backups DROP CONSTRAINT backups_pkey;
ALTER TABLE backups ADD PRIMARY KEY (home_id, path);
