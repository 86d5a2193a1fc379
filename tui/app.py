"""The Textual app: a paper list beside (or above) a detail pane, and the triage keys.

Owns the wiring (the widgets, the state the actions share, start and exit), the keys' `BINDINGS`
(tui.keys collects them from here for the help, the palette and `triage keys`), `check_action` and
the palette. The actions live in mixins, each owning one capability: tui.marking (the triage keys and
durable marks), tui.filtering (the query), tui.viewing (rows, views, sorts, session), tui.interest
(For you, more like this), tui.layout (the panes), tui.selection, tui.copying, tui.saved_searches,
tui.watching (a list changed on disk), tui.feeding (fetching from the app), tui.rules (standing rules).
Over ~400 lines for a reason: a quarter of it is the key table and `BINDINGS`, which Textual, the help and
tui.keys read off this class.
"""
from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from functools import partial
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter
from textual.containers import Horizontal
from textual.screen import Screen
from textual.reactive import reactive
from textual.theme import Theme
from textual.timer import Timer
from textual.widgets import Input

from store.papers.model import Collection, Paper, Triage
from store.marks.db import TriageStore
from store.marks.history import History
from store.readers.library import HEADER as LIBRARY
from store.search.highlight import Hits
from store.search.views import SCORE_SORT, SORTS, VIEWS, Tally
from tui import keymap, textual_private
from tui.textual_private import keymap_of
from tui.contrast import MinimumContrast
from tui.copying import CopyActions
from tui.feeding import Feeding
from tui.filtering import FilterActions
from tui.keys import COPY, MOVE, READ, SEARCH, TRIAGE, VIEWS as VIEW_KEYS, declared_bindings, key_display, keys_of
from tui.layout import PaneActions, Split
from tui.loading import Loading
from tui.marking import MarkingActions
from tui.rereading import Rereading
from tui.selection import SelectionActions
from tui.for_you import Interest, outside
from tui.interest import InterestActions, Similar
from tui.rules import RULE_SCREENS, RuleActions
from tui.saved_searches import SAVED_ACTIONS, SavedSearchActions
from tui.saving import Saver
from tui.screens.dialogs import Confirm, NoteEditor, TagEditor
from tui.screens.help import HelpScreen
from tui.typeahead import TypeAhead
from tui.viewing import ViewActions
from tui.watching import Watching
from tui.widgets.detail import DetailPane
from tui.widgets.filter_bar import FilterBar
from tui.widgets.first_hint import HIDDEN, KEYS as HINT_KEYS, FirstHint
from tui.widgets.footer import KeysFooter
from tui.widgets.paper_list import PaperList, columns_for
from tui.syncing import AppSync
from tui.widgets.status import StatusLine
from tui.widgets.view_tabs import ViewTabs

if TYPE_CHECKING:  # (the ranking's numpy is imported when For you is first asked for: not before the first frame)
    from store.interest.ranking import Ranking

textual_private.inert_strips()  # every cell the app draws passes the inert boundary to the terminal

def bundled(sources: Sequence[str]) -> bool:
    """Whether the list is the bundled sample (`triage` with no file)."""
    from seeds import DEFAULT

    return list(sources) == [str(DEFAULT)]


POLL_SECONDS = 0.5
"""How often marks made by another process on the same database are picked up."""
TRIAGE_ACTIONS = {
    "read_next", "toggle_read", "toggle_star", "dismiss", "priority", "next_unread", "previous_unread",
    "undo", "redo", "edit", "read_all", "toggle_selected", "visual_mode", "select_all", "clear_selection",
}
COPY_ACTIONS = {"copy_citation", "pick_citation", "copy_shown", "open_link", "open_pdf", "export_shown"}


