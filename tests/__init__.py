"""The test suite (a package, so that same-named modules in its folders do not clash)."""
