"""The files of the repository tests/evidence/test_anchoring_accuracy.py anchors in: each shaped
like a case bench_accuracy found (written here, not copied from the repository it was found in)."""

from __future__ import annotations

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

# rows ending alike: the quoted row's comment is on the next row too
PADS = (
    "PADS = {\n"
    + "".join(f'    "escO{n}": (Pad.K{n},),\n' for n in range(30))
    + """\
    "escOR": (Pad.F3,),
    "escOS": (Pad.F4,),
    "esc[[A": (Pad.F1,),  # serial console.
    "esc[[B": (Pad.F2,),  # serial console.
    "esc[[C": (Pad.F3,),  # serial console.
    "esc[[D": (Pad.F4,),  # serial console.
    "esc[11~": (Pad.F1,),  # remote shell
}
"""
)

# a deeply indented pair of lines, the like pair above it less indented
DRAIN = """\
class Reader:
    def drain(self, sock, buf, wants):
        count = sock.read(wants, buf)

        if count > 0:
            offset = count
            while offset < wants:
                count = sock.read(wants - offset, buf[offset:])
                if count > 0:
                    offset += count
                else:
                    break
        return count
"""

# every word of the quoted field is common in the file, and its reference lost its backticks
RECORD = (
    "class Record:\n"
    + "".join(
        f"    meta_{n}: _Check[_Kind{n}] = _Check()\n"
        f'    """:external:ref:`core-record-meta-{n}`"""\n'
        for n in range(32)
    )
    + "".join(f"    # meta_version checked by _Check before field {n}\n" for n in range(32))
    + "    meta_version: _Check[_MetaVersion] = _Check()\n"
    + '    """:external:ref:`core-record-meta-version`\n'
    + '    (required; checked to be a known version)"""\n'
)

# two flags end the call: a quote ending with the first one changed reads nearly as well as one
# that left it out
PLACEMENT = """\
def place(append, region, offset, spacing, widget, z):
    append(
        Placement(
            region.moved(offset),
            offset,
            spacing,
            widget,
            z,
            True,
            False,
        )
    )
"""


def accuracy_files() -> dict[str, str]:
    """Path -> text of every file of the repository."""
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
        "lib/pads.py": PADS,
        "lib/drain.py": DRAIN,
        "lib/record.py": RECORD,
        "lib/placement.py": PLACEMENT,
    }
    # some files of common words, so that "super", "__init__" and "line" are stop words
    for number in range(70):
        files[f"lib/filler_{number}.py"] = (
            f"class Filler{number}(Base):\n    def __init__(self, line):\n"
            f"        super().__init__()\n        self.line = line + {number}\n"
        )
    return files