class TriageApp(Loading, Watching, Feeding, MarkingActions, FilterActions, ViewActions, InterestActions, PaneActions,
                SelectionActions, CopyActions, SavedSearchActions, RuleActions, Rereading, App[None]):
    """Triage a list of abstracts from the keyboard.

    | Key | Action |
    | :- | :- |
    | `enter` / `l` | Read the abstract (focus the detail pane) |
    | `h` / `esc` | Back to the list |
    | `ctrl+d` / `ctrl+u` | Detail half a page down / up |
    | `pagedown` / `pageup` | Detail a page down / up |
    | `?` | Help |
    | `q` | Quit |
    | `space` | Mark read, go to the next unread |
    | `r` | Toggle read |
    | `s` | Toggle star |
    | `d` | Not for me, then the next unread (on a paper not for me: take that off) |
    | `1`–`5` / `0` | Priority (1 highest … 5 lowest) / clear it |
    | `n` / `N` | Next / previous unread |
    | `u` / `ctrl+r` | Undo / redo |
    | `e` | Edit the note |
    | `t` | Edit the tags |
    | `R` | Mark all papers shown as read (asks first); after "list changed on disk": reload it (tui.watching) |
    | `F` | Fetch the newest papers of the open feed (a list `triage fetch` saved), marked `+` (tui.feeding) |
    | `;` | Select the paper (or unselect it), then the next one |
    | `V` | Visual mode: the rows the cursor moves over join the selection; `V` again stops |
    | `ctrl+a` | Select all papers shown |
    | `esc` | Clear the selection |
    | `c` | Copy the paper's citation in the default format (BibTeX first) |
    | `C` | Copy as… (BibTeX, plain, Markdown, abstract, id): the choice becomes the default, remembered |
    | `Y` | Copy the citations of all papers shown |
    | `o` | Open the paper's own link (else the first in its abstract) in the browser |
    | `O` | Open the paper's PDF in the browser |
    | `x` | Export the papers shown with their marks (asks for a file) |
    | `/` | Filter: type a query; `enter` back to the list, `esc` clears it |
    | `esc` | On the list: clear the filter (after leaving more like this, clearing the selection) |
    | `M` | Save the query under a name and a letter |
    | `'` | Saved searches, with counts: a letter runs one |
    | `K` | Standing rules: answer the rule proposed, else list, preview, edit, remove them (tui.rules) |
    | `<` / `>` | The list narrower / wider (the detail pane wider / narrower) |
    | `z` | The list alone, full width (`z` again: the detail pane back) |
    | `esc` | On the list, nothing else to leave or clear: hide the first-run hint for good |

    While papers are selected, `r` `s` `d` `1`–`5` `0` `t` `c` `Y` `x` act on them (tui.selection).
    A mark shows at once; the durable write follows on a writer thread, in order. Until it is durable the
    row shows `…` in its first column and the header "saving…".
    """

    CSS_PATH = "app.tcss"
    TITLE = "paper-triage"
    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (110, "-wide")]
    """Side by side from 110 columns, the list above the detail below that."""

    BINDINGS = [
        Binding("enter,l", "focus_detail", "Read", group=READ, tooltip="Read the abstract: focus the detail pane", id="focus_detail"),
        Binding("h,escape", "focus_papers", "List", group=READ, tooltip="Back to the list", key_display="h/esc", id="focus_papers"),
        Binding("ctrl+d", "scroll_detail(0.5)", "Detail ½ page down", group=READ, show=False, id="detail_half_page_down"),
        Binding("ctrl+u", "scroll_detail(-0.5)", "Detail ½ page up", group=READ, show=False, id="detail_half_page_up"),
        Binding("pagedown", "scroll_detail(1)", "Detail page down", group=READ, show=False, id="detail_page_down"),
        Binding("pageup", "scroll_detail(-1)", "Detail page up", group=READ, show=False, id="detail_page_up"),
        Binding("question_mark", "help", "Help", key_display="?", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        Binding("space", "read_next", "Read+next", group=TRIAGE, tooltip="Mark read, go to the next unread", id="read_next"),
        Binding("r", "toggle_read", "Read/unread", group=TRIAGE, tooltip="Toggle read", id="toggle_read"),
        Binding("s", "toggle_star", "Star", group=TRIAGE, tooltip="Toggle star", id="toggle_star"),
        Binding("d", "dismiss", "Not for me", show=False, group=TRIAGE, tooltip="Not for me (toggle), then the next unread", id="dismiss"),
        *(
            Binding(str(n), f"priority({n})", f"Priority {n}", show=False, group=TRIAGE, tooltip=f"Priority {n} ({label})", id=f"priority_{n}")
            for n, label in zip(range(1, 6), ("highest", "high", "medium", "low", "lowest"))
        ),
        Binding("0", "priority(0)", "No priority", show=False, group=TRIAGE, tooltip="Clear the priority", id="priority_0"),
        Binding("n", "next_unread", "Next unread", group=TRIAGE, tooltip="Go to the next unread paper", id="next_unread"),
        Binding("N", "previous_unread", "Previous unread", show=False, group=TRIAGE, tooltip="Go to the previous unread paper", id="previous_unread"),
        Binding("u", "undo", "Undo", group=TRIAGE, tooltip="Undo the last triage action", id="undo"),
        Binding("ctrl+r", "redo", "Redo", show=False, group=TRIAGE, tooltip="Redo what was undone", id="redo"),
        Binding("e", "edit('note')", "Note", group=TRIAGE, tooltip="Edit the note (ctrl+s saves, esc cancels)", id="edit_note"),
        Binding("t", "edit('tags')", "Tags", group=TRIAGE, tooltip="Edit the tags", id="edit_tags"),
        # (no description: not in the help, which fits one screen; the palette offers the fetch, the header names
        # the reload's key when it applies)
        Binding("F", "fetch_newest", show=False, tooltip="Fetch the newest papers of the open feed", id="fetch_newest"),
        Binding("R", "reload_list", show=False, tooltip="Reload the list changed on disk (marks, cursor, query kept)",
                id="reload_list"),
        Binding("R", "read_all", "All read", show=False, group=TRIAGE, tooltip="Mark all papers shown as read", id="read_all"),
        Binding("semicolon", "toggle_selected", "Select", key_display=";", show=False, group=TRIAGE, tooltip="Select or unselect the paper, then the next", id="toggle_selected"),
        Binding("V", "visual_mode", "Visual", show=False, group=TRIAGE, tooltip="Visual mode: select the rows moved over", id="visual_mode"),
        Binding("ctrl+a", "select_all", "Select all", show=False, group=TRIAGE, tooltip="Select all papers shown", id="select_all"),
        Binding("c", "copy_citation", "Copy", group=COPY, tooltip="Copy the citation in the default format", id="copy_citation"),
        Binding("C", "pick_citation", "Copy as…", show=False, group=COPY, tooltip="Copy as… (choose the default format)", id="pick_citation"),
        Binding("Y", "copy_shown", "Copy all", show=False, group=COPY, tooltip="Copy the citations of all papers shown", id="copy_shown"),
        Binding("o", "open_link", "Open link", show=False, group=COPY, tooltip="Open the paper's own link in the browser", id="open_link"),
        Binding("O", "open_pdf", "Open PDF", show=False, group=COPY, tooltip="Open the paper's PDF in the browser", id="open_pdf"),
        Binding("x", "export_shown", "Export", show=False, group=COPY, tooltip="Export the papers shown to a file", id="export_shown"),
        # priority: the keys typed right after / must already find the filter focused (see check_action)
        # priority: the keys typed right after enter must already find the list focused (see check_action)
        Binding("enter", "leave_filter", show=False, priority=True, tooltip="Back to the list from the filter", id="leave_filter"),
        Binding("slash", "focus_filter", "Filter", key_display="/", group=SEARCH, priority=True,
                tooltip="Filter the list: words (typos ok), \"phrase\", a OR b, NOT a, is:unread, p<=2…", id="focus_filter"),
        Binding("M", "save_search", "Save search", show=False, group=SEARCH, tooltip="Save the query under a name and a letter",
                id="save_search"),
        Binding("apostrophe", "pick_saved", "Saved searches", show=False, group=SEARCH, key_display="'",
                tooltip="Saved searches, with counts: a letter runs one", id="pick_saved"),
        Binding("K", "rules", "Rules", show=False, id="rules", tooltip="Standing rules: the one proposed, or all of them"),
        Binding("v", "cycle_view", "View", group=VIEW_KEYS, tooltip="Next view: All, Unread, Starred, Prioritised", id="cycle_view"),
        Binding("S", "cycle_sort", "Sort", group=VIEW_KEYS, tooltip="Next sort: file order, priority, starred, recent, new, for you, title, year… (each: palette, Sort by)", id="cycle_sort"),
        Binding("m", "more_like_this", "More like this", group=VIEW_KEYS, tooltip="More like this: the papers most similar to this one (esc back)", id="more_like_this"),
        Binding("less_than_sign", "split(-1)", "Narrower list", key_display="<", group=VIEW_KEYS, tooltip="The list narrower, the detail pane wider", id="list_narrower"),
        Binding("greater_than_sign", "split(1)", "Wider list", key_display=">", group=VIEW_KEYS, tooltip="The list wider, the detail pane narrower", id="list_wider"),
        Binding("z", "list_alone", "List alone", group=VIEW_KEYS, tooltip="The list alone, full width, or the detail pane back", id="list_alone"),
        Binding("escape", "leave_similar", show=False, tooltip="Back from more like this to the list", id="leave_similar"),
        Binding("escape", "clear_selection", "Clear selection", key_display="esc", show=False, group=TRIAGE, tooltip="Clear the selection", id="clear_selection"),
        Binding("escape", "clear_query", "Clear filter", key_display="esc", group=SEARCH, tooltip="Clear the filter (from the list)", id="clear_query"),
        Binding("escape", "hide_hint", show=False, tooltip="Hide the first-run hint for good", id="hide_hint"),
    ]

    view: reactive[str] = reactive("all", init=False)
    """The view shown: a key of `store.search.views.VIEWS`."""
    sort: reactive[str] = reactive("file", init=False)
    """The order of the list: a key of `store.search.views.SORTS`."""

    def __init__(self, collection: Collection, db_path: str | None = None, sync_folder: str | None = None,
                 files: Sequence[str] | None = None, hint: bool = False) -> None:
        """`files`: the lists `collection` is only the head of, read whole behind it (see tui.loading);
        `hint`: the first-run hint, unless the user hid it once (tui.widgets.first_hint)."""
        super().__init__()
        self.collection = collection
        self.init_loading(files)
        self.init_watching()
        self.db_path = db_path
        self.store = TriageStore(db_path)
        self.states: dict[str, Triage] = self.initial_states()
        """Marks by paper id, as shown (absent: no marks); the store follows on the writer thread."""
        self.history = History()
        self.cite_format: str = self.store.setting("cite").get("format", "bibtex")
        """The format `c` and `Y` copy in (one of `store.cite.citations.FORMATS`); `C` changes it, the store keeps it."""
        self.farewell: list[str] = []
        """Lines for stderr once the app has quit: changes it could not save, the store's late notices."""
        self.unsaved_marks = 0
        """How many papers' mark changes were still not saved when the app quit."""
        self.quit_at: float | None = None
        """When the quit was asked for (`time.monotonic()`): `run_app` ends the process within a second of it."""
        self._ui: tuple[asyncio.AbstractEventLoop, contextvars.Context] | None = None
        self._saver = Saver(self.store, lambda: self.papers_by_id, self._from_writer, self._show,
                            partial(self.notify, severity="error", timeout=20, markup=False),
                            lambda message, severity: self.notify(message, title="Triage database", severity=severity,
                                                                  timeout=30, markup=False))
        """The writer thread, the marks shown before they are durable, and the writes waiting for the lock."""
        self._sync = AppSync(sync_folder, self.store, self._saver, self._from_writer,
                             lambda text: self.query_one(StatusLine).show_sync(text),
                             lambda message, severity: self.notify(message, severity=severity, timeout=20, markup=False),
                             ) if sync_folder else None
        """The sync with other devices through a folder (--sync, $TRIAGE_SYNC), or None."""
        self._hits: Hits | None = None
        """The search results (None when the list is not filtered)."""
        self._hit_papers: Sequence[Paper] = []
        """`self._hits.papers`, best first."""
        self._glanced: tuple[Hits, Tally] | None = None
        """A long list's query's first hits shown before the rest are read (tui.filtering), with the counts of all."""
        self._search_serial = 0
        self._searched = ""
        """The text of the newest query sent to the search."""
        self._shown_serial = 0
        """The query whose results the list shows (`_search_serial` once the newest query's have landed)."""
        self._type_ahead = TypeAhead(self, super().on_event, lambda: self.query_one(FilterBar).input, self._results_pending,
                                     lambda: self._index is None)
        self._tallies: dict[str, Tally] = {}
        """Counts per view over: "all" papers (the progress bar), "matched" by the query (the tabs), "shown" rows."""
        self._session_key = "session " + "\n".join(collection.sources)
        self._session_timer: Timer | None = None
        self._session: dict[str, Any] = {}
        self._restore_cursor: str | None = None
        """The paper to put the cursor on when the restored query's results arrive."""
        self._legible = MinimumContrast()
        # (the ranking waits for search ready and the open noted: beside the read, it delayed a reopened 1,000,000-paper
        # list's search ready from ~5.2 s to ~6.8 s)
        self._interest = Interest(collection, lambda: outside(self.store, collection.papers), self.wait_for_new)
        self._ranking: Ranking | None = None
        """The newest For-you ranking of the marks (None: fewer than three positives, or none yet)."""
        self._similar: Similar | None = None
        """The "more like this" list shown instead of the query's matches, while there is one."""
        self._split = Split()
        """How the screen is shared between the list and the detail pane (`<` `>` `z`), kept with the session."""
        self._hint = hint and not self.store.setting(HIDDEN).get("hidden")
        """Whether the first-run hint is shown."""

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield ViewTabs(id="views")
        yield FilterBar(id="filter")
        self._split = Split.restored(self.store.setting(self._session_key))
        with Horizontal(id="panes", classes=self._split.classes()):
            yield PaperList(self._cursor_moved, id="papers")
            yield DetailPane(id="detail")
        if self._hint:
            yield FirstHint(id="first-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._ui = asyncio.get_running_loop(), contextvars.copy_context()  # (`_from_writer`'s loop and context)
        c = self.collection
        names = [Path(source).name for source in c.sources]
        self.sub_title = ", ".join(names)
        where = " ".join(str(part) for part in (c.venue, c.year) if part) or c.header
        sample = f"A {len(c.papers)}-paper sample of {where}" if bundled(c.sources) else ""
        if sample:  # (its file's name says less; the counts say how many)
            names, where = [], f"{where} sample"
        elif c.header == LIBRARY:  # (the records file's name says nothing a reader needs)
            names = []
        self.query_one(StatusLine).show_source(names, where)
        theme = self.store.setting("theme").get("name")
        if theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        keymap.apply(self)  # the user's keys file, if any
        session = self.store.setting(self._session_key)
        self.set_reactive(TriageApp.view, session.get("view") if session.get("view") in VIEWS else "all")
        self.set_reactive(TriageApp.sort, session.get("sort") if session.get("sort") in SORTS else "file")
        self.query_one(DetailPane).keys = keys_of(self, {"open_link", "open_pdf"})
        if self._hint:
            hint_keys = keys_of(self, {binding for binding, _ in HINT_KEYS})
            self.query_one(FirstHint).show_keys(hint_keys, "esc", sample)
        self._tallies["all"] = Tally(c.papers, self.states)
        paper_list = self.query_one(PaperList)
        paper_list.states = self.states
        paper_list.unsaved = self._saver.unsaved
        paper_list.updated = self.store.updated
        paper_list.columns = columns_for(c.papers)
        self.refresh_rows(keep=session.get("cursor"))
        self.keep_after_load(session.get("cursor"))
        # Now, not with `focus()`: that waits behind the keys already typed, which would go to the filter
        # (the first widget that takes the focus, which the screen gave it when it was shown).
        self.screen.set_focus(paper_list)
        if session.get("query"):
            self._restore_cursor = session.get("cursor")
            self.query_one(FilterBar).value = session["query"]
        self.tell_skipped()
        for notice in self.store.notices:
            self.notify(notice, title="Triage database", severity="warning", timeout=20, markup=False)
        self.load_saved_searches()
        self.start_rules()
        self.set_interval(POLL_SECONDS, self._saver.poll)
        self.start_watching()
        if self._sync:
            self._sync.start()
        # After the first paint, which neither must slow: the work behind the list, and the For-you ranking (its start
        # imports numpy and reads the other lists' marks).
        self.call_after_refresh(self.start_loading)
        self.call_after_refresh(lambda: self._rank(dict(self.states)))

    # --- type-ahead (see tui.typeahead) ------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes from the terminal are applied in the order typed, each to what it was typed for."""
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            await self._type_ahead.typed(event)
        else:
            await super().on_event(event)

    async def action_quit(self) -> None:
        """Quit: the work behind the list stops first where it can (`quitting`), so that it leaves the cores to the ending."""
        self.quit_at = time.monotonic()
        self.quitting()
        self.exit()

    def on_unmount(self) -> None:
        """Save what is left, waiting for another process's hold on the database a bounded time (each
        job's wait, then one last try); what still cannot be saved is told in `farewell`."""
        self.stop_loading()
        self._save_session()
        self.farewell, self.unsaved_marks = self._saver.close(self._sync.at_close if self._sync else None)
        if given_up := self._type_ahead.given_up:
            self.farewell.append(f"triage: q quit before the query's results were shown: {given_up} key"
                                 f"{'s' if given_up != 1 else ''} typed for them not applied")

    def _cursor_moved(self, paper_list: PaperList) -> None:
        self.show_paper(paper_list.current)
        self._session_changed()
        self.follow_visual(paper_list)

    def _theme_changed(self, theme: Theme) -> None:
        self._saver.run(self.store.put_setting, "theme", {"name": theme.name})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in TRIAGE_ACTIONS and isinstance(self.screen, (NoteEditor, TagEditor, Confirm, *RULE_SCREENS)):
            return False
        if action in COPY_ACTIONS | SAVED_ACTIONS | {"rules"} and self.screen is not self.default_screen:
            return False
        if action == "focus_filter":  # a / typed in an input (the query itself, a note) stays a /
            return self.screen is self.default_screen and not isinstance(self.focused, Input)
        if action == "leave_filter":
            return self.screen is self.default_screen and self.focused is self.query_one(FilterBar).input
        if action == "focus_detail":
            return self.default_screen.focused is self.query_one(PaperList)
        if action == "focus_papers":
            return self.default_screen.focused is self.query_one(DetailPane)
        if action == "leave_similar":
            return self._similar is not None and self.default_screen.focused is self.query_one(PaperList)
        if action == "clear_selection":
            return bool(self.selection) and self.default_screen.focused is self.query_one(PaperList)
        if action == "clear_query":
            return self.esc_clears_filter() and self.default_screen.focused is self.query_one(PaperList)
        if action == "reload_list":  # (before "mark all read" on its key, while there is a change to load)
            return self.changed_on_disk and self.screen is self.default_screen
        if action == "hide_hint":  # (after the escape bindings above it, which come first when they apply)
            return self._hint and self.default_screen.focused is self.query_one(PaperList)
        return True

    def action_hide_hint(self) -> None:
        """Hide the first-run hint for good (the database remembers)."""
        self._hint = False
        self.query_one(FirstHint).remove()
        self._saver.run(self.store.put_setting, HIDDEN, {"hidden": True})

    def on_first_hint_hidden(self) -> None:
        self.action_hide_hint()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def get_line_filters(self) -> list[LineFilter]:
        """Textual's filters, then every letter moved to AA contrast on its background (tui.contrast)."""
        return [*super().get_line_filters(), self._legible]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette offers every action the keys do (but moving and scrolling), copying in each citation
        format, each view and sort, then
        Textual's own (theme, quit…). Whether one applies is decided when it runs, on the main screen
        (`run_action` asks `check_action`), not while the palette is on top."""
        textual_commands = list(super().get_system_commands(screen))
        taken = {command.title for command in textual_commands}
        for node, binding in declared_bindings(self):
            if binding.group not in (MOVE, READ) and binding.description not in taken:
                title = binding.tooltip or binding.description
                yield SystemCommand(title, f"key: {key_display(self, binding)}", partial(self.run_action, binding.action, node))
        from store.cite.citations import FORMATS  # (here: bibtexparser is not imported before the first frame)

        for fmt, name in FORMATS.items():
            yield SystemCommand(f"Copy as {name}", "copy the paper under the cursor (C picks the default)", partial(self.action_copy_as, fmt))
        for view, label in VIEWS.items():
            yield SystemCommand(f"View: {label}", "show these papers (v cycles the views)", partial(self.action_view, view))
        querying = self.matched()[1]
        for sort, name in SORTS.items():
            if sort != SCORE_SORT or querying:
                yield SystemCommand(f"Sort by {name}", "order the list (S cycles the sorts)", partial(self.action_sort, sort))
        yield SystemCommand("Fetch the newest papers of the open feed", f"key: {keymap_of(self).get('fetch_newest', 'F')}",
                            self.action_fetch_newest)
        yield from self.saved_commands()
        yield from self.rule_commands()
        yield from textual_commands

