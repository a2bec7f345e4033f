-- Stations and field notes.
CREATE TABLE stations (
    code TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    region TEXT NOT NULL
);

CREATE TABLE notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    station TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    ticket_id INTEGER,
    written_at TEXT NOT NULL,
    synced INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX notes_unsynced ON notes (synced, id);
