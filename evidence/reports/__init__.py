"""Evidence reports: text in, a Report with diagnostics out; bundles; loading files and caching.

- parser.py: `parse_report(text, file) -> Report`, in stages: vocabulary.py (the format's words
  and patterns), outline.py (which lines belong to which record), contents.py (what a record's
  lines hold).
- files.py: `ReportError`, `split_lines`, `is_report_text`: what the readers of report files share.
- loading.py: `load_reports(paths, cache=...) -> ReportSet`, `cross_check`.
- cache.py: the cache of parsed reports; bundle.py: the JSON bundle (docs/bundle-format.md).

Nothing is imported here: `load_reports` on cached reports must not load the parser.
"""
