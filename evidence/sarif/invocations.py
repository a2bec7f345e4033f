"""What a run says about itself: whether the tool's run succeeded, and what it could not do.

A scan that failed half way, or could not parse some files, lists fewer results than the code
holds: a reviewer who triaged every one of them has not triaged the code. SARIF says so in
``invocations``: ``executionSuccessful`` (false: the run failed), and the notifications of the
run (``toolExecutionNotifications``: "could not parse src/a.py") and of its configuration
(``toolConfigurationNotifications``: a rule that could not be loaded). Each becomes a diagnostic
of the run (line 0) that starts with `INCOMPLETE`, so that a review can say it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evidence.model import Diagnostic, Report
from evidence.sarif.values import mapping, sequence

__all__ = ["INCOMPLETE", "incomplete_notes", "incomplete_runs", "invocation_problems"]

#: how every diagnostic about a run's own failures starts
INCOMPLETE = "the scan may be incomplete: "
#: notifications quoted in a diagnostic at most (the rest counted)
QUOTED = 3


def invocation_problems(run: Mapping[str, Any]) -> list[Diagnostic]:
    """The run's failures and its error and warning notifications, as diagnostics."""
    problems = []
    for invocation in map(mapping, sequence(run.get("invocations"))):
        if invocation.get("executionSuccessful") is False:
            code, described = invocation.get("exitCode"), invocation.get("exitCodeDescription")
            reason = [f"exit code {code}"] if type(code) is int else []
            if type(described) is str and described.strip():
                reason.append(" ".join(described.split())[:120])
            why = f" ({': '.join(reason)})" if reason else ""
            problems.append(Diagnostic(0, f"{INCOMPLETE}the tool says its run failed{why}"))
        for key, doing in (
            ("toolExecutionNotifications", "while it ran"),
            ("toolConfigurationNotifications", "in its configuration"),
        ):
            told, quoted = _notified(sequence(invocation.get(key)))
            if told:
                said = f"{INCOMPLETE}the tool reported {told} {doing}: {quoted}"
                problems.append(Diagnostic(0, said))
    return problems


def _notified(notifications: Sequence[Any]) -> tuple[str, str]:
    """("2 errors and 1 warning", "'Could not parse' (src/a.py), ...") of the notifications that
    are errors or warnings; ("", "") when there are none (a note says nothing is missing)."""
    counts = {"error": 0, "warning": 0}
    quoted: list[str] = []
    for notification in map(mapping, notifications):
        level = notification.get("level", "warning")  # SARIF's default for a notification
        if type(level) is not str or level not in counts:  # any JSON value may stand there
            continue
        counts[level] += 1
        if len(quoted) < QUOTED:
            quoted.append(_quoted(notification))
    if not any(counts.values()):
        return "", ""
    told = " and ".join(
        f"{count} {level}{'' if count == 1 else 's'}" for level, count in counts.items() if count
    )
    more = sum(counts.values()) - len(quoted)
    return told, ", ".join(quoted) + (f" and {more} more" if more else "")


def _quoted(notification: Mapping[str, Any]) -> str:
    message = mapping(notification.get("message"))
    text = message.get("text")
    text = " ".join(text.split())[:100] if type(text) is str and text.strip() else "(no message)"
    for location in map(mapping, sequence(notification.get("locations"))):
        artifact = mapping(mapping(location.get("physicalLocation")).get("artifactLocation"))
        uri = artifact.get("uri")
        if type(uri) is str and uri:
            return f"{text!r} ({uri[:120]})"
    return repr(text)


def incomplete_notes(report: Report) -> list[str]:
    """What the run says of its failures ("the scan may be incomplete: ..."), each once."""
    return [
        diagnostic.message
        for diagnostic in report.diagnostics
        if diagnostic.line == 0 and diagnostic.message.startswith(INCOMPLETE)
    ]


def incomplete_runs(reports: list[Report]) -> list[str]:
    """ "<run title>: <what it says>" for each run's failures, to say once in a review."""
    return [f"{report.title}: {said}" for report in reports for said in incomplete_notes(report)]
