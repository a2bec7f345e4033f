"""Issue 25, fast at audit scale: anchors kept on disk per (quotes, revision, anchoring
version), so a second check or review of an unchanged system anchors nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from auditkit import make_audit

from evidence import anchor_cache
from evidence.anchor_cache import CachingAnchorer, get, key_for
from evidence.audit.check import check_system
from evidence.audit.file import load_audit
from evidence.model import Anchor, FileState, Quote, Tier
from evidence.reports.loading import load_reports
from evidence.revision import Revision


def quotes_and_repo(tmp_path: Path) -> tuple[list[Quote], Path]:
    audit = load_audit(make_audit(tmp_path / "audit"))
    alpha = audit.systems[0]
    reportset = load_reports(alpha.report_paths)
    quotes = [q for record in reportset.records() for q in record.quotes]
    assert alpha.repository is not None
    return quotes, alpha.repository


def test_the_second_anchoring_comes_from_the_cache(tmp_path: Path) -> None:
    quotes, repo = quotes_and_repo(tmp_path)
    directory = tmp_path / "anchors"
    with Revision.open(repo) as revision:
        first = CachingAnchorer(revision, directory=directory)
        computed = first.anchor_many(quotes)
        assert not first.hit
        second = CachingAnchorer(revision, directory=directory)
        assert second.anchor_many(quotes) == computed and second.hit
        assert [a.quote for a in computed] == quotes
        # another quote text is another key: anchored again
        changed = [quotes[0]._replace(text="return compute(43)"), *quotes[1:]]
        third = CachingAnchorer(revision, directory=directory)
        assert third.anchor_many(changed)[0].match != computed[0].match and not third.hit
        # so is another revision
        assert key_for(quotes, "0" * 40) != key_for(quotes, revision.commit)


def test_a_damaged_or_foreign_entry_is_a_miss(tmp_path: Path) -> None:
    quotes, repo = quotes_and_repo(tmp_path)
    directory = tmp_path / "anchors"
    with Revision.open(repo) as revision:
        CachingAnchorer(revision, directory=directory).anchor_many(quotes)
        key = key_for(quotes, revision.commit)
    assert key is not None
    entry = directory / f"{key}.marshal"
    data = entry.read_bytes()
    entry.write_bytes(data[:-3] + b"xyz")
    assert get(directory, key, quotes) is None
    entry.write_bytes(data)
    assert get(directory, key, quotes[:1]) is None  # not these quotes
    assert get(directory, key, quotes) is not None


def test_a_new_anchoring_version_is_another_key(tmp_path: Path) -> None:
    quotes, _repo = quotes_and_repo(tmp_path)
    before = key_for(quotes, "1" * 40)
    anchor_cache.anchoring_digest.cache_clear()
    try:
        real = anchor_cache.SOURCES
        anchor_cache.SOURCES = (*real, Path(__file__))
        assert key_for(quotes, "1" * 40) != before
    finally:
        anchor_cache.SOURCES = real
        anchor_cache.anchoring_digest.cache_clear()


def test_check_keeps_anchors_and_cited_paths(tmp_path: Path) -> None:
    audit = load_audit(make_audit(tmp_path / "audit"))
    directory = tmp_path / "anchors"
    checked = check_system(audit.systems[0], anchor_cache=directory)
    assert checked.result is not None
    quotes = [each.quote for each in checked.result.quotes]
    key = key_for(quotes, checked.result.revision)
    assert key is not None
    cached = get(directory, key, quotes)
    assert cached is not None
    assert (cached.failing, cached.citations_missing) == (1, 1)
    assert anchor_cache.counts(directory, key, len(quotes)) == (1, 1)  # no anchor rebuilt
    assert anchor_cache.counts(directory, key, len(quotes) - 1) is None  # not these quotes
    again = check_system(audit.systems[0], anchor_cache=directory)
    assert again.result is not None
    assert [q.anchor for q in again.result.quotes] == [q.anchor for q in checked.result.quotes]


def test_the_counts_read_without_anchors_are_the_anchors_counts(tmp_path: Path) -> None:
    quotes, _repo = quotes_and_repo(tmp_path)
    quote = quotes[0]
    anchors = [
        Anchor(quote, FileState(file), tier, 100.0, (1, 2), range_ok=range_ok)
        for file in ("ok", "missing")
        for tier in Tier
        for range_ok in (None, True, False)
    ]
    many = [quote] * len(anchors)
    key = key_for(many, "2" * 40)
    assert key is not None
    anchor_cache.put(tmp_path, key, anchors)
    cached = get(tmp_path, key, many)
    assert cached is not None and 0 < cached.failing < len(anchors)
    assert anchor_cache.counts(tmp_path, key, len(many)) == (cached.failing, None)


def test_counts_of_a_commit_named_in_full_need_no_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screens.audit.anchors import read_cached
    from tui.audit_app import load_state

    audit = load_audit(make_audit(tmp_path / "audit"))
    directory = tmp_path / "anchors"
    check_system(audit.systems[0], anchor_cache=directory)  # Alpha's anchors kept
    state = load_state(audit)
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))  # a git process would fail
    found = {cached.system: cached[1:3] for cached in read_cached(state.entries, directory, None)}
    assert found == {0: (1, 1), 1: (None, None)}  # Beta not checked yet; Gamma has no repository


def test_every_kind_of_anchor_comes_back_as_it_was_made(tmp_path: Path) -> None:
    # the sample's quotes hold every tier, diffs, places elsewhere, several candidates and notes
    from evidence.sample import CITED_REVISION, SAMPLE_REPORTS, sample_repo

    quotes = [q for record in load_reports([SAMPLE_REPORTS]).records() for q in record.quotes]
    with Revision.open(sample_repo(tmp_path / "kestrel"), CITED_REVISION) as revision:
        computed = CachingAnchorer(revision, directory=tmp_path / "anchors").anchor_many(quotes)
        again = CachingAnchorer(revision, directory=tmp_path / "anchors")
        cached = again.anchor_many(quotes)
    assert again.hit and cached == computed
    assert {a.match for a in computed} >= {Tier.EXACT, Tier.FUZZY, Tier.MISSING}
    assert any(a.diff for a in computed) and any(a.elsewhere for a in computed)
    for made, read in zip(computed, cached, strict=True):
        for part in ("diff", "elsewhere", "candidates"):
            assert [type(x) for x in getattr(read, part)] == [type(x) for x in getattr(made, part)]
        assert type(read.file) is type(made.file) and type(read.match) is type(made.match)


def test_cited_paths_kept_from_other_citations_are_not_counted(tmp_path: Path) -> None:
    # a report whose citations alone changed keeps its quotes, and so the entry's key: the
    # missing cited paths counted from the old citations would be shown as the new ones'
    from evidence.citations import PathIndex, check_citations, cited_places
    from evidence.model import ReportSet
    from evidence.reports.parser import parse_report

    def reportset(cited: str) -> ReportSet:
        text = (
            "T report\n\nType: t\n\nA account\n\nPart\n\n"
            f"See it (SRC-1, {cited}).\n\nx = 1 --- a.py:1\n"
        )
        return ReportSet((parse_report(text, "t.txt"),))

    before, after = reportset("gone.py"), reportset("a.py")
    quotes = [q for record in before.records() for q in record.quotes]
    assert quotes == [q for record in after.records() for q in record.quotes]
    key = key_for(quotes, "3" * 40)
    assert key is not None
    anchors = [Anchor(quotes[0], FileState.OK, Tier.EXACT, 100.0, (1, 1), range_ok=True)]
    anchor_cache.put(tmp_path, key, anchors, check_citations(before, PathIndex(["a.py"])))
    assert anchor_cache.counts(tmp_path, key, 1, cited_places(before)) == (0, 1)
    assert anchor_cache.counts(tmp_path, key, 1, cited_places(after)) == (0, None)
    cached = get(tmp_path, key, quotes, cited_places(after))
    assert cached is not None and cached.citations is None


def test_a_cited_files_lines_past_its_end_are_kept_and_counted(tmp_path: Path) -> None:
    from evidence.citations import CitedState, PathIndex, check_citations, past_end
    from evidence.model import ReportSet
    from evidence.reports.parser import parse_report

    text = (
        "T report\n\nType: t\n\nA account\n\nPart\n\n"
        "See it (SRC-1, b.py:40-42).\n\nx = 1 --- a.py:1\n"
    )
    reportset = ReportSet((parse_report(text, "t.txt"),))
    quotes = [q for record in reportset.records() for q in record.quotes]
    key = key_for(quotes, "4" * 40)
    assert key is not None
    cited = past_end(check_citations(reportset, PathIndex(["a.py", "b.py"])), lambda path: 7)
    assert [(c.state, c.lines, c.length) for c in cited] == [(CitedState.PAST_END, (40, 42), 7)]
    anchors = [Anchor(quotes[0], FileState.OK, Tier.EXACT, 100.0, (1, 1), range_ok=True)]
    anchor_cache.put(tmp_path, key, anchors, cited)
    cached = get(tmp_path, key, quotes)
    assert cached is not None and cached.citations == cited and cached.citations_missing == 1
    assert anchor_cache.counts(tmp_path, key, 1) == (0, 1)


def test_drift_counts_the_cited_files_of_reports_whose_citations_changed(tmp_path: Path) -> None:
    # the kept anchors' cited paths are the reports' of when they were kept: a report citing
    # other files since counted its quotes' drift alone, whatever became of the files it cites
    from auditkit import git

    from screens.audit.anchors import read_cached
    from tui.audit_app import load_state

    root = tmp_path / "audit"
    audit = load_audit(make_audit(root))
    directory = tmp_path / "anchors"
    check_system(audit.systems[1], anchor_cache=directory)  # Beta's anchors and cited paths kept
    beta = root / "repos" / "beta"
    git(beta, "rm", "-q", "src/gone.py")
    git(beta, "commit", "-q", "-m", "drop gone.py")
    report = root / "reports" / "beta-runtime-report.txt"
    text = report.read_text(encoding="utf-8")
    report.write_text(text.replace("(SRC-1, src/app.py, src/gone.py)", "(SRC-1, src/gone.py)"))
    state = load_state(load_audit(root / "assay.toml"))
    found = {cached.system: cached for cached in read_cached(state.entries, directory, "main")}
    assert found[1].drifted == 1  # src/gone.py, deleted at main; the quotes unchanged
    assert found[1].missing == 0  # the cited paths read again at the cited revision
