"""The scopes a Kestrel token can carry."""

SCOPES = frozenset({"tickets:read", "tickets:write", "notes:write", "stations:read"})

READ_ONLY = frozenset(s for s in SCOPES if s.endswith(":read"))
