"""The review's state (screens/review/state.py): the parts change it, watchers hear of it."""

from __future__ import annotations

from evidence.model import ReportSet
from screens.review.history import Location
from screens.review.state import ReviewState
from screens.session import ReviewSession


def test_watchers_hear_each_change_once_and_only_of_their_fields(
    sample_reports: ReportSet,
) -> None:
    state = ReviewState(ReviewSession(sample_reports, "ann"))
    heard: list[str] = []
    state.watch({"location"}, lambda: heard.append(f"location {state.location.record}"))
    state.watch({"revision", "revision_error"}, lambda: heard.append("revision"))
    state.watch({"filter"}, lambda: heard.append(f"filter {state.filter}"))

    state.update(location=Location(3, 0), on_quote=True, opened=None)
    state.update(location=Location(3, 0), on_quote=False)  # the same location: not heard
    state.location = Location(4, None)  # set alone, a watched field is heard too
    state.on_quote = True  # not watched
    state.update(revision_error="no such revision", remote=None)
    state.filter = "refuted"

    assert heard == ["location 3", "location 4", "revision", "filter refuted"]
    # every field is set before the watchers run: one update is seen whole
    seen: list[tuple[Location, bool]] = []
    state.watch({"location"}, lambda: seen.append((state.location, state.on_quote)))
    state.update(location=Location(5, 1), on_quote=False)
    assert seen == [(Location(5, 1), False)]


def test_the_quote_verdict_keys_act_on(sample_reports: ReportSet) -> None:
    session = ReviewSession(sample_reports, "ann")
    state = ReviewState(session)
    quoted = next(n for n, record in enumerate(session.records) if len(record.quotes) > 1)
    state.update(location=Location(quoted, 1))
    assert state.quote is session.records[quoted].quotes[1]
    assert state.target_quote() is None  # on the record until a quote is selected
    state.on_quote = True
    assert state.target_quote() is state.quote
    state.opened = "api/server.py"  # a file opened by path replaces the quote
    assert state.target_quote() is None


def test_item_keys_are_the_keys_of_the_items(sample_reports: ReportSet) -> None:
    session = ReviewSession(sample_reports, "tester")
    for record in session.records:
        items = [session.record_item(record)]
        items += [session.quote_item(record, quote) for quote in record.quotes]
        assert session.item_keys(record) == tuple(item.key for item in items)
    # a record quoting one passage twice: two items, told apart as `quote_item` tells them
    report = next(r for r in sample_reports.reports if any(x.quotes for x in r.records))
    record = next(x for x in report.records if x.quotes)
    first = record.quotes[0]
    twice = record._replace(quotes=(first, first._replace(index=1)))
    alone = ReviewSession(
        sample_reports._replace(reports=(report._replace(records=(twice,)),)), "tester"
    )
    keys = alone.item_keys(twice)
    assert len(set(keys)) == 3
    assert keys[1:] == tuple(alone.quote_item(twice, quote).key for quote in twice.quotes)
