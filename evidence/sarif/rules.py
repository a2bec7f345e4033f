"""A run's rules: which rule a result names, and the level a result has.

A result names its rule by ``ruleId`` and ``ruleIndex``, or by a reference (``rule``) whose
``toolComponent`` says whose rules the index counts: the driver's, or an extension's (a CodeQL
query pack) named by its index in ``tool.extensions``, its guid or its name (SARIF 3.52, 3.54).
Its level is its own, else none when its kind is not ``fail``, else the level an invocation's
``ruleConfigurationOverrides`` gives its rule, else the rule's default, else warning (3.27.10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evidence.sarif.uris import UriResolver
from evidence.sarif.values import integer, mapping, sequence, text

__all__ = ["RunContext", "level_of", "rule_for", "rule_in"]


@dataclass
class RunContext:
    """What the results of one run share: rules, message strings, the URI resolver."""

    file: str
    resolver: UriResolver
    rules: Sequence[Any] = ()
    extensions: Sequence[Sequence[Any]] = ()
    strings: Mapping[str, Any] = field(default_factory=dict)
    by_id: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    #: per rule object (by id()): its fields and the body text it adds, computed once
    rule_parts: dict[int, tuple[list[tuple[str, str]], str]] = field(default_factory=dict)
    #: the rules of each tool component by its guid (lower case) and by its name
    by_guid: dict[str, Sequence[Any]] = field(default_factory=dict)
    by_name: dict[str, Sequence[Any]] = field(default_factory=dict)
    #: per invocation, the level its ruleConfigurationOverrides give each rule (`level_of`)
    overrides: list[dict[_OverrideKey, str]] = field(default_factory=list)

    @classmethod
    def for_run(cls, run: Mapping[str, Any], file: str, resolver: UriResolver) -> RunContext:
        """The context of ``run`` (its driver's rules first, then its extensions')."""
        tool = mapping(run.get("tool"))
        driver = mapping(tool.get("driver"))
        rules = sequence(driver.get("rules"))
        components = [mapping(extension) for extension in sequence(tool.get("extensions"))]
        extensions = [sequence(extension.get("rules")) for extension in components]
        by_id: dict[str, Mapping[str, Any]] = {}
        for table in (*extensions, rules):  # the driver's own rules win
            for rule in table:
                if isinstance(rule, Mapping) and isinstance(rule.get("id"), str):
                    by_id[rule["id"]] = rule
        by_guid: dict[str, Sequence[Any]] = {}
        by_name: dict[str, Sequence[Any]] = {}
        for component, table in reversed(
            ((driver, rules), *zip(components, extensions, strict=True))
        ):
            guid, name = text(component.get("guid")), text(component.get("name"))
            if guid:
                by_guid[guid.lower()] = table
            if name:
                by_name[name] = table  # a name given twice: the driver's, else the first
        strings = mapping(driver.get("globalMessageStrings"))
        context = cls(
            file, resolver, rules, extensions, strings, by_id, by_guid=by_guid, by_name=by_name
        )
        context.overrides = _overrides(run, context)  # its descriptors name rules as results do
        return context

    def component_rules(self, reference: Mapping[str, Any]) -> Sequence[Any] | None:
        """The rules of the tool component a toolComponentReference names (SARIF 3.54: by
        index in ``tool.extensions``, else guid, else name), None when it names none; the
        driver's when there is no reference."""
        if not reference:
            return self.rules
        index = integer(reference.get("index"))
        if index is not None:
            return self.extensions[index] if 0 <= index < len(self.extensions) else None
        guid = text(reference.get("guid"))
        if guid:
            return self.by_guid.get(guid.lower())
        name = text(reference.get("name"))
        return self.by_name.get(name) if name else None


def _component_text(reference: Mapping[str, Any]) -> str:
    """How a toolComponentReference names its component, for a diagnostic."""
    for key in ("index", "guid", "name"):
        value = reference.get(key)
        if type(value) in (int, str):
            return f"{key} {value!r}"[:80]
    return "a toolComponent"


