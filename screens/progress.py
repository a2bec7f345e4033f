"""The review's progress in words, for the header: counts reviewed, refuted and skipped, what is
still loading, and the last sync."""

from __future__ import annotations

from screens.session import ReviewSession
from screens.session_rows import Progress

__all__ = ["header_progress", "progress_text", "sync_text"]


def progress_text(
    session: ReviewSession, *, short: bool = False, progress: Progress | None = None
) -> str:
    """``records 3/22 reviewed · 1 refuted · 1 skipped │ quotes 4/31 reviewed · 7 failing`` (a
    large review's counts with thousands separated: ``records 119,592/135,130``).

    ``short``: the same for a narrow header, ``records 3/22 ✗1 –1 · quotes 4/31 · 7 failing``.
    """
    p = progress or session.progress()
    parts = []
    for name, done, total, refuted, skipped in (
        ("records", p.records_reviewed, p.records, p.records_refuted, p.records_skipped),
        ("quotes", p.quotes_reviewed, p.quotes, p.quotes_refuted, p.quotes_skipped),
    ):
        if short:
            text = f"{name} {done:,}/{total:,}"
            text += f" ✗{refuted:,}" if refuted else ""
            text += f" –{skipped:,}" if skipped else ""
        else:
            text = f"{name} {done:,}/{total:,} reviewed"
            text += f" · {refuted:,} refuted" if refuted else ""
            text += f" · {skipped:,} skipped" if skipped else ""
        parts.append(text)
    text = (" · " if short else " │ ").join(parts)
    if session.anchored:
        text += f" · {p.failing:,} failing"
    return text


def header_progress(
    session: ReviewSession,
    *,
    revision_open: bool,
    anchoring: tuple[int, int] | None,
    reading: bool,
    stale: int,
    store_error: str | None,
    waiting: int = 0,
) -> tuple[str, str, str]:
    """The header's progress: anchoring, reading verdicts, or the review's progress; in
    words, in fewer words with the last sync, and in fewer words (narrower terminals).
    ``waiting``: changes given that the store has not taken yet (another process's lock)."""
    if anchoring is not None:
        texts = [f"anchoring quotes {anchoring[0]:,}/{anchoring[1]:,}…"] * 3
    elif revision_open and not session.anchored:
        texts = ["anchoring quotes…"] * 3
    elif reading:
        texts = ["reading verdicts…"] * 3
    else:
        counts = session.progress()
        texts = [
            progress_text(session, progress=counts),
            progress_text(session, short=True, progress=counts),
            progress_text(session, short=True, progress=counts),
        ]
    if stale:
        texts = [text + f" · {stale:,} stale" for text in texts]
    synced = sync_text(session)
    if synced and not reading and anchoring is None:
        texts[0] += f" · {synced}"
        texts[1] += f" · {synced}"  # the narrowest form keeps to the counts
    if store_error is not None:
        texts = ["verdicts cannot be saved · " + text for text in texts]
    elif waiting:  # first: the counts after it do not hold them yet
        texts = [f"{waiting:,} not saved yet · " + text for text in texts]
    return texts[0], texts[1], texts[2]


def sync_text(session: ReviewSession) -> str:
    """``synced 14:02 · 12 in`` (local time; the date too when not today), or ""."""
    synced = session.synced
    if not synced or not isinstance(synced.get("at"), str):
        return ""
    from datetime import datetime

    try:
        moment = datetime.strptime(str(synced["at"]), "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        return ""
    from datetime import UTC

    local = moment.replace(tzinfo=UTC).astimezone()
    today = datetime.now(UTC).astimezone().date()
    when = local.strftime("%H:%M" if local.date() == today else "%d %b %H:%M")
    received = synced.get("received")
    text = f"synced {when} · {received if isinstance(received, int) else 0} in"
    pending = synced.get("pending")
    if synced.get("offline") and isinstance(pending, int) and pending:
        text += f" · {pending} to send"
    return text
