export interface Ticket {
  id: number;
  station: string;
  title: string;
  severity: "low" | "normal" | "high" | "urgent";
  status: "open" | "closed";
  opened_at: string;
  escalated_at: string | null;
}

export interface NoteDraft {
  station: string;
  title: string;
  body: string;
  ticket?: number;
}

const API_BASE = import.meta.env.VITE_KESTREL_API ?? "/api";

function token(): string {
  return sessionStorage.getItem("kestrel.token") ?? "";
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(API_BASE + path, {
    ...init,
    headers: { "Content-Type": "application/json", Authorization: "Bearer " + token() },
  });
  const data = await res.json();
  if (!res.ok) throw new ApiError(res.status, data.error ?? res.statusText);
  return data as T;
}

export async function fetchTickets(station: string): Promise<Ticket[]> {
  const data = await request<{ tickets: Ticket[] }>("/tickets?station=" + encodeURIComponent(station));
  return data.tickets;
}

export async function saveNote(draft: NoteDraft): Promise<void> {
  await request("/notes", { method: "POST", body: JSON.stringify(draft) });
}
