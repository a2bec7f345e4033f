"""The sample audit: Kestrel (evidence/sample.py), Heron (its own repository, rebuilt from
sample_data/heron.fi) and Osprey (reports only: its repository is not distributed).

`sample_audit()` lays the audit out in the cache directory as sample_data/assay.toml names it:
a copy of that file and of the reports, and the repositories under ``repos/``, so the file is
used as shipped.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from evidence.sample import SAMPLE_DATA, SAMPLE_REPORTS, SampleError, build_repo, sample_repo

#: the Heron repository's fast-import stream (sample_data/make_audit_stream.py writes it)
HERON_STREAM = SAMPLE_DATA / "heron.fi"
#: the audit file, as shipped
AUDIT_FILE = SAMPLE_DATA / "assay.toml"
#: the Heron and Osprey reports
AUDIT_REPORTS = SAMPLE_DATA / "audit"
#: the revision the Heron report cites (commit 1 of 2) and the tip
HERON_CITED = "b3cbf14bc2dbe942fc08e578ccdb30f7e98176bc"
HERON_TIP = "3bc1c9cbf80736c7dba7ea9608d14ffe109b951e"


def _digest() -> str:
    digest = hashlib.sha256()
    for path in [AUDIT_FILE, HERON_STREAM, *sorted(AUDIT_REPORTS.iterdir())]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for path in sorted(SAMPLE_REPORTS.iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _lay_out(target: Path, kestrel: Path) -> None:
    target.mkdir(parents=True)
    shutil.copyfile(AUDIT_FILE, target / AUDIT_FILE.name)
    shutil.copytree(SAMPLE_REPORTS, target / "reports")
    shutil.copytree(AUDIT_REPORTS, target / "audit")
    repos = target / "repos"
    repos.mkdir()
    try:
        os.symlink(kestrel, repos / "kestrel", target_is_directory=True)
    except OSError:  # no symbolic links here: a repository of its own
        build_repo(repos / "kestrel")
    build_repo(repos / "heron", HERON_STREAM.read_bytes())


def sample_audit(cache_dir: Path | None = None) -> Path:
    """The sample audit's directory (holding assay.toml), built once per content and reused."""
    kestrel = sample_repo(cache_dir)
    base = kestrel.parent
    target = base / f"audit-{_digest()}"
    if (target / AUDIT_FILE.name).is_file():
        return target
    scratch = Path(tempfile.mkdtemp(prefix=".audit-build-", dir=base))
    try:
        _lay_out(scratch / "audit", kestrel)
        try:
            os.rename(scratch / "audit", target)
        except OSError:
            if not (target / AUDIT_FILE.name).is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


if __name__ == "__main__":
    try:
        print(sample_audit())
    except (SampleError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
