"""OAuth 2.1 for the HTTP transport (docs/oauth.md): the SDK's authorization-server handlers over
memvault's grants (`core/operations/oauth.py`), consent answered in memvault, scopes per tool."""
