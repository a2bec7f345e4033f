"""Dialogs over a tinted view of the screen beneath, drawn once per change of that screen.

A Textual modal screen with a translucent background draws the whole screen beneath, tinted,
every time any part of the modal is refreshed: several times while a dialog opens (its layout,
its first resize, its widgets mounting), each time styling every segment of the screen beneath
anew. `Dialog` keeps the tinted lines and draws them again only when the screen beneath changes
(Textual then refreshes the dialog over the changed regions) or the size or tint does; and it
styles each distinct style of the screen beneath once, through Textual's own pipeline, instead
of every segment, so the lines are the ones Textual would draw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, Self, TypeVar, cast

from cachetools import LRUCache
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from textual import events
from textual.app import App
from textual.binding import Binding
from textual.color import Color
from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Region
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RichVisual, Visual
from textual.widget import Widget
from textual.widgets import Input

from keymaps import Keymap
from screens.widgets.dialog_lines import DialogLines

ResultType = TypeVar("ResultType")

#: BackgroundScreen with no tint: the screen's segments with their links and meta cleared
UNTINTED = Color(0, 0, 0, 0)


#: (dialog class, tint, dialog style, link style, segment style, control) -> the segment drawn;
#: the screens beneath draw with a few dozen styles, the same from one dialog to the next
STYLED: LRUCache[tuple[object, ...], Segment | None] = LRUCache(4096)
MISSING = Segment("")


class OneSegment:
    """One segment tinted as `BackgroundScreen` tints the screen beneath (a probe)."""

    def __init__(self, segment: Segment, tint: Color) -> None:
        self.segment = segment
        self.tint = tint

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from BackgroundScreen.process_segments([self.segment], self.tint)


class AsDrawn(BackgroundScreen):
    """The screen beneath as its widgets drew it, every segment as it is: `Backdrop` tints
    each distinct style once (its probe clears links and meta as Textual's pass does), where
    Textual's pass makes a new style for every segment."""

    @classmethod
    def process_segments(cls, segments: Iterable[Segment], color: Color) -> Iterable[Segment]:
        return segments


class Backdrop(Visual):
    """The screen beneath a dialog, tinted; its lines kept for one size."""

    def __init__(self, dialog: Widget, beneath: Screen[Any], tint: Color) -> None:
        self.dialog = dialog
        self.beneath = beneath
        self.tint = tint
        self.lines: tuple[int, int | None, list[Strip]] | None = None

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        lines = self.lines
        if lines is None or lines[:2] != (width, height):
            app = self.dialog.app
            console_options = app.console_options.update(
                highlight=False, width=width, height=height
            ).update_width(width)
            plain = app.console.render(AsDrawn(self.beneath, UNTINTED), console_options)
            drawn = list(islice(self._lines(self._restyled(plain, style, options)), height))
            lines = self.lines = (
                width,
                height,
                [each if each.cell_length <= width else each.crop(0, width) for each in drawn],
            )
        return lines[2]

    @staticmethod
    def _lines(segments: Iterable[Segment]) -> Iterator[Strip]:
        """The screen's lines: it draws each whole, then a line end (a segment of its own)."""
        line: list[Segment] = []
        for segment in segments:
            if segment.text == "\n" and not segment.control:
                yield Strip(line)
                line = []
            else:
                line.append(segment)
        if line:
            yield Strip(line)

    def _restyled(
        self, plain: Iterable[Segment], style: Style, options: RenderOptions
    ) -> Iterator[Segment]:
        # what decides the drawn style besides the segment's own: the tint, the dialog's style
        # and link style (Textual's post-render applies them)
        drawn = (type(self.dialog), self.tint, style, self.dialog.link_style)
        styled: dict[tuple[object, bool], Segment | None] = {}
        for segment in plain:
            text, segment_style, control = segment
            if text == "\n" and not control:  # a line's end (`_lines`)
                yield segment
                continue
            key = (segment_style, bool(control))
            done = styled.get(key, MISSING)
            if done is MISSING:
                done = STYLED.get((*drawn, *key), MISSING)
                if done is MISSING:
                    probe = Segment(" ", segment_style, control)
                    done = STYLED[(*drawn, *key)] = self._probe(probe, style, options)
                styled[key] = done
            if done is not None:
                yield Segment(text, done.style, control if done.control else None)

    def _probe(self, segment: Segment, style: Style, options: RenderOptions) -> Segment | None:
        """The segment Textual draws for ``segment`` of the screen beneath (tinted, then styled
        as the dialog's content), or None when it draws nothing for it."""
        visual = RichVisual(self.dialog, OneSegment(segment, self.tint))
        for strip in visual.render_strips(1, 1, style, options):
            for drawn in strip:
                return drawn
        return None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # drawn by Rich instead of Textual: the screen beneath tinted, as Textual draws it
        yield from console.render(BackgroundScreen(self.beneath, self.tint), options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.beneath.size.height


def screen_beneath(screen: Screen[Any]) -> Screen[Any] | None:
    """The screen right under ``screen`` in the app's stack (None: it is the lowest, or not in
    the stack)."""
    stack = screen.app.screen_stack
    if screen not in stack:
        return None
    index = stack.index(screen)
    return stack[index - 1] if index > 0 else None


if TYPE_CHECKING:
    from textual.widgets import Label, OptionList

    MixedInto = Screen[Any]
else:
    # not a Textual class: Textual inherits CSS and component classes along the first base
    # that is one, which must stay the modal screen it is mixed into
    MixedInto = object


class TintedOnce(MixedInto):
    """Mixed into a screen over others (before it, as in `Dialog`): its tinted background is
    drawn once per change of the screen beneath, not at every refresh."""

    _backdrop: Backdrop | None = None

    def render(self) -> RenderableType:
        tint = self.styles.background
        beneath = screen_beneath(self)
        if beneath is None or tint.a >= 1:
            self._backdrop = None
            return super().render()
        backdrop = self._backdrop
        if backdrop is None or backdrop.beneath is not beneath or backdrop.tint != tint:
            backdrop = self._backdrop = Backdrop(self, beneath, tint)
        return backdrop

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # back on top (opened, or a dialog over it closed): the screen beneath may have changed
        # while another screen was on top and was refreshed instead of this one
        self._backdrop = None

    def on_resize(self, event: events.Resize) -> None:
        if event.size == self.outer_size:
            # already laid out at this size (its own first layout sends this): Textual's handler
            # would lay out the dialog again, and every screen beneath it
            event.prevent_default()

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if regions and repaint:  # the screen beneath changed there: draw it again
            self._backdrop = None
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self


class Covered(MixedInto):
    """Mixed into a screen that dialogs open over: it skips the repaint of itself that Textual's
    `App.push_screen` asks of the screen it covers (the app sets `covering` while it pushes).
    A dialog draws the screen beneath in full as it opens; that repaint, when it lands after
    the dialog's first frame, made it draw the screen beneath a second time."""

    covering = False

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if self.covering and not (regions or layout or recompose):
            return self
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self


class Dialog(TintedOnce, ModalScreen[ResultType]):
    """A modal screen whose tinted background is drawn once per change of the screen beneath.

    A dialog opened often is kept by the app (`kept`): it then implements `reopen`, which
    takes its constructor's arguments and puts it back in the state a new one opens in.

    Its own status line and keys (`DialogLines`) cover the screen beneath's, which say what the
    keys do there (`c` confirms), not here.
    """

    #: what the dialog's widgets were last styled for (theme, ANSI colours, terminal size)
    _styled_for: tuple[object, ...] | None = None

    def status(self) -> Content:
        """What typing or a key acts on while the dialog is open: its title, after "typing" when
        a text field has the focus."""
        title = next((w.border_title for w in self.walk_children(Widget) if w.border_title), None)
        named = title if title is not None else "this dialog"
        field = isinstance(self.focused, Input)  # the note editor's TextArea: NoteScreen.status
        return Content.assemble("typing → " if field else "keys → ", named)

    def on_mount(self) -> None:
        # after the dialog's own handler (Textual runs the subclass's first): its focus is set
        self.mount(DialogLines(self.status()))
        self.call_after_refresh(self._say_unreached)

    def on_descendant_focus(self) -> None:
        # from a field to a list (grep's `down`): typing no longer goes where it went
        for lines in self.query(DialogLines):
            lines.say(self.status())

    def _say_unreached(self) -> None:
        """Say which of the dialog's own actions no key reaches: a keymap gave them only keys
        the focused field binds itself (`note_save = "ctrl+w"`: the editor deletes a word), and
        Textual runs the field's binding."""
        reached = {a.binding.id for a in self.active_bindings.values() if a.node is self}
        keymap = getattr(self.app, "keymap", None)
        for binding in type(self).BINDINGS:
            if not isinstance(binding, Binding) or not binding.id or binding.id in reached:
                continue
            if not self.check_action(binding.action, ()):
                continue  # not offered now (nothing stale to clear): not for want of a key
            keys = keymap.keys_for(binding.id) if isinstance(keymap, Keymap) else ()
            if not keys:
                continue  # left unbound on purpose
            self.notify(
                f"{binding.description} has no key here: {', '.join(keys)}"
                f" {'is' if len(keys) == 1 else 'are'} the field's own."
                f" Give {binding.id} another key in keymap.toml",
                severity="warning",
                markup=False,
                timeout=8,
            )

    def keep_on_exit(self) -> str | None:
        """The app is quitting with this dialog open: keep what would be lost with it (a note
        being written); returns what to tell the user once the app is gone (None: nothing)."""
        return None

    def reopen(self, *args: Any, **options: Any) -> None:
        """Be as a new dialog made with these arguments would be (for `kept`)."""
        raise NotImplementedError(f"{type(self).__name__} is not kept: it cannot reopen")

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual's own handler (the Screen class's, run after this one) restyles every widget
        # of a screen that comes back on top. A kept dialog reopened as it was styled last
        # would get the same styles, but every scrollbar in it would be refreshed anyway
        # (Textual refreshes a widget's scrollbars whenever their colours are set): a second
        # frame, one tick after the first.
        app = self.app
        styled_for = (app.theme, app.ansi_color, app.size)
        if styled_for == self._styled_for:
            event.refresh_styles = False
        self._styled_for = styled_for
        for lines in self.query(DialogLines):  # kept and opened again: on what, now
            lines.say(self.status())


Kept = TypeVar("Kept", bound=Dialog[Any])
Arguments = ParamSpec("Arguments")


def dialog_css(module: str, name: str | None = None) -> str:
    """A dialog's stylesheet (``name`` beside ``module``, else the module's own ``.tcss``), as
    its DEFAULT_CSS. Textual adds a widget's default CSS when it is first mounted; a screen's
    CSS_PATH instead makes its first push parse every stylesheet of the app again and restyle
    every widget of every screen (`App._load_screen_css`), some 20 ms of a dialog's opening."""
    path = Path(module)
    return (path.with_name(name) if name else path.with_suffix(".tcss")).read_text("utf-8")


def kept(
    app: App[Any],
    dialog: Callable[Arguments, Kept],
    *args: Arguments.args,
    **options: Arguments.kwargs,
) -> Kept:
    """The app's one instance of the dialog class ``dialog``, made with these arguments, or
    reopened with them (`Dialog.reopen`): composing and styling a dialog anew at each opening
    cost more than everything else its opening draws. Installed in the app (`install_screen`),
    it is kept when it closes. Push the dialog returned."""
    name = f"kept-dialog-{dialog.__module__}.{dialog.__qualname__}"
    if app.is_screen_installed(name):
        screen = app.get_screen(name)
        if screen in app.screen_stack:
            return dialog(*args, **options)  # open already (under another dialog): a new one
        if type(screen) is dialog and screen.is_mounted:
            reopened = cast("Kept", screen)
            reopened.reopen(*args, **options)
            return reopened
        app.uninstall_screen(name)  # made but never opened: made again
    made = dialog(*args, **options)
    app.install_screen(made, name)
    return made


def back_to_top(field: Input, results: OptionList, query: str, listed: bool) -> None:
    """A kept dialog reopened on the list it shows already: its query as given, its list from
    the top (``listed``: it has options to highlight), the field focused; nothing searched."""
    field.value = query
    results.highlighted = 0 if listed else None
    results.scroll_home(animate=False, immediate=True)
    field.focus()


def relabel(label: Label, text: Content) -> None:
    """Show ``text`` in ``label``, a line of a dialog (a status, a hint), laid out again only
    when its size may change: a label the width of its box keeps its one line for any text
    that fits there. Laying the dialog out again was most of a kept dialog's reopening."""
    old = label.content
    if old == text:
        return
    width = label.content_region.width
    before = old if isinstance(old, Content) else Content(str(old))
    fits = all("\n" not in t.plain and t.cell_length <= width for t in (before, text))
    label.update(text, layout=not fits)
