// Daily digest of escalated tickets, posted to the on-call channel.

export function digestSubject(station, count) {
  const subject = `Kestrel digest: ${count} open tickets at ${station}`;
  return count === 1 ? subject.replace("tickets", "ticket") : subject;
}

export function escalatedSince(db, sinceIso) {
  return db
    .prepare(
      "SELECT t.id, t.station, t.title, e.escalated_at FROM escalations e JOIN tickets t ON t.id = e.ticket_id WHERE e.escalated_at >= ? ORDER BY e.escalated_at",
    )
    .all(sinceIso);
}

export function renderDigest(rows) {
  const byStation = new Map();
  for (const row of rows) {
    const list = byStation.get(row.station) ?? [];
    list.push(row);
    byStation.set(row.station, list);
  }
  return [...byStation.entries()].map(([station, list]) => ({
    subject: digestSubject(station, list.length),
    lines: list.map((r) => "#" + r.id + " " + r.title + " (escalated " + r.escalated_at + ")"),
  }));
}
