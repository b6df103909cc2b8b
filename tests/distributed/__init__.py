"""The Ray backend (hexcore.distributed); scripts/test.sh runs it in a second pass."""