def rule_in(
    reference: Mapping[str, Any], index: int | None, context: RunContext
) -> tuple[Mapping[str, Any] | None, str | None]:
    """(rule, problem) of a rule reference's ``index`` and ``toolComponent``: the rule at that
    index, else the one of that id, in the rules of the component it names."""
    component = mapping(reference.get("toolComponent"))
    table = context.component_rules(component)
    if table is None:
        return None, f"{_component_text(component)} names no component of the tool"
    if index is not None and index >= 0:
        if index < len(table) and isinstance(table[index], Mapping):
            return table[index], None
        return None, f"ruleIndex {index} names no rule of the tool"
    rule_id = text(reference.get("id"))
    if component and rule_id:  # the id looked up in the component named, not the driver
        for rule in table:
            if isinstance(rule, Mapping) and rule.get("id") == rule_id:
                return rule, None
    return None, None


def rule_for(
    result: Mapping[str, Any], context: RunContext
) -> tuple[str, Mapping[str, Any] | None, str | None]:
    """(rule id, rule object or None, a problem to report or None) of a result."""
    rule_id = text(result.get("ruleId"))
    reference = mapping(result.get("rule"))
    index = integer(result.get("ruleIndex"))
    if index is None:
        index = integer(reference.get("index"))
    if rule_id and "id" not in reference:
        reference = {**reference, "id": rule_id}
    rule, problem = rule_in(reference, index, context)
    if not rule_id:
        rule_id = text(reference.get("id")) or (text(rule.get("id")) if rule else "")
    if rule is None and rule_id:
        rule = context.by_id.get(rule_id) or context.by_id.get(rule_id.split("/", 1)[0])
    return rule_id or "(no rule)", rule, problem


#: what an invocation's overrides are kept by: the rule object's id(), else the rule's id
_OverrideKey = int | str


def _overrides(run: Mapping[str, Any], context: RunContext) -> list[dict[_OverrideKey, str]]:
    """Per invocation, the level its ``ruleConfigurationOverrides`` give each rule (3.20.5)."""
    found: list[dict[_OverrideKey, str]] = []
    for invocation in map(mapping, sequence(run.get("invocations"))):
        levels: dict[_OverrideKey, str] = {}
        for override in map(mapping, sequence(invocation.get("ruleConfigurationOverrides"))):
            level = text(mapping(override.get("configuration")).get("level"))
            descriptor = mapping(override.get("descriptor"))
            if not level or not descriptor:
                continue
            rule, _problem = rule_in(descriptor, integer(descriptor.get("index")), context)
            rule_id = text(descriptor.get("id"))
            if rule is None and rule_id and "toolComponent" not in descriptor:
                rule = context.by_id.get(rule_id)
            if rule is not None:
                levels.setdefault(id(rule), level)
            elif rule_id:
                levels.setdefault(rule_id, level)
        found.append(levels)
    return found


def level_of(
    result: Mapping[str, Any], rule: Mapping[str, Any] | None, rule_id: str, context: RunContext
) -> str:
    """The result's level as SARIF 3.27.10 determines it."""
    level = text(result.get("level"))
    if level:
        return level
    kind = text(result.get("kind"))
    if kind and kind != "fail":
        return "none"  # a result that is no failure (review, open, ...) has no severity
    if context.overrides:
        index = integer(mapping(result.get("provenance")).get("invocationIndex"))
        chosen = context.overrides
        if index is not None and 0 <= index < len(chosen):
            chosen = [chosen[index]]  # the invocation that found it
        keys = (id(rule), rule_id) if rule is not None else (rule_id,)
        for levels in chosen:
            for key in keys:
                if key in levels:
                    return levels[key]
    default = text(mapping(rule.get("defaultConfiguration")).get("level")) if rule else ""
    return default or "warning"
