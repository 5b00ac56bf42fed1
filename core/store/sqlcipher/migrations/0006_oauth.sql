-- memvault schema 6: OAuth 2.1 on the HTTP transport (docs/oauth.md). Of every secret (a client
-- secret, a consent page's address, an authorization code, a token) only its sha256 is kept.
CREATE TABLE oauth_clients (
    client_id TEXT PRIMARY KEY,
    client_name TEXT,
    secret_hash TEXT,              -- NULL for a public client (token_endpoint_auth_method none)
    metadata TEXT NOT NULL,        -- the client's registration (RFC 7591) as JSON, without its secret
    created_at TEXT NOT NULL
);

-- An authorization request waiting for the person: approved or denied in memvault, never on the page.
CREATE TABLE oauth_requests (
    id TEXT PRIMARY KEY,           -- the pairing code the page shows and `memvault connections approve` takes
    page_hash TEXT NOT NULL UNIQUE,
    client_id TEXT NOT NULL REFERENCES oauth_clients(client_id),
    scopes TEXT NOT NULL,          -- asked for, space separated
    granted TEXT,                  -- what the person granted (a subset), once approved
    redirect_uri TEXT NOT NULL,
    redirect_explicit INTEGER NOT NULL,
    code_challenge TEXT NOT NULL,  -- PKCE S256
    state TEXT,
    resource TEXT NOT NULL,        -- RFC 8707: the MCP endpoint the tokens will be good for
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'answered')),
    decided_at TEXT
);

-- One approved authorization once its code is exchanged: a family of tokens, revoked as one.
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
    used_at TEXT,                  -- a refresh token, once exchanged (rotation): presenting it again revokes the family
    revoked_at TEXT
);
CREATE INDEX oauth_tokens_by_connection ON oauth_tokens (connection_id);
