"""The failure classes benchmarks/bench_accuracy.py found, each on a small real repository:
markers a quote keeps mid-line, short misquotes, the claimed range among near-equal passages,
loose fuzzy spans, and quotes of common words only cited under the wrong file."""

from __future__ import annotations

import pytest
from evidencekit import make_repo

from evidence.anchoring import Anchorer
from evidence.model import DiffPart, Quote, Tier
from evidence.revision import Revision

DEPLOY = """\
/**
 * Deploy settings read at start-up.
 *
 * Example:
 *   hooks:
 *     - target: "https://hooks.example.invalid/build"
 *       kinds: [push, tag]
 */
export function readDeploy(file) {
  const spoolQueue = new Spooler(file, file.limits ?? {});
  return spoolQueue.drain(file.budget*2 + 1);
}
"""

PLAN = """\
# Roadmap

- **Aim:** Ship the ledger sync before the spring survey.
  - Offline replay — queued edits are replayed in order
  - Conflict notes — a second edit never overwrites the first
"""

STYLE = """\
.banner {
  margin: 0.4rem 1.5rem;
  color: slategray;
}
"""

# the word "_reader" is everywhere, so only the misquoted word ("True") is rare
READER = "".join(f"value_{n} = reader._reader.take({n})\n" for n in range(40)) + (
    "if reader._reader is None:\n    raise Closed()\n"
    + "".join(f"other_{n} = reader._reader.skip({n})\n" for n in range(40))
)

LINKS = """\
def policy():
    return "https://docs.example.invalid/guide/retry-policy-table"
"""

# three equal calls: a quote of the last two (one line ends without the comma) overlaps the first
REQUESTS = """\
const requests = [
  client.request({ path: '/', method: 'GET' }),
  client.request({ path: '/', method: 'GET' }),
  client.request({ path: '/', method: 'GET' })
]
"""

# a Markdown list line with typographic quotes
PHASES = """\
Expansion runs in phases:

    * Perform [\u201cearly\u201d or \u201cpre\u201d](#phases) [variable
      expansion and conditional evaluation.
"""

CASES = """\
def test_first_bucket(store):
    store.put("alpha", 10)
    assert store.count("alpha") == 10
    store.drop("alpha")


def test_second_bucket(store):
    store.put("alpha", 10)
    assert store.count("alpha") == 10
    store.drop("alpha")
"""

PARSER = """\
def read_header(value):
    if value[0] != '[':
        if value[0] in HEADER_STOPS:
            raise errors.BadHeader(
                "expected a header but found '{}'".format(value))
        name, value = read_name(value)
    return name, value
"""

ROUNDS = """\
def settle(batch):
    if batch.closed:
        # nothing left to settle once the batch is closed, so
        # stop here.
        return
    batch.settle()
"""

WRAPPED = """\
def stage(buffer, offset):
    write(buffer.view, offset)
    flush(buffer.view,
          offset)
"""

ERRORS = """\
class HeaderError(Exception):
    def __init__(self, line):
        super().__init__(line)
"""

# a deeply indented call whose last line is much less indented (tkinter/dialog.py's _test)
NESTED = """\
PROMPT_ICON = 'questhead'


class Prompt(Widget):
    def __init__(self, master=None, cnf={}):
        self.choice = self.tk.call('tk_prompt', cnf['title'], cnf['text'],
                                   cnf['icon'], cnf['default'], *cnf['choices'])


def _demo():
    box = Prompt(None, {'title': 'Unsaved Work',
                        'text':
                        'The ledger has changed'
                        ' since it was last written.',
                        'icon': PROMPT_ICON,
                        'default': 0,
                        'choices': ('Save Work',
                                    'Drop Changes',
                                    'Back to Editor')})
    print(box.choice)
"""


# two lines that differ in one literal, two lines apart (ctypes/util.py)
ARCH = """\
def arch_name(struct, os):
    if struct.calcsize('l') == 4:
        arch = os.uname().machine + '-32'
    else:
        arch = os.uname().machine + '-64'
    return arch
"""

# a comment block whose closing line is "*/" (glob's pattern.js)
WALKER = """\
class Walker {
    /**
     * Check whether the current pattern may follow
     * a symbolic link.
     */
    canFollow() {
        return !this.seen;
    }
}
"""

# the claimed lines next to a line that reads nearly the same (textual's _partition.py)
SPLIT = '''\
def split(predicate, values):
    """Split values in two lists by a predicate.

    Returns:
        A list of values where the predicate is False, and a list
            where the predicate is True.
    """
'''


