"""One SARIF result -> one Record: its id, label, body, fields and quotes.

Locations come first (role ``location``), then the steps of every code flow in order (``step``),
then the related locations (``related``). A location with a snippet is a quote of that text; a
location without one is ``located`` (its region is checked to exist, never compared). Anything
malformed in a result is skipped or shown as it is, never raised: scanners' quirks are data.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from evidence.model import Kind, LineRange, Quote, Record
from evidence.sarif.messages import message_text, multiformat_text
from evidence.sarif.rules import RunContext, level_of, rule_for
from evidence.sarif.uris import UriResolver
from evidence.sarif.values import EMPTY, integer, mapping, sequence, text

__all__ = ["fingerprint", "fingerprint_tables", "read_result", "shared_tables"]

#: result and rule properties shown as fields (the rest stay in the file)
PROPERTY_FIELDS = (
    "security-severity",
    "severity",
    "problem.severity",
    "precision",
    "confidence",
    "impact",
    "likelihood",
    "cwe",
    "owasp",
)
_CWE_TAG = re.compile(r"(?:^|/)cwe[-/_: ]?0*(\d+)$", re.IGNORECASE)
#: a taxon's id in the CWE taxonomy: "CWE-120", or "120" there
_CWE_TAXON = re.compile(r"(cwe[-_: ]?)?0*(\d+)", re.IGNORECASE)
#: a snippet that is only a redaction marker (a secret scanner's: "REDACTED", "***")
_REDACTED = re.compile(r"\s*(?:\[?redacted\]?|<redacted>|\*{3,})\s*", re.IGNORECASE)
FINGERPRINT_LENGTH = 12


_new_quote = tuple.__new__


#: the keys a result's identity is read from, in order of preference
FINGERPRINT_KEYS = ("partialFingerprints", "fingerprints")
#: (key, what the key's table hashes) of a table that results at different places share
SharedTable = tuple[str, str]
#: (key, what it hashes, the names it holds) of each fingerprint table of a result, in order
Tables = list[tuple[str, str, str]]


def fingerprint_tables(result: object) -> Tables:
    """The fingerprint tables of a result (none when it is not an object)."""
    tables: Tables = []
    if type(result) is not dict:
        return tables
    for key in FINGERPRINT_KEYS:
        table = mapping(result.get(key))
        pairs = sorted((name, value) for name, value in table.items() if isinstance(value, str))
        if pairs:
            material = key + "\0" + "\0".join(f"{name}={value}" for name, value in pairs)
            tables.append((key, material, ", ".join(name for name, _ in pairs)))
    return tables


def shared_tables(
    results: Sequence[Any], tables: Sequence[Tables], context: RunContext
) -> tuple[frozenset[SharedTable], dict[str, int]]:
    """The fingerprint tables that are no identity: held by results at different lines
    (Semgrep without a login writes ``"matchBasedId/v1": "requires login"`` on every result,
    whatever its rule), or by one rule's results at two places of a line. Numbering such
    results by position would move a verdict to another finding when a new scan reorders them.
    A hash of a line's text (GitHub's ``primaryLocationLineHash``, Flawfinder's
    ``contextHash/v1``) held by results of different rules on that line is each one's identity
    (an id is its rule's and the hash's). Also how many results hold such a table, per key.
    ``tables``: each result's `fingerprint_tables`."""
    first: dict[SharedTable, Mapping[str, Any]] = {}
    # for a table seen twice: the line of its first result, and the place of each rule's first
    seen: dict[SharedTable, tuple[str, dict[str, str]]] = {}
    shared: set[SharedTable] = set()

    def place(result: Mapping[str, Any]) -> str:
        locations = sequence(result.get("locations"))
        return location_key(locations[0], context.resolver) if locations else ""

    def line(where: str) -> str:
        path, _, spots = where.rpartition("\0")  # a `location_key`: its path and start line
        return f"{path}\0{spots.partition(',')[0]}"

    for result, own in zip(results, tables, strict=True):
        for key, material, _names in own:
            table = (key, material)
            earlier = first.setdefault(table, result)
            if earlier is result or table in shared:
                continue
            # computed only for a table seen twice: most results' tables are their own
            entry = seen.get(table)
            if entry is None:
                where = place(earlier)
                entry = seen[table] = (line(where), {rule_for(earlier, context)[0]: where})
            here = place(result)
            at_other_line = line(here) != entry[0]
            if at_other_line or entry[1].setdefault(rule_for(result, context)[0], here) != here:
                shared.add(table)
    counts: dict[str, int] = {}
    if shared:
        for own in tables:
            for key, material, _names in own:
                if (key, material) in shared:
                    counts[key] = counts.get(key, 0) + 1
    return frozenset(shared), counts


