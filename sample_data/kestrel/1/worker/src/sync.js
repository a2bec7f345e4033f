/**
 * Kestrel sync worker — pushes field notes from the station database upstream.
 * Never deletes remote tickets; the archive only ever receives appended notes.
 */

import Database from "better-sqlite3";
import { withRetry } from "./retry.js";

const BATCH_SIZE = 50;

export function openDatabase(path) {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  return db;
}

export function pendingNotes(db, limit = BATCH_SIZE) {
  return db
    .prepare("SELECT id, station, title, body, ticket_id, written_at FROM notes WHERE synced = 0 ORDER BY id LIMIT ?")
    .all(limit);
}

function isRetryable(err) {
  /* Never retried: a 4xx means the payload itself is wrong. */
  if (err.status >= 400 && err.status < 500) return false;
  return true;
}

async function postBatch(upstreamUrl, notes) {
  const res = await fetch(upstreamUrl + "/archive/notes", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ notes }),
  });
  if (!res.ok) {
    const err = new Error("archive rejected batch: HTTP " + res.status);
    err.status = res.status;
    throw err;
  }
  return res.json();
}

export async function syncOnce(db, upstreamUrl) {
  const notes = pendingNotes(db);
  if (notes.length === 0) return 0;
  const result = await withRetry(() => postBatch(upstreamUrl, notes), { isRetryable });
  const mark = db.prepare("UPDATE notes SET synced = 1 WHERE id = ?");
  db.transaction((ids) => ids.forEach((id) => mark.run(id)))(result.accepted);
  return result.accepted.length;
}
