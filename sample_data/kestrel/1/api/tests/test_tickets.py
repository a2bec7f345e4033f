from datetime import UTC, datetime, timedelta

from kestrel.tickets import Severity, TicketStore, escalate_due, is_overdue

START = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)


def test_urgent_ticket_escalates_after_delay(tmp_path):
    store = TicketStore(tmp_path / "k.sqlite3")
    ticket = store.open("KS-00001", "Anemometer silent", Severity.URGENT, START)
    assert not is_overdue(ticket, START + timedelta(minutes=14))
    assert is_overdue(ticket, START + timedelta(minutes=15))
    assert [t.id for t in escalate_due(store, START + timedelta(minutes=15))] == [ticket.id]


def test_escalation_happens_once(tmp_path):
    store = TicketStore(tmp_path / "k.sqlite3")
    store.open("KS-00001", "Solar panel cracked", Severity.HIGH, START)
    later = START + timedelta(hours=1)
    assert len(escalate_due(store, later)) == 1
    assert escalate_due(store, later) == []


def test_low_ticket_never_escalates(tmp_path):
    store = TicketStore(tmp_path / "k.sqlite3")
    store.open("KS-00002", "Label faded", Severity.LOW, START)
    assert escalate_due(store, START + timedelta(days=3)) == []