def fingerprint(
    result: Mapping[str, Any],
    rule_id: str,
    where: Callable[[], str],
    shared: frozenset[SharedTable] = frozenset(),
    tables: Tables | None = None,
) -> tuple[str, str]:
    """(12 hex digits, what they hash): the result's partialFingerprints, else its fingerprints,
    else its rule and first location (``where()``: its path and region); a table in ``shared``
    (`shared_tables`) is passed over. ``tables``: its `fingerprint_tables`, when made already."""
    passed = []
    for key, material, names in fingerprint_tables(result) if tables is None else tables:
        if (key, material) in shared:
            passed.append(key)
            continue
        described = f"{key}: {names}"
        break
    else:
        material = f"location\0{rule_id}\0{where()}"
        described = "rule and location"
        if passed:
            described += f" ({' and '.join(passed)} shared with results elsewhere)"
    digest = hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()
    return digest[:FINGERPRINT_LENGTH], described


_Spans = tuple[LineRange | None, LineRange | None, LineRange | None]
#: the end column of a region that writes none: the end of its last line
END_OF_LINE = 0


def _region(region: Mapping[str, Any]) -> _Spans:
    """(claimed lines, columns, offsets) of a region; an endLine before startLine is ignored."""
    start = region.get("startLine")
    claimed = None
    if type(start) is int and start >= 1:
        end = region.get("endLine")
        claimed = (start, end if type(end) is int and end >= start else start)
    columns = None
    first_column = region.get("startColumn")
    last_column = region.get("endColumn")
    if type(first_column) is int or type(last_column) is int:
        # SARIF 3.30.5: startColumn defaults to 1 (a region ending at column 1 of the line after
        # the last is then the end of the file, as it is when startColumn 1 is written); and
        # endColumn to the end of endLine, written 0 (the line's length is not known here)
        first_column = first_column if type(first_column) is int else 1
        columns = (first_column, last_column if type(last_column) is int else END_OF_LINE)
    offsets = None
    offset = region.get("charOffset")
    if type(offset) is int and offset >= 0:
        length = region.get("charLength")
        offsets = (offset, length if type(length) is int and length >= 0 else 0)
    return claimed, columns, offsets


def _snippet(region: object) -> str:
    if type(region) is not dict:
        return ""
    snippet = region.get("snippet")
    if type(snippet) is not dict:
        return ""
    text = snippet.get("text")
    return text if type(text) is str else ""


def location_key(location: Mapping[str, Any], resolver: UriResolver) -> str:
    """Path and region of a location, as hashed into an id when a result has no fingerprints."""
    physical = mapping(mapping(location).get("physicalLocation"))
    path, _uri = resolver.resolve(mapping(physical.get("artifactLocation")))
    region = mapping(physical.get("region"))
    spots = (region.get(name) for name in ("startLine", "startColumn", "endLine", "endColumn"))
    return f"{path}\0" + ",".join(str(integer(spot)) for spot in spots)


