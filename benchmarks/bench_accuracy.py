"""Anchoring accuracy on real code: quotes drawn from a git repository, damaged, perturbed, checked.

Draws N passages (1-6 lines) from a revision, writes them as a runtime report the way real reports
damage quotes (whitespace collapsed onto one line, or an indented block; backticks and asterisks
lost; list markers kept or turned into bullets; now and then typographic quotes), perturbs a share
of them, runs `assay check --format json` on it (a subprocess of `python -m tui.cli`, the code
path of the installed `assay`) and prints how many answers per category are right.

Categories and the answer counted right:
  true            verbatim passage, no range claimed: verified (exact, whitespace or normalized),
                  its true lines among the occurrences (or elsewhere in the file at a better
                  tier: exact, or whitespace where the damage left it only normalized here)
  true_claimed    the same with its true range claimed: verified at exactly those lines, range ok
  wrong_range     a range claimed where the passage is not: verified, range_ok false, its true
                  lines among the occurrences
  misquote:KIND   one token changed (number, operator, identifier, literal, keyword) so that the
                  quote is nowhere in the file even once normalized: fuzzy (never verified) at
                  its true lines (exactly those lines when claimed, among the close candidates
                  otherwise, or another passage the change made more similar), with a diff;
                  "missing" is right too when the changed quote is less similar to its
                  passage than the fuzzy floor (80)
  wrong_path      a passage found in exactly one file, cited under another file that shares
                  none of its longest words: missing there, with `elsewhere` listing a verified
                  place in its true file
  fabricated      halves of two passages of different files, together in no file: not verified,
                  in the cited file or anywhere else
"Falsely verified" counts misquotes, wrong paths and fabrications called verified in the cited
file. Passages the report parser does not read back verbatim are left out (and counted).

Repositories: by default one built in a temporary directory from part of the installed Python
standard library (real code no one here wrote) and the sample repository's tip; `--repo PATH`
(and `--rev`) for any git repository; `--dir PATH` for any directory (committed into a temporary
repository first, e.g. an installed package).

Usage: .venv/bin/python benchmarks/bench_accuracy.py [--n 2000] [--seed 1|random]
           [--repo PATH [--rev REV] | --dir PATH] [--show 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rapidfuzz import fuzz  # noqa: E402

from evidence.anchoring import DEFAULT_FLOOR  # noqa: E402
from evidence.anchoring.normalize import normalize_quote, normalize_source  # noqa: E402
from evidence.revision import Revision  # noqa: E402
from evidence.sample import git_environment, sample_repo  # noqa: E402

CATEGORIES = ("true", "true_claimed", "wrong_range", "misquote", "wrong_path", "fabricated")
WEIGHTS = (20, 15, 15, 30, 10, 10)
MISQUOTES = ("number", "operator", "identifier", "literal", "keyword")
#: parts of the standard library the default repository holds (with the sample repository)
STDLIB_PARTS = (
    "json",
    "email",
    "unittest",
    "multiprocessing",
    "ctypes",
    "tkinter",
    "http",
    "logging",
    "asyncio",
    "importlib",
    "urllib",
    "xml",
    "concurrent",
    "wsgiref",
    "sqlite3",
    "zoneinfo",
    "tomllib",
    "argparse.py",
    "ast.py",
    "calendar.py",
    "configparser.py",
    "csv.py",
    "dataclasses.py",
    "difflib.py",
    "enum.py",
    "functools.py",
    "inspect.py",
    "pathlib.py",
    "shutil.py",
    "subprocess.py",
    "tarfile.py",
    "textwrap.py",
    "typing.py",
    "zipfile.py",
)
_SUFFIXES = ".py .pyi .js .mjs .cjs .ts .tsx .jsx .md .rst .txt .sql .css .tcss .toml .yml .yaml"
TEXT_SUFFIXES = frozenset(f"{_SUFFIXES} .json .sh .html .c .h .rs .go .java .rb .cfg .ini".split())

_WORD = re.compile(r"[A-Za-z_]{3,}")
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w])")
_OPERATOR = re.compile(r"(?<= )(==|!=|<=|>=|&&|\|\||<|>|\+|-)(?= )")
_IDENTIFIER = re.compile(r"(?<![\w$])[A-Za-z_][A-Za-z0-9_]{3,}(?!\w)")
_LITERAL = re.compile(r"(\"[^\"\n]{3,}\"|'[^'\n]{3,}')")
_MARKER = re.compile(r"^(?:[-+*•]|\d{1,3}[.)])\s")
_MARKER_TOKEN = re.compile(r"[-+•‣◦]|\d{1,3}[.)]")
KEYWORDS = {
    "True": "False",
    "False": "True",
    "true": "false",
    "false": "true",
    "and": "or",
    "or": "and",
    "const": "let",
    "let": "const",
    "return": "yield",
    "if": "while",
    "while": "if",
    "None": "True",
    "null": "undefined",
    "public": "private",
    "async": "static",
    "not": "also",
    "def": "class",
    "class": "def",
    "import": "export",
    "for": "if",
}
_KEYWORD = re.compile(r"(?<![\w.$])(" + "|".join(KEYWORDS) + r")(?![\w$])")


@dataclass
class Case:
    """One quote of the report and the answer it should get."""

    category: str  # a CATEGORIES entry, misquotes as "misquote:KIND"
    text: str  # as written in the report
    style: str  # inline | block | bullets
    cited: str
    claimed: tuple[int, int] | None
    path: str  # where the passage really is
    span: tuple[int, int]
    score: float = 100.0  # a misquote's similarity to its true passage
    # equal to its passage up to whitespace (not only once normalized: lost backticks)
    whitespace_here: bool = True


@dataclass
class Passage:
    path: str
    span: tuple[int, int]
    lines: list[str]


class Corpus:
    """The text files of a revision, read once, with their flat forms for ground truth."""

    def __init__(self, revision: Revision) -> None:
        self.revision = revision
        self.paths = [
            path
            for path, entry in revision.entries().items()
            if entry.kind == "blob"
            and 300 <= entry.size <= 400_000
            and Path(path).suffix.lower() in TEXT_SUFFIXES
        ]
        self._flat: dict[str, str] = {}
        self._all: str | None = None
        self._starts: list[int] = []

    def lines(self, path: str) -> list[str]:
        return self.revision.read(path).lines

    def text(self, path: str) -> str:
        return self.revision.read(path).text

    def flat(self, path: str) -> str:
        """The file once normalized as the normalized tier sees it, whitespace collapsed."""
        if path not in self._flat:
            self._flat[path] = " ".join(normalize_source(self.text(path)).split())
        return self._flat[path]

    def files_holding(self, quote: str, limit: int = 3) -> list[str]:
        """The files whose normalized text holds the normalized quote (at most `limit`)."""
        if self._all is None:
            self._all = "\0".join(self.flat(path) for path in self.paths)
            self._starts = list(accumulate((len(self.flat(p)) + 1 for p in self.paths), initial=0))
        found: list[str] = []
        at = self._all.find(quote)
        while at >= 0 and len(found) < limit:
            number = bisect_right(self._starts, at) - 1
            found.append(self.paths[number])
            at = self._all.find(quote, self._starts[number + 1])
        return found

    def draw(self, rng: random.Random, *, blank_ok: bool = True) -> Passage:
        """A passage of 1-6 lines that reads like something a report would quote."""
        while True:
            path = rng.choice(self.paths)
            lines = self.lines(path)
            size = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6))
            if len(lines) < size + 2:
                continue
            first = rng.randrange(0, len(lines) - size + 1)
            block = lines[first : first + size]
            # first and last lines that keep something once damaged ("```", " *" do not): the
            # quote's true lines are then the drawn ones
            if not normalize_quote(block[0]) or not normalize_quote(block[-1]):
                continue
            if not blank_ok and not all(line.strip() for line in block):
                continue
            text = "\n".join(block)
            flat = " ".join(text.split())
            if "---" in text or "\t" in text or not 20 <= len(flat) <= 400:
                continue
            if len(set(_WORD.findall(flat))) < 2 or any(ord(c) < 32 for c in flat):
                continue
            if not text.isprintable() and any(not c.isprintable() for c in flat):
                continue
            return Passage(path, (first + 1, first + size), block)


def damage(lines: list[str], rng: random.Random, *, allow_block: bool = True) -> tuple[str, str]:
    """(text, style): the passage as a report writes it, damaged the way reports damage it."""
    eaten = rng.random() < 0.7  # a Markdown renderer ate backticks and asterisks
    stripped = [line.strip() for line in lines]
    listed = all(_MARKER.match(line) or line in ("*", "-") for line in stripped)
    blank = any(not line for line in stripped)
    roll = rng.random()
    if listed and roll < 0.5:
        style = "bullets"
        out = ["  • " + _MARKER.sub("", line, count=1).lstrip("*").strip() for line in stripped]
        out = [line for line in out if line.strip() != "•"] or ["  • " + stripped[0]]
    elif allow_block and not blank and roll < 0.3:
        style = "block"
        out = ["    " + line for line in lines]
    else:
        style = "inline"
        out = [" ".join(" ".join(lines).split())]
    text = "\n".join(out)
    if eaten:
        text = text.replace("`", "").replace("*", "")
        if style == "inline":
            text = " ".join(text.split())
    if rng.random() < 0.05:
        text = _typographic(text)
    if style == "bullets" and len(out) == 1 and rng.random() < 0.5:
        text = text.strip()  # one bulleted line written inline
        style = "inline"
    return text, style


def _typographic(text: str) -> str:
    """Straight quotes made curly, as word processors and some renderers do."""
    out, double = [], False
    for char in text:
        if char == '"':
            out.append("\u201d" if double else "\u201c")
            double = not double
        elif char == "'":
            out.append("\u2019")
        else:
            out.append(char)
    return "".join(out)


def misquote(text: str, kind: str, rng: random.Random) -> str | None:
    """The text with one token of `kind` changed; None when it has no such token to change."""
    lines = text.split("\n")
    # never the first token of a quoted line: a changed list marker there is no misquote
    candidates: list[tuple[int, re.Match[str]]] = []
    pattern = {
        "number": _NUMBER,
        "operator": _OPERATOR,
        "identifier": _IDENTIFIER,
        "literal": _LITERAL,
        "keyword": _KEYWORD,
    }[kind]
    for number, line in enumerate(lines):
        lead = len(line) - len(line.lstrip())
        first_token_end = lead + len(line[lead:].split(" ", 1)[0])
        for match in pattern.finditer(line):
            if match.start() < first_token_end and kind != "literal":
                continue
            if kind == "operator" and _MARKER_TOKEN.fullmatch(match.group()):
                # a "-" or "+" between words may be a list marker of the source's next line
                before = line[: match.start()].rstrip()[-1:]
                if not (before.isalnum() or before in ")]_"):
                    continue
            candidates.append((number, match))
    if not candidates:
        return None
    number, match = rng.choice(candidates)
    token = match.group()
    if kind == "number":
        digit = rng.randrange(len(token))
        new = str((int(token[digit]) + rng.randrange(1, 10)) % 10)
        changed = token[:digit] + new + token[digit + 1 :]
    elif kind == "operator":
        swap = {"==": "!=", "!=": "==", "<=": ">=", ">=": "<=", "&&": "||", "||": "&&"}
        swap.update({"<": ">", ">": "<", "+": "-", "-": "+"})
        changed = swap[token]
    elif kind == "identifier":
        at = rng.randrange(1, len(token))
        how = rng.choice(("case", "drop", "double"))
        if how == "case" and token[at].isalpha():
            changed = token[:at] + token[at].swapcase() + token[at + 1 :]
        elif how == "drop":
            changed = token[:at] + token[at + 1 :]
        else:
            changed = token[:at] + token[at] + token[at:]
    elif kind == "literal":
        inner = [i for i in range(1, len(token) - 1) if token[i].isalnum()]
        if not inner:
            return None
        at = rng.choice(inner)
        changed = token[:at] + ("x" if token[at] != "x" else "y") + token[at + 1 :]
    else:
        changed = KEYWORDS[token]
    line = lines[number]
    lines[number] = line[: match.start()] + changed + line[match.end() :]
    return "\n".join(lines)


def make_cases(corpus: Corpus, count: int, rng: random.Random) -> list[Case]:
    """`count` quotes over the categories, each with the answer it should get."""
    cases: list[Case] = []
    while len(cases) < count:
        category = rng.choices(CATEGORIES, WEIGHTS)[0]
        case = _make(category, corpus, rng)
        if case is not None:
            cases.append(case)
    return cases


def _make(category: str, corpus: Corpus, rng: random.Random) -> Case | None:
    if category == "misquote":  # each kind as often, whatever tokens the corpus is rich in
        kind = rng.choice(MISQUOTES)
        for _ in range(50):
            case = _misquote(kind, corpus, rng)
            if case is not None:
                return case
        return None
    passage = corpus.draw(rng)
    text, style = damage(passage.lines, rng)
    path, span = passage.path, passage.span
    if category == "true":
        here = " ".join(text.split()) == " ".join(" ".join(passage.lines).split())
        return Case(category, text, style, path, None, path, span, whitespace_here=here)
    if category == "true_claimed":
        return Case(category, text, style, path, span, path, span)
    if category == "wrong_range":
        size = span[1] - span[0] + 1
        total = len(corpus.lines(path))
        if total < size * 3 + 4:
            return None
        for _ in range(10):
            first = rng.randrange(1, total - size + 2)
            elsewhere = (first, first + size - 1)
            if elsewhere[1] < span[0] or elsewhere[0] > span[1]:
                there = " ".join(corpus.lines(path)[first - 1 : elsewhere[1]])
                if normalize_quote(text) not in " ".join(normalize_source(there).split()):
                    return Case(category, text, style, path, elsewhere, path, span)
        return None
    if category == "wrong_path":
        if corpus.files_holding(normalize_quote(text)) != [path]:
            return None  # the quote must be in exactly one other file
        words = sorted(set(_WORD.findall(text)), key=lambda w: (-len(w), w))[:3]
        for _ in range(10):
            cited = rng.choice(corpus.paths)
            if cited != path and not any(word in corpus.text(cited) for word in words):
                claimed = span if rng.random() < 0.3 else None
                return Case(category, text, style, cited, claimed, path, span)
        return None
    other = corpus.draw(rng)
    if other.path == path:
        return None
    ours = " ".join(" ".join(passage.lines).split()).split(" ")
    theirs = " ".join(" ".join(other.lines).split()).split(" ")
    if len(ours) < 4 or len(theirs) < 4:
        return None
    made = " ".join(ours[: len(ours) // 2] + theirs[len(theirs) // 2 :])
    # two common halves may be a real passage somewhere (two import lines): not fabricated
    if corpus.files_holding(normalize_quote(made), limit=1):
        return None
    claimed = span if rng.random() < 0.5 else None
    return Case(category, made, "inline", path, claimed, path, span)


def _misquote(kind: str, corpus: Corpus, rng: random.Random) -> Case | None:
    passage = corpus.draw(rng)
    text, style = damage(passage.lines, rng)
    path, span = passage.path, passage.span
    changed = misquote(text, kind, rng)
    if changed is None or normalize_quote(changed) == normalize_quote(text):
        return None
    if normalize_quote(changed) in corpus.flat(path):
        return None  # the change made another passage of the file: not a misquote
    claimed = span if rng.random() < 0.5 else None
    # below the anchorer's fuzzy floor (a keyword changed in a quote of 20 characters) the
    # honest answer may also be "missing": what never may be is "verified"
    score = fuzz.ratio(normalize_quote(changed), normalize_quote(text))
    return Case(f"misquote:{kind}", changed, style, path, claimed, path, span, score)


# --- the report ---------------------------------------------------------------------------------


def write_report(cases: list[Case], commit: str, per_record: int = 25) -> str:
    """A runtime report holding every case as a quote of a claim record, in order."""
    out = [
        "Accuracy runtime report",
        "",
        "Type: agentic-system-analyses/types/agentic-system-runtime-report.md",
        "",
        "Runtime account",
        "",
        f"Evidence is SRC-1 at revision {commit}.",
        "",
        "Shared records",
        "",
        "Claims",
        "",
    ]
    for start in range(0, len(cases), per_record):
        out += [f"BA-CLM-drawn-{start // per_record + 1}", "", "Label: drawn passages", ""]
        for number, case in enumerate(cases[start : start + per_record], start + 1):
            cited = case.cited
            if case.claimed is not None:
                cited += f":{case.claimed[0]}-{case.claimed[1]}"
            out += [f"Passage {number}:", ""]
            if case.style == "block":
                out += [*case.text.split("\n"), f"--- {cited}", ""]
            else:
                out += [f"{case.text} --- {cited}", ""]
    return "\n".join(out) + "\n"


def run_check(report: Path, repo: Path, commit: str) -> tuple[dict[str, Any], float]:
    """`assay check --format json` on the report, and its wall time."""
    command = [sys.executable, "-m", "tui.cli", "check", str(report), "--repo", str(repo)]
    command += ["--rev", commit, "--format", "json"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"assay check failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout), elapsed


# --- judging ------------------------------------------------------------------------------------

VERIFIED = frozenset({"exact", "whitespace", "normalized"})


def judge(case: Case, answer: dict[str, Any]) -> bool:
    """Is the answer the one the case should get?"""
    match, span = answer["match"], list(case.span)
    occurrences, lines = answer["occurrences"], answer["lines"]
    kind = case.category.split(":")[0]
    if kind == "true":  # a better tier elsewhere in the file outranks this place's
        better = match == "exact" or (match == "whitespace" and not case.whitespace_here)
        return match in VERIFIED and (span in occurrences or better)
    if kind == "true_claimed":
        return match in VERIFIED and lines == span and answer["range_ok"] is True
    if kind == "wrong_range":
        return match in VERIFIED and answer["range_ok"] is False and span in occurrences
    if kind == "misquote":
        if case.score < DEFAULT_FLOOR and match == "missing":
            return True
        changed = any(part["op"] != "equal" for part in answer["diff"] or ())
        if match != "fuzzy" or not changed:
            return False
        if case.claimed is not None:
            return lines == span and answer["range_ok"] is True
        # unclaimed, a passage the change made more similar than the true one may win
        return span in occurrences or answer["score"] > case.score + 1
    if kind == "wrong_path":
        # the passage is in no other file: any verified place in its file holds it
        return match == "missing" and any(
            place["path"] == case.path and place["match"] in VERIFIED
            for place in answer["elsewhere"]
        )
    return match not in VERIFIED and not any(
        place["match"] in VERIFIED for place in answer["elsewhere"]
    )


def falsely_verified(case: Case, answer: dict[str, Any]) -> bool:
    """A quote that is not in the cited file called verified there."""
    kind = case.category.split(":")[0]
    return kind in ("misquote", "wrong_path", "fabricated") and answer["match"] in VERIFIED


# --- repositories -------------------------------------------------------------------------------


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        env=git_environment(),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def commit_directory(target: Path) -> Path:
    """Make `target` (a directory of files) a git repository with one commit of all of them."""
    _git(target, "init", "--quiet")
    _git(target, "config", "user.email", "bench@example.invalid")
    _git(target, "config", "user.name", "bench")
    _git(target, "add", "-A", ".")
    _git(target, "commit", "--quiet", "--no-verify", "-m", "benchmark corpus")
    return target


def _ignore(_directory: str, names: list[str]) -> set[str]:
    return {n for n in names if n in ("__pycache__", ".git", "test", "tests") or n.endswith(".pyc")}


def default_repo(base: Path) -> Path:
    """Part of the installed standard library and the sample repository's tip, committed."""
    target = base / "corpus"
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for part in STDLIB_PARTS:
        source = stdlib / part
        if source.is_dir():
            shutil.copytree(source, target / "stdlib" / part, ignore=_ignore)
        elif source.is_file():
            (target / "stdlib").mkdir(parents=True, exist_ok=True)
            shutil.copy(source, target / "stdlib" / part)
    sample = sample_repo()
    archive = subprocess.run(
        ["git", "-C", str(sample), "archive", "HEAD"],
        env=git_environment(),
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target / "kestrel", filter="data")
    return commit_directory(target)


