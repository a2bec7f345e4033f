import { useState } from "react";
import { saveNote } from "../api/client";

export function NoteEditor({ station }: { station: string }) {
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [status, setStatus] = useState<"idle" | "saving" | "saved" | "failed">("idle");

  async function submit() {
    setStatus("saving");
    try {
      await saveNote({ station, title, body });
      setBody("");
      setStatus("saved");
    } catch {
      // Keep the draft: the station may be offline and the user retries later.
      setStatus("failed");
    }
  }

  return (
    <section className="note-editor">
      <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Title" />
      <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={8} />
      <button onClick={submit} disabled={status === "saving" || body.trim() === ""}>
        Save note
      </button>
      {status === "failed" && <p className="error">Not saved. The draft is kept; try again.</p>}
    </section>
  );
}