# the one identifier a misquote changes is most of the line (semver's identifiers.js)
TOKENS = """\
'use strict'

const numeric = /^[0-9]+$/
const compareTokens = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b ? 0 : a < b ? -1 : 1
  }
  return a < b ? -1 : 1
}

const rcompareTokens = (a, b) => compareTokens(b, a)
"""

# a docstring line repeated in a dozen methods, far apart
DESCRIPTORS = "".join(
    f"    def get_{n}(self, obj, owner=None):\n"
    f'        """Read part {n}.\n\n        Args:\n'
    f"            obj: The instance.\n            owner: The ``Widget`` class.\n"
    f'        """\n' + "".join(f"        step_{n}_{k}(obj)\n" for k in range(12))
    for n in range(12)
)

# the first word of an entry is also the word of the comment and line before it, and of the
# next entry; "foreground" is too common to say where a passage is
PALETTE = (
    "class Palette:\n    def build(self, get, colors, tinting, boost):\n"
    + "".join(f'        colors["foreground-{n}"] = tinting.darken(0.{n}).hex\n' for n in range(30))
    + "".join(f'        colors["edge-{n}"] = boost.with_shade(0.{n}).hex\n' for n in range(12))
    + """\
        colors["block-hover-foreground"] = get(
            "block-hover-foreground", boost.with_shade(0.1).hex
        )

        # The sidepanel colors
        colors["sidepanel"] = get(
            "sidepanel",
            (Color.parse(colors["foreground-darken-1"]) + tinting.with_shade(0.4)).hex,
        )
        colors["sidepanel-hover"] = get(
            "sidepanel-hover",
            (Color.parse(colors["foreground-darken-1"]) + tinting.with_shade(0.5)).hex,
        )
        # colors["sidepanel-active"] = get("sidepanel-active", colors["panel-lighten-2"])
"""
)

# a doctest: the "..." of a continuation line just before the quoted prompt
DOCTEST = """\
def total(*values):
    \"\"\"Add them up.

    >>> def twice(n):
    ...     return n * 2
    ...
    >>> total(2, 3)
    5
    >>> total(twice(2), 4)
    8
    \"\"\"
    return sum(values)
"""

# a comment line ending in "class" before a line starting with "def"
ITERATORS = """\
import sys


# These helpers turn into methods of the Ledger class
def walk(self):
    yield self
"""

# nine handlers end alike, each before a method named like the one quoted; more places agree
# on where the quote could be than are aligned, and the true one comes last
HANDLERS = "".join(
    f"    def end_{n}(self, node):\n"
    f"        self.lastEvent[1] = [(END, node), None]\n"
    f"        self.lastEvent = self.lastEvent[1]\n\n"
    f"    def startDocuments{n}(self):\n        pass\n\n"
    for n in range(9)
) + (
    "    def end(self, node):\n        self.lastEvent = self.lastEvent[1]\n\n"
    "    def startDocument(self):\n        self.first = [None, None]\n"
)


# a tagged template: quoted without its backtick, "say" and "Removed" read as one word
TAGGED = """\
async function revoke (id) {
  await retry(this.opts, opts => fetchIt(uri, {
    ...opts,
    method: 'DELETE',
  }))
  this.say`Removed the trusted setting for ${name} with id ${id}`
}
"""

# rows alike but for one word: the row after the quoted one differs from the quote by as many
# tokens (not characters)
KINDS = [*("feat", "fix", "bin", "gyp", "lib", "src"), *("test", "build", "clean", "conf")]
KINDS += ["install", "list"]
SECTIONS = (
    "[\n"
    + "".join(
        f'    {{ "kind": "{kind}", "group": "Core", "shown": true }},\n'
        for kind in [*KINDS, *(f"extra{n}" for n in range(24))]
    )
    + "]\n"
)

# the same block twice, the quoted one first with a key before it
MANIFEST = """\
{
  "name": "spool",
  "tshy": {
    "exports": {
      "./package.json": "./package.json",
      ".": "./src/index.ts"
    }
  },
  "exports": {
    "./package.json": "./package.json",
    ".": {
      "import": "./dist/index.js"
    }
  }
}
"""

# an f-string that lost both its asterisks when quoted
TIMING = """\
for t in range(15, 120, 5):
    pause = 1 / t
    taken = measure(pause)
    print(
        f"pause={pause*1000:.01f}ms taken={taken*1000:.01f}ms off={(taken - pause):.02f}"
    )
"""

