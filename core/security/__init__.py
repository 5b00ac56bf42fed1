"""Keys and access: the store key and its backups, and who may do what."""
