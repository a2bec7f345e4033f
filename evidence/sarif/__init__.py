"""SARIF 2.1.0 in: static-analysis results read as reports, records and quotes.

One module per reason to change; this ``__init__`` imports nothing (import from the modules):

- document.py: bytes (plain or gzip) -> the JSON document, or a clear SarifError
- uris.py: an artifact location -> a repository path (uriBaseId, originalUriBaseIds, file://)
- messages.py: a SARIF message -> plain text (messageStrings with arguments, embedded links)
- results.py: one result -> a Record with its quotes (locations, code flow steps, related)
- rules.py: a result's rule (the driver's or an extension's, by index, guid or name), its level
- reader.py: a document -> Reports (one per run); the record id of every result
- rebase.py: absolute paths of another checkout -> paths of the revision (by their ending)
- facts.py: a result record's baseline state and suppression (what the review filters use)
- triage.py: results grouped by rule, file or severity; a result's only location
"""