class _Quotes:
    """Builds a record's quotes in order."""

    def __init__(self, record_id: str, number: int, context: RunContext) -> None:
        self.record_id = record_id
        self.number = number
        self.context = context
        self.quotes: list[Quote] = []
        self.skipped = 0

    def add(self, location: object, role: str, note: str = "") -> None:
        physical = location.get("physicalLocation") if type(location) is dict else None
        artifact = physical.get("artifactLocation") if type(physical) is dict else None
        path = self.context.resolver.resolve(artifact)[0] if type(artifact) is dict else ""
        if not path or type(location) is not dict or type(physical) is not dict:
            self.skipped += 1  # a logical location only, or no file named
            return
        region = physical.get("region")
        if type(region) is dict:
            claimed, columns, offsets = _region(region)
            snippet = _snippet(region)
        else:
            claimed = columns = offsets = None
            snippet = ""
        message = location.get("message")
        own = ""
        if type(message) is dict:
            text = message.get("text")
            if type(text) is str and "[" not in text and "arguments" not in message:
                own = text  # the common case, without message_text's checks
            else:
                own = message_text(message, None, self.context.strings)
        located = not snippet.strip()
        if not located and _REDACTED.fullmatch(snippet):
            # a secret scanner's snippet (gitleaks --redact): nothing of the source to compare
            located = True
            own = (
                f"{own} (the tool redacted its snippet)" if own else "the tool redacted its snippet"
            )
        self.quotes.append(
            _new_quote(  # a hundred thousand of these in a large log: tuple.__new__ directly
                Quote,
                (
                    "" if located else snippet,
                    path,
                    claimed,
                    self.number,
                    self.number,
                    self.record_id,
                    len(self.quotes),
                    False,
                    located,
                    role,
                    own or note,
                    _snippet(physical.get("contextRegion")),
                    columns,
                    offsets,
                ),
            )
        )

    def add_flows(self, flows: Sequence[Any]) -> None:
        """The steps of every thread flow of every code flow, in order; a step without a
        message of its own is noted by its place ("step 2/4", "flow 2, thread 1, step 3/5")."""
        for flow_number, flow in enumerate(flows, start=1):
            threads = sequence(mapping(flow).get("threadFlows"))
            for thread_number, thread in enumerate(threads, start=1):
                steps = sequence(mapping(thread).get("locations"))
                for step_number, step in enumerate(steps, start=1):
                    location = step.get("location") if type(step) is dict else None
                    where = f"step {step_number}/{len(steps)}"
                    if len(threads) > 1:
                        where = f"thread {thread_number}, {where}"
                    if len(flows) > 1:
                        where = f"flow {flow_number}, {where}"
                    self.add(location, "step", where)


def taxa_cwes(references: object) -> list[str]:
    """The CWE ids that taxonomy references name (a rule's ``relationships`` to taxa, a
    result's ``taxa``: SARIF 3.49.15, 3.27.8), as Flawfinder and other tools give them instead
    of tags: ``CWE-120``, or ``120`` in the taxonomy named CWE. A taxon given by index alone
    (no id) is not looked up."""
    found: list[str] = []
    for reference in map(mapping, sequence(references)):
        target = mapping(reference.get("target")) or reference  # a relationship's, or itself
        identifier = text(target.get("id")).strip()
        component = text(mapping(target.get("toolComponent")).get("name")).strip().upper()
        taxon = _CWE_TAXON.fullmatch(identifier)
        if taxon and (taxon.group(1) or component == "CWE"):
            found.append(f"CWE-{taxon.group(2)}")
    return found


