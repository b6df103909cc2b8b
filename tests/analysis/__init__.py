"""hexcore.analysis: the designer's report."""