# a key that ends like the key above it
PRETTIER = """\
{
  "semi": false,
  "singleQuote": true,
  "jsxSingleQuote": false,
  "arrowParens": "avoid"
}
"""

# a doctest where the prompt of the quoted lines also stands two lines before them
COUNTER = '''\
class Cursor(NamedTuple):
    """A place on the grid.

    Example:
        ```python
        >>> from grid import Cursor
        >>> cursor = Cursor(3, 2)
        >>> cursor
        Cursor(x=3, y=2)
        >>> cursor += Cursor(10, 0)
        >>> cursor
        Cursor(x=13, y=2)
        >>> -cursor
        Cursor(x=-13, y=-2)
        ```
    """

''' + "".join(
    f"    def step_{n}(self) -> Cursor:\n        return Cursor(self.x + {n}, self.y)\n\n"
    for n in range(20)
)

# a doctest quoted from an empty continuation line on
CACHED = '''\
def cached(method):
    """Cache per instance.

    >>> class Probe:
    ...     calls = 0
    ...
    ...     @cached
    ...     def method(self, value):
    ...         self.calls += 1
    ...         return value
    """
'''

PACKAGE = """\
{
  "name": "qr-print",
  "preferGlobal": false,
  "license": "Apache-2.0"
}
"""

# "`Field`s" quoted without backticks is "Fields", a word another file holds
FIELD = '''\
class Field:
    verdict = None
    """Set once checked, or None when no checkers are given to the `Field`s constructor."""
'''
FIELDS_DOC = "Fields are grouped in sections.\n"


@pytest.fixture(scope="module")
def anchorer(tmp_path_factory: pytest.TempPathFactory) -> Anchorer:
    root = tmp_path_factory.mktemp("accuracy") / "repo"
    files = {
        "src/deploy.js": DEPLOY,
        "docs/plan.md": PLAN,
        "web/style.css": STYLE,
        "lib/reader.py": READER,
        "lib/links.py": LINKS,
        "tests/test_buckets.py": CASES,
        "lib/parser.py": PARSER,
        "lib/rounds.py": ROUNDS,
        "lib/wrapped.py": WRAPPED,
        "lib/errors.py": ERRORS,
        "lib/prompt.py": NESTED,
        "lib/arch.py": ARCH,
        "src/walker.js": WALKER,
        "lib/split.py": SPLIT,
        "src/tokens.js": TOKENS,
        "docs/requests.md": REQUESTS,
        "docs/phases.md": PHASES,
        "lib/descriptors.py": DESCRIPTORS,
        "lib/palette.py": PALETTE,
        "lib/doctest_total.py": DOCTEST,
        "lib/iterators.py": ITERATORS,
        "lib/handlers.py": HANDLERS,
        "src/revoke.js": TAGGED,
        "conf/sections.json": SECTIONS,
        "conf/manifest.json": MANIFEST,
        "lib/timing.py": TIMING,
        "conf/prettier.json": PRETTIER,
        "lib/counter.py": COUNTER,
        "lib/cached.py": CACHED,
        "conf/package.json": PACKAGE,
        "lib/field.py": FIELD,
        "docs/fields.md": FIELDS_DOC,
    }
    # some files of common words, so that "super", "__init__" and "line" are stop words
    for number in range(70):
        files[f"lib/filler_{number}.py"] = (
            f"class Filler{number}(Base):\n    def __init__(self, line):\n"
            f"        super().__init__()\n        self.line = line + {number}\n"
        )
    make_repo(root, files)
    revision = Revision.open(root)
    yield Anchorer(revision)
    revision.close()


def quote(text: str, path: str, claimed: tuple[int, int] | None = None) -> Quote:
    return Quote(text, path, claimed, 10, 9, "RT-ACCURACY", 0)


def changes(anchor_diff: tuple[DiffPart, ...]) -> list[DiffPart]:
    return [part for part in anchor_diff if part.op != "equal"]


# --- normalization is symmetric ------------------------------------------------------------------


def test_a_list_marker_kept_mid_quote_is_normalized(anchorer: Anchorer) -> None:
    text = 'hooks: - target: "https://hooks.example.invalid/build" kinds: [push, tag]'
    anchor = anchorer.anchor(quote(text, "src/deploy.js"))
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (5, 7))