def _rule_part(
    rule: Mapping[str, Any] | None, result_properties: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """Tags, CWE ids and the chosen properties of a rule and its result (the result's win)."""
    fields: list[tuple[str, str]] = []
    rule_properties = mapping(rule.get("properties")) if rule else EMPTY
    tags: dict[str, None] = {}
    for properties in (rule_properties, result_properties):
        for tag in sequence(properties.get("tags")):
            if type(tag) is str:
                tags.setdefault(tag, None)
    for tag in tags:
        fields.append(("tag", tag))
        cwe = _CWE_TAG.search(tag)
        if cwe:
            fields.append(("CWE", f"CWE-{cwe.group(1)}"))
    for related in taxa_cwes(rule.get("relationships")) if rule else ():
        if ("CWE", related) not in fields:
            fields.append(("CWE", related))
    for name in PROPERTY_FIELDS:
        value = result_properties.get(name, rule_properties.get(name))
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            fields.append((name, str(value)))
    return fields


def _rule_fields(
    result: Mapping[str, Any], rule: Mapping[str, Any] | None, context: RunContext
) -> tuple[list[tuple[str, str]], str]:
    """(fields from the rule and the result's properties, the body text the rule adds)."""
    properties = mapping(result.get("properties"))
    own = bool(properties) and any(name in properties for name in ("tags", *PROPERTY_FIELDS))
    cached = None if own else context.rule_parts.get(id(rule))
    if cached is None:
        fields = _rule_part(rule, properties if own else EMPTY)
        if rule and type(rule.get("helpUri")) is str:
            fields.append(("help", rule["helpUri"]))
        cached = (fields, _rule_body(rule))
        if not own:
            context.rule_parts[id(rule)] = cached
    if "taxa" in result:  # the result's own (the rule's fields are shared: not changed)
        fields = cached[0]
        more = [("CWE", cwe) for cwe in taxa_cwes(result["taxa"]) if ("CWE", cwe) not in fields]
        if more:
            return [*fields, *dict.fromkeys(more)], cached[1]
    return cached


def _fields(
    result: Mapping[str, Any],
    rule: Mapping[str, Any] | None,
    rule_id: str,
    level: str,
    from_rule: list[tuple[str, str]],
) -> list[tuple[str, str]]:
    fields = [("rule", rule_id)]
    if rule and type(rule.get("name")) is str and rule["name"] != rule_id:  # Semgrep's: the id
        fields.append(("rule name", rule["name"]))
    fields.append(("level", level))
    fields.append(("kind", text(result.get("kind")) or "fail"))
    baseline = text(result.get("baselineState"))
    if baseline:
        fields.append(("baselineState", baseline))
    for suppression in sequence(result.get("suppressions")):
        entry = mapping(suppression)
        status = text(entry.get("status")) or "accepted"
        value = f"{text(entry.get('kind')) or '?'}, {status}"
        justification = text(entry.get("justification"))
        fields.append(("suppression", f"{value}: {justification}" if justification else value))
    fields.extend(from_rule)
    rank = result.get("rank")
    if type(rank) in (int, float):
        fields.append(("rank", str(rank)))
    return fields


def _rule_body(rule: Mapping[str, Any] | None) -> str:
    parts: list[str] = []
    if rule:
        for key in ("shortDescription", "fullDescription", "help"):
            text = multiformat_text(rule.get(key))
            if text and text not in parts:
                parts.append(text)
    return "\n\n".join(parts)


#: fields of a result read only when of this type
SHAPES: dict[str, type] = {
    "ruleId": str,
    "locations": list,
    "codeFlows": list,
    "relatedLocations": list,
}


def read_result(
    result: Mapping[str, Any],
    number: int,
    context: RunContext,
    shared: frozenset[SharedTable] = frozenset(),
    tables: Tables | None = None,
) -> tuple[Record, list[str]]:
    """The record of the ``number``-th result (1-based) of a run, and what was odd about it.

    Its id is ``<rule id>:<12 hex>`` (`fingerprint`, passing over the ``shared`` tables); the
    reader numbers duplicates."""
    problems: list[str] = []
    rule_id, rule, problem = rule_for(result, context)
    if problem:
        problems.append(problem)
    # a field of the wrong shape is read as absent: said, so that a result shown with no
    # location is not taken for one the tool gave none
    for key, kind in SHAPES.items():
        if key in result and type(result[key]) is not kind:
            problems.append(f"{key} is not a {'string' if kind is str else 'list'}: not read")
    locations = sequence(result.get("locations"))

    def first() -> str:
        return location_key(locations[0], context.resolver) if locations else ""

    digest, described = fingerprint(result, rule_id, first, shared, tables)
    record_id = f"{rule_id}:{digest}"
    message = message_text(result.get("message"), rule, context.strings)
    level = level_of(result, rule, rule_id, context)
    quotes = _Quotes(record_id, number, context)
    for location in locations:
        quotes.add(location, "location")
    quotes.add_flows(sequence(result.get("codeFlows")))
    for location in sequence(result.get("relatedLocations")):
        quotes.add(location, "related")
    if quotes.skipped:
        problems.append(f"{quotes.skipped} location(s) name no file; not shown")
    statuses = [("level", level)]
    baseline = text(result.get("baselineState"))
    if baseline:
        statuses.append(("baseline", baseline))
    suppressions = [mapping(s) for s in sequence(result.get("suppressions"))]
    if suppressions:
        # SARIF: suppressed when every suppression is accepted (no status means accepted)
        states = {text(s.get("status")) or "accepted" for s in suppressions}
        state = next((s for s in ("rejected", "underReview") if s in states), "accepted")
        statuses.append(("suppressed", state))
    headline, _, rest = message.partition("\n")
    label = headline.strip() or rule_id
    from_rule, rule_body = _rule_fields(result, rule, context)
    # the message's first line is the label: the body goes on from there (not said twice)
    body = "\n\n".join(
        part for part in ((rest if headline.strip() else message).strip(), rule_body) if part
    )
    fields = (*_fields(result, rule, rule_id, level, from_rule), ("id from", described))
    record = Record(
        record_id,
        Kind.RESULT,
        label,
        body,
        context.file,
        rule_id,
        (number, number),
        fields,
        tuple(statuses),
        tuple(quotes.quotes),
    )
    return record, problems
