"""The lexer chosen for a file name is Pygments' own choice, found through an index."""

from __future__ import annotations

import random
import string
import threading

from pygments.lexers import find_lexer_class_for_filename, get_all_lexers
from pygments.lexers.special import TextLexer

from evidence.syntax import lexer_class, lexer_for


def names_from_patterns() -> set[str]:
    """File names each lexer's patterns match, or nearly do, with and without directories."""
    names = set()
    for _name, _aliases, globs, _mimetypes in get_all_lexers():
        for glob in globs:
            names.add(glob.replace("*", "x").replace("?", "q").replace("[1-9]", "3"))
            names.add(glob.replace("*", "").replace("[", "").replace("]", ""))
            names.add("dir/sub." + glob.replace("*", "a.b"))
    return names


def test_every_pattern_chooses_as_pygments_chooses() -> None:
    rng = random.Random(7)
    names = names_from_patterns()
    names |= {
        "".join(rng.choice(string.ascii_letters + "._-") for _ in range(rng.randrange(1, 12)))
        for _ in range(1000)
    }
    names |= {"Makefile", "Makefile.am", "x.h", "a.tar.gz", ".bashrc", "", ".", "CMakeLists.txt"}
    differ = [n for n in sorted(names) if lexer_class(n) is not find_lexer_class_for_filename(n)]
    assert differ == []
    assert lexer_class("src/server.py").__name__ == "PythonLexer"  # type: ignore[union-attr]
    assert lexer_class("notes.unknown-extension") is None


def test_a_file_pygments_does_not_know_is_plain_text_with_its_lines_kept() -> None:
    lexer = lexer_for("data/stations_1998.nothing")
    assert isinstance(lexer, TextLexer)
    assert lexer.stripnl is False and lexer.ensurenl is False
    assert lexer_for("a.py").stripnl is False


def test_threads_asking_at_once_make_the_index_once() -> None:
    # the source pane and the next record's preparation ask for their first lexers together:
    # both made the ~930 patterns' index, each holding the GIL from the other's highlighting
    from evidence import syntax

    syntax._made_index.cache_clear()
    start = threading.Barrier(3)

    def ask() -> None:
        start.wait()
        syntax.lexer_class("a.py")

    threads = [threading.Thread(target=ask) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert syntax._made_index.cache_info().misses == 1
