"""A generated history for bench_drift_accuracy.py: real code (this project's evidence/ package
as a start) through release branches that take cherry-picks and are merged back, feature
branches merged both ways, edits, insertions, deletions, moves within and across files, renames
and deleted files. The cited revision is a release tag: a commit on a release branch, off main's
first-parent chain."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "PATH": "/usr/bin:/bin",
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.org",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.org",
}


class Builder:
    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root, self.rng, self.step = root, rng, 0

    def git(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            ["git", "-c", "core.hooksPath=/dev/null", *args],
            cwd=self.root,
            env={**ENV, "GIT_AUTHOR_DATE": f"{1_700_000_000 + 60 * self.step} +0000"},
            capture_output=True,
            text=True,
            check=False,
        )
        if check and done.returncode:
            raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout.strip()

    def files(self) -> list[str]:
        return sorted(self.git("ls-files").splitlines())

    def read(self, path: str) -> list[str]:
        return (self.root / path).read_text(encoding="utf-8").splitlines()

    def write(self, path: str, lines: list[str]) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(line + "\n" for line in lines), encoding="utf-8")

    def commit(self, message: str) -> str:
        self.step += 1
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def change(self, *, structural: bool) -> str:
        """One random change to the work tree; what it was."""
        rng = self.rng
        files = self.files()
        path = rng.choice(files)
        lines = self.read(path)
        kinds = ["edit", "edit", "insert", "delete", "move"]
        if structural:
            kinds += ["across", "across", "rename", "drop"]
        kind = rng.choice(kinds)
        at = rng.randrange(max(1, len(lines)))
        if kind == "edit" and lines:
            words = lines[at].split(" ")
            spot = rng.randrange(len(words))
            words[spot] = words[spot] + rng.choice(["_x", "2", "_new", "()", " + 1"])
            lines[at] = " ".join(words)
        elif kind == "insert":
            lines[at:at] = [f"    # note {self.step} {k}" for k in range(rng.randint(1, 5))]
        elif kind == "delete" and len(lines) > 20:
            del lines[at : at + rng.randint(1, 6)]
        elif kind == "move" and len(lines) > 20:
            block = lines[at : at + rng.randint(2, 8)]
            del lines[at : at + len(block)]
            spot = rng.randrange(len(lines) + 1)
            lines[spot:spot] = block
        elif kind == "across" and len(lines) > 30:
            block = lines[at : at + rng.randint(3, 12)]
            del lines[at : at + len(block)]
            if rng.random() < 0.5:
                other = f"moved/m{self.step}.py"
                self.write(other, ["# moved here", "", *block])
            else:
                other = rng.choice([f for f in files if f != path])
                there = self.read(other)
                spot = rng.randrange(len(there) + 1)
                there[spot:spot] = block
                self.write(other, there)
        elif kind == "rename":
            new = f"renamed/{Path(path).stem}_{self.step}.py"
            (self.root / new).parent.mkdir(parents=True, exist_ok=True)
            self.git("mv", path, new)
            return f"rename {path}"
        elif kind == "drop" and len(files) > 20:
            self.git("rm", "-q", path)
            return f"delete {path}"
        self.write(path, lines)
        return f"{kind} {path}"

    def merge(self, other: str) -> None:
        side = self.rng.choice(["ours", "theirs"])
        done = self.git("merge", "-q", "--no-ff", "--no-edit", f"-X{side}", other, check=False)
        del done
        unmerged = self.git("diff", "--name-only", "--diff-filter=U").splitlines()
        for path in unmerged:  # tree conflicts (modified here, deleted there): keep the file
            if (self.root / path).exists():
                self.git("add", path)
            else:
                self.git("rm", "-q", "--cached", path, check=False)
        if unmerged or self.git("rev-parse", "-q", "--verify", "MERGE_HEAD", check=False):
            self.step += 1
            self.git("commit", "-q", "--no-edit")


def generated_history(root: Path, seed: int, source: Path) -> tuple[Path, str, str]:
    """Build the history in `root` from `source`'s evidence/ files; (root, OLD, NEW)."""
    rng = random.Random(seed)
    builder = Builder(root, rng)
    root.mkdir(parents=True)
    builder.git("init", "-q", "-b", "main")
    names = subprocess.run(
        ["git", "ls-files", "evidence"], cwd=source, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in sorted(n for n in names if n.endswith(".py"))[:40]:
        builder.write(name, (source / name).read_text(encoding="utf-8").splitlines())
    builder.commit("import")
    tags: list[str] = []
    releases: list[str] = []
    picks: list[str] = []
    for round_ in range(8):
        for _ in range(rng.randint(4, 8)):  # work on main
            said = builder.change(structural=True)
            picks.append(builder.commit(said))
        release = f"release-{round_}"
        builder.git("checkout", "-q", "-b", release)
        releases.append(release)
        for k in range(rng.randint(2, 5)):  # fixes on the release branch, a pick from main
            if picks and rng.random() < 0.4:
                pick = rng.choice(picks[-6:])
                if builder.git(
                    "cherry-pick", "-X", "theirs", pick, check=False
                ) == "" and builder.git(
                    "rev-parse", "-q", "--verify", "CHERRY_PICK_HEAD", check=False
                ):
                    builder.git("cherry-pick", "--abort", check=False)
                continue
            builder.change(structural=False)
            builder.commit(f"fix {k} on {release}")
        builder.git("tag", f"v{round_}")
        tags.append(builder.git("rev-parse", "HEAD"))
        builder.change(structural=False)
        builder.commit(f"after v{round_}")
        builder.git("checkout", "-q", "main")
        feature = f"feature-{round_}"
        builder.git("checkout", "-q", "-b", feature)
        for _ in range(rng.randint(2, 4)):
            builder.change(structural=False)
            builder.commit(f"work on {feature}")
        builder.git("checkout", "-q", "main")
        builder.change(structural=False)
        builder.commit("main moves on")
        if rng.random() < 0.5:  # main into the feature, then the feature back
            builder.git("checkout", "-q", feature)
            builder.merge("main")
            builder.change(structural=False)
            builder.commit(f"more on {feature}")
            builder.git("checkout", "-q", "main")
        builder.merge(feature)
        if round_ >= 1:  # an older release merged back into main later
            builder.merge(releases[round_ - 1])
    builder.merge(releases[-1])
    old = tags[rng.randrange(1, 4)]
    return root, old, builder.git("rev-parse", "main")
