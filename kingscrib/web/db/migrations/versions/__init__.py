"""One module a schema change, oldest first (each names the revision it follows)."""