def test_a_markdown_list_with_bold_text_kept_markers_is_normalized(anchorer: Anchorer) -> None:
    text = (
        "Aim: Ship the ledger sync before the spring survey. - Offline replay — queued edits "
        "are replayed in order - Conflict notes — a second edit never overwrites the first"
    )
    anchor = anchorer.anchor(quote(text, "docs/plan.md", (3, 5)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (3, 5), True)


def test_a_word_that_lost_an_asterisk_inside_it_is_normalized(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("return spoolQueue.drain(file.budget2 + 1);", "src/deploy.js"))
    assert (anchor.match, anchor.lines) == (Tier.NORMALIZED, (11, 11))


def test_a_changed_marker_is_never_verified(anchorer: Anchorer) -> None:
    text = 'hooks: + target: "https://hooks.example.invalid/build" kinds: [push, tag]'
    anchor = anchorer.anchor(quote(text, "src/deploy.js"))
    assert not anchor.verified
    assert anchor.match is Tier.FUZZY and anchor.lines == (5, 7)


# --- short misquotes are fuzzy at their line ---------------------------------------------------


def test_a_short_one_token_misquote_is_fuzzy_at_its_line(anchorer: Anchorer) -> None:
    text = "const spoolqueue = new Spooler(file, file.limits ?? {});"
    anchor = anchorer.anchor(quote(text, "src/deploy.js"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (10, 10))
    assert changes(anchor.diff) == [DiffPart("replace", "q", "Q")]


def test_a_short_css_misquote_is_fuzzy_at_its_line(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("margin: 0.6rem 1.5rem;", "web/style.css"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (2, 2))
    assert changes(anchor.diff) == [DiffPart("replace", "6", "4")]


def test_a_misquote_whose_only_rare_word_is_the_changed_one(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("if reader._reader is True:", "lib/reader.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (41, 41))
    assert changes(anchor.diff) == [DiffPart("replace", "Tru", "Non")]


def test_a_one_token_misquote(anchorer: Anchorer) -> None:
    text = '"https://docs.example.invalid/guide/retry-polixy-table"'
    anchor = anchorer.anchor(quote(text, "lib/links.py", (2, 2)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (2, 2), True)
    assert changes(anchor.diff) == [DiffPart("replace", "x", "c")]


def test_a_misquote_opening_with_a_lone_brace_and_a_changed_operator() -> None:
    from evidence.anchoring.forms import FileView, quote_forms
    from evidence.anchoring.fuzzy import find_fuzzy

    text = "    }\n    if (route === '/api/jobs' || route === '/api/runs') {\n      send(jobs);\n"
    found = find_fuzzy(
        quote_forms("} if (route !== '/api/jobs' || route === '/api/runs') {"),
        FileView(text),
        80,
        thorough=True,
    )
    assert found and found[0].lines == (1, 2)


def test_a_misquote_whose_changed_identifier_is_most_of_it(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("    const compareTokns = (a, b) => {", "src/tokens.js"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (4, 4))
    assert changes(anchor.diff) == [DiffPart("insert", "", "e")]


# --- the claimed range among near-equal passages, and tight spans --------------------------------


def test_the_claimed_passage_wins_among_near_equal_ones(anchorer: Anchorer) -> None:
    text = 'store.put("alpha", 10) assert store.count("alpha") == 12'
    claimed = anchorer.anchor(quote(text, "tests/test_buckets.py", (8, 9)))
    assert (claimed.match, claimed.lines, claimed.range_ok) == (Tier.FUZZY, (8, 9), True)
    assert sorted(c.lines for c in claimed.candidates) == [(2, 3), (8, 9)]
    unclaimed = anchorer.anchor(quote(text, "tests/test_buckets.py"))
    assert unclaimed.occurrences == ((2, 3), (8, 9))


def test_a_misquote_of_a_line_repeated_a_dozen_times_lists_every_copy(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote("owner: The Widget def.", "lib/descriptors.py"))
    assert anchor.match is Tier.FUZZY
    assert anchor.occurrences == tuple((n * 19 + 6, n * 19 + 6) for n in range(12))
    assert changes(anchor.diff) == [DiffPart("replace", "def", "class")]


def test_a_misquote_starting_with_a_word_of_the_line_before_keeps_its_first_line(
    anchorer: Anchorer,
) -> None:
    text = (
        '"sidepanel", (Color.parse(colors["foreground-darken-1"]) + tintting.with_shade(0.4)).hex, '
        ') colors["sidepanel-hover"] = get( "sidepanel-hover",'
    )
    anchor = anchorer.anchor(quote(text, "lib/palette.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (51, 55))
    assert changes(anchor.diff) == [DiffPart("delete", "t", "")]


def test_a_misquote_opening_with_the_sources_own_ellipsis_spans_its_line(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(
        quote("... >>> total(2, 3) 5 >>> total(twice(2), 4) 9", "lib/doctest_total.py")
    )
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (6, 10))
    assert changes(anchor.diff) == [DiffPart("replace", "9", "8")]


def test_a_claimed_line_whose_last_word_changed_is_not_stretched_to_the_next(
    anchorer: Anchorer,
) -> None:
    text = "# These helpers turn into methods of the Ledger def"
    anchor = anchorer.anchor(quote(text, "lib/iterators.py", (4, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (4, 4), True)
    assert changes(anchor.diff) == [DiffPart("replace", "def", "class")]


def test_a_misquote_among_more_alike_places_than_are_aligned_is_still_found(
    anchorer: Anchorer,
) -> None:
    text = "self.lastEvent = self.lastEvent[1] def startDDocument(self):"
    anchor = anchorer.anchor(quote(text, "lib/handlers.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (65, 67))
    assert changes(anchor.diff) == [DiffPart("delete", "D", "")]


def test_a_misquoted_row_is_placed_at_its_own_line_not_the_like_one_after(
    anchorer: Anchorer,
) -> None:
    text = '    { "kind": "instaLl", "group": "Core", "shown": true },'
    anchor = anchorer.anchor(quote(text, "conf/sections.json"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (12, 12))
    assert changes(anchor.diff) == [DiffPart("replace", "L", "l")]


def test_a_misquoted_block_is_placed_at_its_own_lines_not_the_like_block_after(
    anchorer: Anchorer,
) -> None:
    text = '"tshx": {\n  "exports": {\n    "./package.json": "./package.json",'
    anchor = anchorer.anchor(quote(text, "conf/manifest.json"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (3, 5))
    assert changes(anchor.diff) == [DiffPart("replace", "x", "y")]


def test_a_claimed_line_with_one_token_changed_wins_over_a_closer_reading_line_beside_it(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote('"jsxSingleQuote": true,', "conf/prettier.json", (4, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (4, 4), True)
    assert changes(anchor.diff) == [DiffPart("replace", "tru", "fals")]
    assert (3, 3) in [candidate.lines for candidate in anchor.candidates]


def test_a_misquote_whose_first_tokens_also_stand_a_line_before_keeps_its_lines(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote(">>> cursor Cursor(x=13, y=3) >>> -cursor", "lib/counter.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (11, 13))
    assert changes(anchor.diff) == [DiffPart("replace", "3", "2")]


def test_a_misquote_opening_with_two_of_the_sources_ellipses_spans_their_lines(
    anchorer: Anchorer,
) -> None:
    text = "... ... @cached ... def method(self, value): ... self.calls += 7 ... return value"
    anchor = anchorer.anchor(quote(text, "lib/cached.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (6, 10))


def test_a_short_misquote_whose_changed_word_is_most_of_it_is_fuzzy(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote('"preferxlobal": false,', "conf/package.json"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (3, 3))
    assert changes(anchor.diff) == [DiffPart("replace", "x", "G")]


def test_a_fuzzy_span_takes_no_line_before_it(anchorer: Anchorer) -> None:
    text = (
        "if value[1] in HEADER_STOPS: raise errors.BadHeader( "
        "\"expected a header but found '{}'\".format(value)) name, value = read_name(value)"
    )
    anchor = anchorer.anchor(quote(text, "lib/parser.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (3, 6))
    assert changes(anchor.diff) == [DiffPart("replace", "1", "0")]


def test_a_changed_last_token_keeps_its_line(anchorer: Anchorer) -> None:
    text = "# nothing left to settle once the batch is closed, so # stop here. yield"
    anchor = anchorer.anchor(quote(text, "lib/rounds.py", (3, 5)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (3, 5), True)


def test_a_claimed_range_holding_the_quote_up_to_whitespace(anchorer: Anchorer) -> None:
    # verbatim on line 2, and up to whitespace on lines 3-4, which the report claims
    anchor = anchorer.anchor(quote("buffer.view, offset", "lib/wrapped.py", (3, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.WHITESPACE, (3, 4), True)
    wrong = anchorer.anchor(quote("buffer.view, offset", "lib/wrapped.py", (1, 1)))
    assert wrong.range_ok is False
    assert set(wrong.occurrences) == {(2, 2), (3, 4)}


def test_an_indented_block_misquote_keeps_its_last_line(anchorer: Anchorer) -> None:
    # the quote collapses to far fewer characters than the indented lines hold: the window
    # aligned must still reach the last line
    text = "\n".join(line.rstrip() for line in NESTED.splitlines()[14:20])
    anchor = anchorer.anchor(quote(text.replace("'default': 0", "'default': 5"), "lib/prompt.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (15, 20))
    assert changes(anchor.diff) == [DiffPart("replace", "5", "0")]


def test_a_misquote_of_a_line_below_a_similar_one_is_placed_at_its_own(
    anchorer: Anchorer,
) -> None:
    anchor = anchorer.anchor(quote("arch = os.uname().macchine + '-64'", "lib/arch.py"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (5, 5))
    assert [part.op for part in changes(anchor.diff)] == ["delete"]


def test_a_short_misquote_keeps_the_closing_line_of_its_comment(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("* a sybolic link. */", "src/walker.js"))
    assert (anchor.match, anchor.lines) == (Tier.FUZZY, (4, 5))


def test_a_claim_is_not_traded_for_a_similar_line_beside_it(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote('where the predicate is False. """', "lib/split.py", (6, 7)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.FUZZY, (6, 7), True)


def test_overlapping_places_are_occurrences_and_the_claimed_one_wins(anchorer: Anchorer) -> None:
    text = (
        "client.request({ path: '/', method: 'GET' }), client.request({ path: '/', method: 'GET' })"
    )
    anchor = anchorer.anchor(quote(text, "docs/requests.md", (3, 4)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.WHITESPACE, (3, 4), True)
    assert anchor.occurrences == ((2, 3), (3, 4))
    unclaimed = anchorer.anchor(quote(text, "docs/requests.md"))
    assert unclaimed.lines == (2, 3) and len(unclaimed.occurrences) == 2


def test_a_quote_with_typographic_quotes_is_found_verified_in_another_file(
    anchorer: Anchorer,
) -> None:
    text = "Perform [\u201cearly\u201d or \u201cpre\u201d](#phases) [variable"
    anchor = anchorer.anchor(quote(text, "lib/links.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("docs/phases.md", (3, 3), Tier.EXACT)
    ]


def test_a_quote_joining_words_across_a_lost_backtick_is_found_verified_in_another_file(
    anchorer: Anchorer,
) -> None:
    text = "method: 'DELETE', })) this.sayRemoved the trusted setting for ${name} with id ${id}"
    assert anchorer.anchor(quote(text, "src/revoke.js")).match is Tier.NORMALIZED
    anchor = anchorer.anchor(quote(text, "lib/links.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("src/revoke.js", (4, 6), Tier.NORMALIZED)
    ]


def test_a_quote_that_lost_two_asterisks_is_normalized(anchorer: Anchorer) -> None:
    text = (
        'print( f"pause={pause1000:.01f}ms taken={taken1000:.01f}ms off={(taken - pause):.02f}" )'
    )
    anchor = anchorer.anchor(quote(text, "lib/timing.py", (1, 3)))
    assert (anchor.match, anchor.lines, anchor.range_ok) == (Tier.NORMALIZED, (4, 6), False)


def test_a_quote_joining_words_into_one_another_file_holds_is_found_verified_elsewhere(
    anchorer: Anchorer,
) -> None:
    text = '"""Set once checked, or None when no checkers are given to the Fields constructor."""'
    anchor = anchorer.anchor(quote(text, "lib/links.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("lib/field.py", (3, 3), Tier.NORMALIZED)
    ]


# --- a quote of common words only, cited under the wrong file ---------------------------------


def test_a_quote_of_common_words_only_is_found_elsewhere(anchorer: Anchorer) -> None:
    anchor = anchorer.anchor(quote("super().__init__(line)", "lib/parser.py"))
    assert anchor.match is Tier.MISSING
    assert [(e.path, e.lines, e.match) for e in anchor.elsewhere] == [
        ("lib/errors.py", (3, 3), Tier.EXACT)
    ]


# --- the line scan's collapsed text -------------------------------------------------------------


@pytest.mark.parametrize("nul", ["", "\x00"])
def test_the_flat_text_collapses_blanks_within_lines_only(nul: str) -> None:
    from evidence.anchoring.forms import FileView

    text = f"  a\t\tb  \n\n   *c*  d\n\x0b\ne {nul}f\n"
    flat, flat_starts, text_starts = FileView(text).flat
    assert flat == f"a b c d e {nul}f"
    assert flat_starts == [0, 4, 8]
    assert text_starts == [0, 10, 22]
