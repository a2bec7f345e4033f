"""The Kestrel sample: a real git repository rebuilt from a fast-import stream, and its reports.

The repository is stored in sample_data/kestrel.fi (written by sample_data/make_stream.py) and
built on first use into a cache directory keyed by a hash of the stream, so every machine gets the
same commit ids. The two sample reports cite CITED_REVISION; the work tree shows TIP_REVISION,
which changes and moves several of the cited lines. A wheel ships the stream, the reports and the
answer key in evidence/sample_data/ (pyproject.toml), so an installed `assay demo` works alone.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import platformdirs

ROOT = Path(__file__).resolve().parent.parent
#: the sample's files: shipped inside the package by a wheel, else sample_data/ of the checkout
SAMPLE_DATA = Path(__file__).resolve().parent / "sample_data"
if not SAMPLE_DATA.is_dir():
    SAMPLE_DATA = ROOT / "sample_data"
#: the fast-import stream of the sample repository
STREAM = SAMPLE_DATA / "kestrel.fi"
#: directory holding the two sample reports
SAMPLE_REPORTS = SAMPLE_DATA / "reports"
#: the answer key (a Markdown table in the README)
ANSWER_KEY = SAMPLE_DATA / "README.md"

#: the revision both sample reports cite (commit 2 of 6, tagged v0.3.0)
CITED_REVISION = "802776dd27b8c567fc18b46afc7b0cf64426b1f9"
#: the branch tip (commit 6 of 6): commits 3-6 change, move, rename and delete quoted lines
TIP_REVISION = "8df75acb2bc53c2fc63e8fee737d1e5aa1c28c03"
#: the first commit
FIRST_REVISION = "e482316426b21ac3c305d1ef82b84f88f6645aa0"
BRANCH = "main"
CITED_TAG = "v0.3.0"


class SampleError(RuntimeError):
    """The sample repository could not be built."""


def git_environment() -> dict[str, str]:
    """An environment in which no user or system git configuration applies."""
    from evidence.revision import safe_environment

    return {**safe_environment(), "LC_ALL": "C"}


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    from evidence.git.process import run_in_own_repository

    try:
        result = run_in_own_repository(repo, *args, stdin=stdin)
    except OSError as error:
        raise SampleError(f"cannot run git: {error}") from error
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip()
        raise SampleError(f"git {args[0]} failed while building the sample: {message}")
    return result.stdout


def stream_digest() -> str:
    """A short hash of the stream: the cache key of the built repository."""
    return hashlib.sha256(STREAM.read_bytes()).hexdigest()[:16]


def default_cache_dir() -> Path:
    """Where sample_repo() builds by default (the user cache directory of assay)."""
    return Path(platformdirs.user_cache_dir("assay")) / "sample"


def build_repo(target: Path, stream: bytes | None = None) -> Path:
    """Build the sample repository into the empty or new directory ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    _git(target, "init", "--quiet")
    _git(target, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}")
    _git(target, "config", "core.autocrlf", "false")
    _git(target, "config", "gc.auto", "0")
    data = STREAM.read_bytes() if stream is None else stream
    _git(target, "fast-import", "--quiet", stdin=data)
    _git(target, "reset", "--quiet", "--hard", BRANCH)
    head = _git(target, "rev-parse", "HEAD").decode().strip()
    if stream is None and head != TIP_REVISION:
        raise SampleError(
            f"sample stream built tip {head}, expected {TIP_REVISION}: "
            "update the constants in evidence/sample.py after editing the stream"
        )
    return target


def _cached_digest(base: Path) -> str:
    """`stream_digest()`, remembered in ``base`` beside the stream's size and modification time.

    So that `assay demo` does not hash the whole stream at every launch; a stream whose size or
    time changed (edited, checked out again) is hashed again.
    """
    stamp = base / "stream.stamp"
    try:
        status = STREAM.stat()
    except OSError:
        return stream_digest()  # raises the same OSError
    seen = f"{status.st_size} {status.st_mtime_ns} "
    try:
        text = stamp.read_text(encoding="ascii")
        if text.startswith(seen) and len(text) == len(seen) + 16:
            return text[len(seen) :]
    except (OSError, UnicodeDecodeError):
        pass
    digest = stream_digest()
    try:
        base.mkdir(parents=True, exist_ok=True)
        scratch = base / f".stream.stamp.{os.getpid()}"
        scratch.write_text(seen + digest, encoding="ascii")
        os.replace(scratch, stamp)
    except OSError:
        pass  # a read-only cache: hashed again next time
    return digest


def sample_repo(cache_dir: Path | None = None) -> Path:
    """The sample repository (work tree at the tip), built once per stream version and reused."""
    base = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = base / f"kestrel-{_cached_digest(base)}"
    if (target / ".git").is_dir():
        return target
    try:
        base.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".kestrel-build-", dir=base))
    except OSError as error:  # a cache directory that cannot be made: one line, not a crash
        raise SampleError(
            f"cannot build the sample repository in {base}: {error.strerror or error}"
        ) from None
    try:
        build_repo(scratch)
        try:
            os.rename(scratch, target)
        except OSError:
            if not (target / ".git").is_dir():  # not a concurrent build that finished first
                raise
            shutil.rmtree(scratch, ignore_errors=True)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return target


if __name__ == "__main__":
    try:
        print(sample_repo())
    except SampleError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
