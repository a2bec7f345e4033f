import type { Ticket } from "../api/client";

export function EscalationBanner({ tickets }: { tickets: Ticket[] }) {
  const escalated = tickets.filter((t) => t.escalated_at !== null);
  if (escalated.length === 0) return null;
  return (
    <aside className="escalation-banner" role="alert">
      {/* The coordinator is already paged; this banner only informs the station. */}
      {escalated.length === 1
        ? "One ticket has been escalated to the coordinator."
        : escalated.length + " tickets have been escalated to the coordinator."}
    </aside>
  );
}
