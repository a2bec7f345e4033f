"""The audit screen: the systems of an audit, their progress, and each one's review."""