def directory_repo(source: Path, base: Path) -> Path:
    """Any directory (an installed package, a source tree) committed into a new repository."""
    target = base / "corpus"
    shutil.copytree(source, target, ignore=_ignore, symlinks=True)
    return commit_directory(target)


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="quotes to draw")
    parser.add_argument("--seed", default="1", help="an integer, or 'random'")
    parser.add_argument("--repo", type=Path, help="a git repository (default: built)")
    parser.add_argument("--rev", default="HEAD", help="the revision of --repo to quote")
    parser.add_argument("--dir", type=Path, help="a directory to commit and quote")
    parser.add_argument("--show", type=int, default=3, help="wrong answers shown per category")
    parser.add_argument("--keep", type=Path, help="write the report and the JSON here")
    args = parser.parse_args()
    seed = random.randrange(10**6) if args.seed == "random" else int(args.seed)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="assay-accuracy-") as scratch:
        base = Path(scratch)
        if args.keep is not None:  # the repository too, to look into the wrong answers
            shutil.rmtree(args.keep, ignore_errors=True)
            args.keep.mkdir(parents=True)
            base = args.keep
        start = time.perf_counter()
        if args.repo is not None:
            repo, name = args.repo, str(args.repo)
        elif args.dir is not None:
            repo, name = directory_repo(args.dir, base), f"{args.dir} (committed)"
        else:
            repo = default_repo(base)
            name = f"stdlib {sys.version.split()[0]} parts + kestrel sample (built)"
        built = time.perf_counter() - start
        with Revision.open(repo, args.rev) as revision:
            corpus = Corpus(revision)
            commit = revision.commit
            cases = make_cases(corpus, args.n, rng)
        drawn = time.perf_counter() - start - built
        report = base / "accuracy-runtime-report.txt"
        report.write_text(write_report(cases, commit), encoding="utf-8")
        result, elapsed = run_check(report, repo, commit)
        if args.keep is not None:
            (args.keep / "check.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    answers = result["quotes"]
    files = len(corpus.paths)
    print(f"repository: {name}, {files} text files, revision {commit[:12]}")
    print(f"seed {seed}; {len(cases)} quotes drawn in {drawn:.1f} s (repository: {built:.1f} s)")
    print(
        f"assay check --format json: {elapsed:.2f} s wall "
        f"({len(cases) / elapsed:.0f} quotes/s, process start to exit)"
    )
    if len(answers) != len(cases):
        raise SystemExit(f"the report holds {len(answers)} quotes, {len(cases)} were written")
    total: Counter[str] = Counter()
    right: Counter[str] = Counter()
    unread = 0
    wrong: dict[str, list[tuple[Case, dict[str, Any]]]] = {}
    false_verified = []
    for case, answer in zip(cases, answers, strict=True):
        if answer["text"] != case.text or answer["path"] != case.cited:
            unread += 1
            continue
        total[case.category] += 1
        if judge(case, answer):
            right[case.category] += 1
        else:
            wrong.setdefault(case.category, []).append((case, answer))
        if falsely_verified(case, answer):
            false_verified.append((case, answer))
    order = [c for c in CATEGORIES if c != "misquote"] + [f"misquote:{k}" for k in MISQUOTES]
    order.insert(3, order.pop())  # misquotes after wrong_range, in one block
    order = sorted(order, key=lambda c: CATEGORIES.index(c.split(":")[0]))
    print(f"{'category':<22}{'n':>6}{'right':>7}{'accuracy':>10}")
    for category in order:
        if total[category]:
            share = right[category] / total[category]
            print(f"{category:<22}{total[category]:>6}{right[category]:>7}{share:>10.2%}")
    misquotes = [c for c in order if c.startswith("misquote:")]
    n_mis = sum(total[c] for c in misquotes)
    if n_mis:
        share = sum(right[c] for c in misquotes) / n_mis
        print(
            f"{'misquote (all)':<22}{n_mis:>6}{sum(right[c] for c in misquotes):>7}{share:>10.2%}"
        )
    all_right = sum(right.values())
    print(
        f"{'all':<22}{sum(total.values()):>6}{all_right:>7}{all_right / sum(total.values()):>10.2%}"
    )
    print(f"falsely verified: {len(false_verified)}; not read back verbatim (left out): {unread}")
    for category in order:
        for case, answer in wrong.get(category, [])[: args.show]:
            print(
                f"\n[{category}] {case.cited} claimed {case.claimed}; true {case.path} {case.span}"
            )
            print(f"  quote ({case.style}): {case.text[:300]!r}")
            places = [(p["path"], p["lines"], p["match"]) for p in answer["elsewhere"][:3]]
            print(
                f"  answer: {answer['match']} {answer['score']} lines {answer['lines']} "
                f"occurrences {answer['occurrences'][:4]} range_ok {answer['range_ok']} "
                f"elsewhere {places}"
            )
            if answer["diff"]:
                changes = [(p["op"], p["quote"], p["source"]) for p in answer["diff"]]
                print(f"  diff: {[c for c in changes if c[0] != 'equal'][:4]}")


if __name__ == "__main__":
    main()
