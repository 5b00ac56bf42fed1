"""What the `Vault` facade does, one module per area: reads, views, the inbox, domains, feedback."""
