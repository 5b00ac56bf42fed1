"""Templates that `memvault install <client>` puts in place (shipped as `memvault.client_templates`)."""
