import type { Ticket } from "../api/client";
import { minutesSince, severityLabel, truncate } from "../lib/format";

export function TicketList({ tickets }: { tickets: Ticket[] }) {
  if (tickets.length === 0) {
    return <p className="empty">No open tickets at this station.</p>;
  }
  return (
    <ul className="tickets">
      {tickets.map((t) => (
        <li key={t.id} className={"severity-" + t.severity}>
          <span className="label">{severityLabel(t.severity)}</span>
          <span className="title">{truncate(t.title)}</span>
          <span className="age">{minutesSince(t.opened_at)} min</span>
          {t.escalated_at && <span className="escalated">escalated</span>}
        </li>
      ))}
    </ul>
  );
}
