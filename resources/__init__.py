"""Data files shipped with memvault: fictional fixtures, icons, vendored model files."""
