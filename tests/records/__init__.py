"""hexcore.records: game records."""
