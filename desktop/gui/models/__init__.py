"""Qt item models and the Vault calls behind the memory, timeline and graph views."""
