import hexcore  # noqa: F401  -- fail at collection when the extension is not built
