-- One row per escalation, so the daily digest can report what was escalated and when.
CREATE TABLE escalations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ticket_id INTEGER NOT NULL REFERENCES tickets (id),
    escalated_at TEXT NOT NULL
);

CREATE INDEX escalations_by_time ON escalations (escalated_at);
