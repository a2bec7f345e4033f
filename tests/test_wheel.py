"""assay as an installed application: the wheel alone runs `assay check` and `assay demo`.

The wheel is built from this checkout (`pip wheel --no-deps`, hatchling in pip's build
isolation) and installed into a fresh venv created without pip: the test environment's pip
installs into it (`pip --python`), the dependencies coming from whatever index pip is configured
to reach (PyPI in CI), so this is what `pipx install .` does. Not `--system-site-packages`: the
test venv holds assay as an editable install, which would hide a file missing from the wheel.
The child processes run outside the checkout, with their own cache, data and config directories.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from terminal import Terminal

from evidence.anchoring.wordset import COMPILED

ROOT = Path(__file__).resolve().parent.parent

#: where the installed assay finds the sample reports, and the sample repository it builds
LOCATE = (
    "from assay.evidence.sample import SAMPLE_REPORTS, sample_repo\n"
    "print(SAMPLE_REPORTS)\n"
    "print(sample_repo())\n"
)

#: whether the installed assay has the compiled index scan, and that it is the wheel's
SCAN = (
    "from assay.evidence.anchoring import wordset\n"
    "print(wordset.COMPILED)\n"
    "print(wordset.__file__.startswith(__import__('sys').prefix))\n"
)


def run(
    argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=cwd)


def other_distribution(directory: Path) -> Path:
    """A wheel of another project that owns top-level packages named as assay's layers are in
    the repository (``db``, ``tui``): installed beside assay, neither may hide the other."""
    wheel = directory / "otherdb-1.0-py3-none-any.whl"
    files = {
        "db/__init__.py": "OWNER = 'otherdb'\n",
        "tui/__init__.py": "OWNER = 'otherdb'\n",
        "otherdb-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: otherdb\nVersion: 1.0\n",
        "otherdb-1.0.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = "".join(f"{name},,\n" for name in files) + "otherdb-1.0.dist-info/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr("otherdb-1.0.dist-info/RECORD", record)
    return wheel


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="ptys and venv layout as on Linux")
def test_the_wheel_installs_an_assay_that_checks_and_opens_the_sample(tmp_path: Path) -> None:
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), str(ROOT)])
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("assay-*.whl")
    venv = tmp_path / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    other = other_distribution(tmp_path)
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install"]
    installed = run([*pip, str(wheel), str(other)])
    assert installed.returncode == 0, installed.stderr
    # everything of assay's under one package: the other project keeps its db and tui
    (record,) = (venv / "lib").glob("python3*/site-packages/assay-*.dist-info/RECORD")
    tops = {line.split("/")[0] for line in record.read_text().splitlines()}
    assert {top for top in tops if top != ".."} == {"assay", record.parent.name}, tops  # .. : bin/

    home = tmp_path / "home"
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "XDG_"))
    }
    env |= {f"XDG_{kind}_HOME": str(home / kind.lower()) for kind in ("CACHE", "DATA", "CONFIG")}
    owner = run([str(python), "-c", "import db, tui; print(db.OWNER, tui.OWNER)"], env, tmp_path)
    assert owner.stdout.split() == ["otherdb", "otherdb"], owner.stderr
    located = run([str(python), "-c", LOCATE], env=env, cwd=home.parent)
    assert located.returncode == 0, located.stderr
    reports, repo = located.stdout.split()
    assert Path(reports).is_relative_to(venv)  # the wheel's copy, not the checkout's
    assert Path(repo).is_relative_to(home / "cache")
    # the index scan compiled into the wheel, for the installed Python (a C compiler is there
    # wherever the checkout's own install compiled it)
    scan = run([str(python), "-c", SCAN], env=env, cwd=home.parent)
    assert scan.stdout.split() == [str(COMPILED), "True"], scan.stderr

    assay = str(venv / "bin" / "assay")
    checked = run([assay, "check", reports, "--repo", repo], env=env, cwd=home.parent)
    assert checked.returncode == 1, checked.stderr  # the sample has failing quotes on purpose
    assert "34 quotes: 10 exact, 10 whitespace, 8 normalized, 3 fuzzy, 3 missing" in checked.stdout

    terminal = Terminal([assay, "demo", "--reviewer", "wheel"], env=env, cwd=home.parent)
    try:
        assert terminal.read_until(b"Records", 30.0), terminal.output[-2000:]
        terminal.send(b"q")
        assert terminal.wait(30.0) == 0, terminal.output[-2000:]
    finally:
        terminal.close()


@pytest.mark.slow
def test_without_a_compiler_the_wheel_is_built_with_the_python_scan(tmp_path: Path) -> None:
    # a compiler that is not there (as on a machine without one): the build goes on, and the
    # wheel, for any platform, has no compiled module
    env = dict(os.environ, LDSHARED=str(tmp_path / "no-such-cc"))
    argv = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), str(ROOT)]
    built = run(argv, env)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("assay-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "assay/evidence/anchoring/wordset.py" in names
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
