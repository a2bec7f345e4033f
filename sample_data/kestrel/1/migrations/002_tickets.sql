-- Equipment tickets opened by stations.
CREATE TABLE tickets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    station TEXT NOT NULL,
    title TEXT NOT NULL,
    severity INTEGER NOT NULL CHECK (severity BETWEEN 1 AND 4),
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    opened_at TEXT NOT NULL,
    closed_at TEXT,
    escalated_at TEXT
);

CREATE INDEX tickets_open ON tickets (status, severity DESC, opened_at);
