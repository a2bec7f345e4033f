import { useEffect, useState } from "react";
import { fetchTickets, type Ticket } from "./api/client";
import { NoteEditor } from "./components/NoteEditor";
import { TicketList } from "./components/TicketList";

export function App() {
  const station = localStorage.getItem("kestrel.station") ?? "KS-00001";
  const [tickets, setTickets] = useState<Ticket[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    fetchTickets(station)
      .then(setTickets)
      .catch((e: Error) => setError(e.message));
  }, [station]);

  return (
    <main className="kestrel">
      <header>
        <h1>Kestrel · {station}</h1>
      </header>
      {error && <p className="error">{error}</p>}
      <TicketList tickets={tickets} />
      <NoteEditor station={station} />
    </main>
  );
}
