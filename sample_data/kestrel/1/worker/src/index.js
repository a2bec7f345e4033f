import { openDatabase, syncOnce } from "./sync.js";

const DB_PATH = process.env.KESTREL_DB ?? "kestrel.sqlite3";
const UPSTREAM = process.env.KESTREL_UPSTREAM ?? "https://archive.kestrel.example";
const INTERVAL_MS = Number(process.env.KESTREL_SYNC_INTERVAL_MS ?? 60000);

const db = openDatabase(DB_PATH);

async function tick() {
  try {
    const sent = await syncOnce(db, UPSTREAM);
    if (sent > 0) console.log("[kestrel-worker] synced " + sent + " notes");
  } catch (err) {
    console.error("[kestrel-worker] sync failed:", err.message);
  }
}

await tick();
setInterval(tick, INTERVAL_MS);
