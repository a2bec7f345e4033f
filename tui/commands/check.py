"""`assay check REPORT... [--repo PATH] [--rev REV] [--format text|json]`.

Exit 0 when every quote is exact/whitespace/normalized in its cited file, no claimed range is
wrong and every cited path exists, 1 otherwise, 2 on usage or input errors (a message, never a
traceback).
"""

from __future__ import annotations

import json
import sys

import click

from evidence.check import CheckResult, keep_checked, run_check
from evidence.check_output import to_json, to_text
from evidence.inputs import CheckError, choose_revision, refuse_unusable
from evidence.reports.loading import ReportError, load_reports
from evidence.revision import Revision, RevisionError
from evidence.text import json_escaped
from tui import startup
from tui.commands.audit import check_audit_command
from tui.commands.errors import InputError, reports_input_error
from tui.commands.options import audit_option, text_or_json_option
from tui.commands.repository import repo_option, repository


@click.command()
@click.argument("reports", nargs=-1, type=click.Path())
@audit_option
@repo_option(
    "The git repository the reports quote (work tree or bare; default: the repository "
    "containing the current directory). A directory inside a work tree (a system of a "
    "monorepo): the reports' paths are read from there first, then from the top."
)
@click.option("--rev", "rev", default=None, help="Revision to check (default: the reports' id).")
@click.option(
    "--against",
    "against",
    default=None,
    metavar="REV",
    help="Follow every quoted passage to this newer revision (a commit, tag or branch).",
)
@text_or_json_option("output", help="Output format.")
def check(
    reports: tuple[str, ...],
    audit_file: str | None,
    repo: str | None,
    rev: str | None,
    against: str | None,
    output: str,
) -> None:
    """Check every quote of the reports against the revision they cite.

    Without REPORT (assay.toml here) or with --audit FILE: every system of the audit against
    its own repository (JSON: {"audit", "systems": [{"system", "repository", "state":
    checked|no_repository|error, "error", ... and the JSON below}], "summary"}).

    The revision is --rev, else the 40-hex id the reports state (HEAD only when named: --rev
    HEAD). Exit 0 when every quote is exact, whitespace or normalized in its cited file, no
    claimed range is wrong and every cited path exists (a file or a directory), 1 otherwise, 2
    on usage or input errors (lines starting "assay check:"): a file that is not a report (each
    one named with what it lacks), a file with no records and no quotes (the parser's
    diagnostics shown), reports about several systems, an unknown revision. What the parser
    noted (an unattributed passage: code with no '--- path', not checked) is printed as "note:"
    lines and listed in "diagnostics". SARIF files are read too: each
    location is a quote; one without a snippet is "located" (its lines exist; never a failure)
    or "missing".

    With --against REV, every anchored passage is followed from the cited revision to REV
    through the history between them (renames followed): each quote gains "drift" and the
    output ends with the counts per status; exit 1 also when a passage changed or was deleted.
    So is every cited file: with the lines it names, as the passage of those lines; cited
    whole, as a file (unchanged, renamed, edited, file_deleted); exit 1 also when such lines
    changed or went, or such a file went (an edit of a file cited whole is said, not failed).

    \b
    JSON (--format json):
      {"revision": "<40-hex>",
       "quotes": [{"report", "report_line", "record", "path", "claimed": [a, b] | null,
                   "file": ok|missing|binary|too_large,
                   "match": exact|whitespace|normalized|fuzzy|missing|located,
                   "score": 0-100, "role": location|step|related|null (SARIF), "note",
                   "lines": [a, b] | null, "occurrences": [[a, b], ...],
                   "left_out": [[a, b], ...] (an elided quote's lines not copied),
                   "range_ok": true|false|null, "elsewhere": [{"path", "lines", "match"}],
                   "diff": [{"op", "quote", "source"}] | null, "candidates", "notes", ...}],
       "searches": [{"record", "command", "count", "hits": [{"path", "line", "text"}],
                     "error", ...}],
       "citations": [{"report", "report_line", "record",
                      "source": "SRC-1" | "" (a file named in prose), "path",
                      "state": present|directory|near_miss|absent|unchecked|pattern|past_end,
                      "suggestion": "<closest existing path>" | null, "matches",
                      "lines": [a, b] | null (the lines named), "length": n | null
                      (past_end: the file's lines),
                      "drift" (with --against, a file at the revision): a quote's drift
                      with "status" also edited|renamed (a file cited whole; "score"
                      null when it changed) and "breaks": true|false}],
       "summary": {"quotes", "exact", ..., "failing", "range_wrong", ..., "unchecked",
                   "citations", "citations_missing", "citations_directory",
                   "drift": {"unchanged": n, ...},
                   "cited_drift": {"unchanged": n, "renamed": n, "edited": n, ...}
                   (both with --against)},
       "against": "<40-hex>" (with --against)}
      with --against, each quote's "drift":
        {"status": unchanged|moved|changed|deleted|file_deleted|not_anchored|unreadable,
         "path", "lines": [a, b] | null, "renamed_from", "score": 0-100,
         "diff": [{"op", "quote", "source"}] | null,
         "whitespace": "line 7 re-indented from 4 spaces to 8 spaces" | null
                       (changed, the same but for whitespace: what differs),
         "commits": [{"id", "subject", "author", "date"}] (newest first),
         "found": {"path", "lines", "match"} | null
                  (not_anchored: the quote itself looked for at REV, where it is there)}
    """
    if audit_file is not None or not reports:  # an audit: each system at its own repository
        check_audit_command(audit_file, against, output, repo=repo, rev=rev)
    # The reports, anchors and output live until the command ends: a collection would walk them
    # all for no garbage (benchmarks/README.md, "SARIF files in the reports cache")
    with startup.Paused():
        result = _checked(reports, repo, rev, against)
        if output == "json":
            click.echo(json_escaped(json.dumps(to_json(result), indent=2, ensure_ascii=False)))
        else:
            click.echo(to_text(result))
    sys.exit(result.exit_code)


def _checked(
    reports: tuple[str, ...], repo: str | None, rev: str | None, against: str | None
) -> CheckResult:
    from evidence.anchor_cache import CachingAnchorer
    from evidence.anchor_cache import default_directory as anchors_directory
    from evidence.reports.cache import default_directory as reports_directory

    try:  # the review's caches: a check again, or a review after it, reads nothing unchanged
        reportset = load_reports(list(reports), cache=reports_directory())
    except ReportError as error:
        raise reports_input_error(error) from None
    try:
        refuse_unusable(reportset)
        wanted = choose_revision(reportset, rev)
        path = repository(repo)
        with Revision.open(path, wanted) as revision:
            directory = anchors_directory()
            anchorer = CachingAnchorer(revision, directory=directory, store=False)
            if against is None:
                result = run_check(reportset, revision, anchorer=anchorer)
            else:
                with Revision.open(path, against) as newer:
                    result = run_check(reportset, revision, anchorer=anchorer, against=newer)
            keep_checked(directory, result, revision.root)  # an audit's screen counts from it
            return result
    except (CheckError, RevisionError) as error:
        raise InputError(str(error)) from None
