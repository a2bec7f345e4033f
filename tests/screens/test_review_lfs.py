"""The review app on a repository keeping a quoted file in Git LFS: the quote checked against the
file's content (read from the LFS objects), and at a newer revision whose content this clone has
not fetched, the drift badge, the line under the source and the source pane at REV say so
(a blank pane at REV, or "passage gone", would have blamed the report)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from screenkit import press
from test_review_drift import opened

from evidence.reports.loading import load_reports
from keymaps import load_keymap
from tui.factory import make_app

REPORT = """\
Lfs runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Components

LF-CMP-counts

Label: Counts

One row per station (SRC-1, data/counts.csv):

heron,1998,41 --- data/counts.csv:2
"""


def pointer(content: bytes) -> bytes:
    digest = hashlib.sha256(content).hexdigest()
    spec = "version https://git-lfs.github.com/spec/v1"
    return f"{spec}\noid sha256:{digest}\nsize {len(content)}\n".encode()


async def test_a_passage_in_lfs_content_not_fetched_at_rev_says_so(tmp_path: Path) -> None:
    import subprocess

    repo = tmp_path / "repo"
    (repo / "data").mkdir(parents=True)

    def commit(content: bytes, *, fetched: bool) -> str:
        (repo / "data" / "counts.csv").write_bytes(pointer(content))
        if fetched:
            digest = hashlib.sha256(content).hexdigest()
            place = repo / ".git" / "lfs" / "objects" / digest[:2] / digest[2:4] / digest
            place.parent.mkdir(parents=True, exist_ok=True)
            place.write_bytes(content)
        for args in (
            ["add", "."],
            ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "counts"],
        ):
            subprocess.run(["git", *args], cwd=repo, check=True)
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
        ).stdout.strip()

    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    cited = commit(b"station,year,count\nheron,1998,41\n", fetched=True)
    tip = commit(b"station,year,count\nosprey,1997,3\nheron,1998,41\n", fetched=False)
    report = tmp_path / "lfs-runtime-report.txt"
    report.write_text(REPORT.format(rev=cited), encoding="utf-8")
    app = make_app(
        load_reports([report]),
        repo,
        cited,
        tmp_path / "v.db",
        "r",
        load_keymap(user=False),
        against=tip,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, "LF-CMP-counts")
        (anchor,) = screen.session.anchors.values()
        assert anchor.verified and anchor.lines == (2, 2)  # the content, not the pointer
        (drift,) = screen.session.drifts.values()
        assert drift.status.value == "unreadable"
        records = screen.session.records
        (n,) = [k for k, record in enumerate(records) if record.id == "LF-CMP-counts"]
        assert screen.records_pane.prompt(n).drift == "?"
        assert f"? unreadable at {tip[:7]}, t: see it" in str(screen.quote_info.render())
        await press(pilot, screen, "t")
        view = screen.source_view
        title = str(view.border_title)
        assert "data/counts.csv" in title and f"@{tip[:7]}" in title
        assert view.message is not None
        assert "is stored in Git LFS" in view.message
        assert "its content is not in this clone" in view.message
