"""The Textual app: a paper list beside (or above) a detail pane, and the triage keys."""
from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from dataclasses import replace
from functools import cached_property, partial
from typing import Any

from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.reactive import reactive
from textual.theme import Theme
from textual.timer import Timer
from textual.widgets import Footer, Input
from textual.worker import get_current_worker

from store import Collection, Paper, SearchIndex, Triage, cite, describe_skipped, search_index
from store.changes import Change
from store.db import TriageStore
from store.history import History
from store.ranking import MIN_POSITIVES, Ranking
from store.highlight import Hit, Hits
from store.text import title_display
from store.views import INTEREST_SORT, LEARNT_SORTS, SCORE_SORT, SORTS, VIEWS, Tally, arrange, next_sort, rerank, to_read
from tui import boundary, keymap
from tui.copying import CopyActions
from tui.keys import COPY, MOVE, READ, SEARCH, TRIAGE, VIEWS as VIEW_KEYS, declared_bindings, key_display, keys_of
from tui.layout import Split
from tui.selection import SelectionActions
from tui.interest import Interest, Similar, explain, shortly
from tui.saved_searches import SAVED_ACTIONS, SavedSearchActions
from tui.saving import Saver
from tui.screens.dialogs import Confirm, NoteEditor, TagEditor
from tui.screens.help import HelpScreen
from tui.typeahead import TypeAhead
from tui.widgets.detail import DetailPane
from tui.widgets.filter_bar import FilterBar
from tui.widgets.paper_list import PaperList, columns_for
from tui.syncing import AppSync
from tui.widgets.status import StatusLine
from tui.widgets.view_tabs import ViewTabs

boundary.install()  # every cell the app draws passes the inert boundary to the terminal

NO_MARKS = Triage()
POLL_SECONDS = 0.5
"""How often marks made by another process on the same database are picked up."""
SESSION_SECONDS = 1.0
"""The session (paper under the cursor, query, view, sort) is saved this long after it last changed, and at exit."""
TRIAGE_ACTIONS = {
    "read_next", "toggle_read", "toggle_star", "dismiss", "priority", "next_unread", "previous_unread",
    "undo", "redo", "edit", "read_all", "toggle_selected", "visual_mode", "select_all", "clear_selection",
}
COPY_ACTIONS = {"copy_citation", "pick_citation", "copy_shown", "open_link", "open_pdf", "export_shown"}
EDITORS = {"note": NoteEditor, "tags": TagEditor}


class TriageApp(SelectionActions, CopyActions, SavedSearchActions, App[None]):
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
    | `R` | Mark all papers shown as read (asks first) |
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
    | `M` | Save the query under a name and a letter |
    | `'` | Saved searches, with counts: a letter runs one |
    | `<` / `>` | The list narrower / wider (the detail pane wider / narrower) |
    | `z` | The list alone, full width (`z` again: the detail pane back) |

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
                tooltip="Filter the list: words (typos ok), \"phrase\", !not, a | b, is:unread, p<=2…", id="focus_filter"),
        Binding("M", "save_search", "Save search", show=False, group=SEARCH, tooltip="Save the query under a name and a letter",
                id="save_search"),
        Binding("apostrophe", "pick_saved", "Saved searches", show=False, group=SEARCH, key_display="'",
                tooltip="Saved searches, with counts: a letter runs one", id="pick_saved"),
        Binding("v", "cycle_view", "View", group=VIEW_KEYS, tooltip="Next view: All, Unread, Starred, Prioritised", id="cycle_view"),
        Binding("S", "cycle_sort", "Sort", group=VIEW_KEYS, tooltip="Next sort: file order, priority, starred first, recently changed, for you, suggested, title, first author, year, track, match score", id="cycle_sort"),
        Binding("m", "more_like_this", "More like this", group=VIEW_KEYS, tooltip="More like this: the papers most similar to this one (esc back)", id="more_like_this"),
        Binding("less_than_sign", "split(-1)", "Narrower list", key_display="<", show=False, group=VIEW_KEYS, tooltip="The list narrower, the detail pane wider", id="list_narrower"),
        Binding("greater_than_sign", "split(1)", "Wider list", key_display=">", show=False, group=VIEW_KEYS, tooltip="The list wider, the detail pane narrower", id="list_wider"),
        Binding("z", "list_alone", "List alone", show=False, group=VIEW_KEYS, tooltip="The list alone, full width, or the detail pane back", id="list_alone"),
        Binding("escape", "leave_similar", show=False, tooltip="Back from more like this to the list", id="leave_similar"),
        Binding("escape", "clear_selection", "Clear selection", key_display="esc", show=False, group=TRIAGE, tooltip="Clear the selection", id="clear_selection"),
    ]

    view: reactive[str] = reactive("all", init=False)
    """The view shown: a key of `store.views.VIEWS`."""
    sort: reactive[str] = reactive("file", init=False)
    """The order of the list: a key of `store.views.SORTS`."""

    def __init__(self, collection: Collection, db_path: str | None = None, sync_folder: str | None = None) -> None:
        super().__init__()
        self.collection = collection
        self.db_path = db_path
        self.store = TriageStore(db_path)
        self.states: dict[str, Triage] = self.store.attach(collection.papers)
        """Marks by paper id, as shown (absent: no marks); the store follows on the writer thread."""
        self.history = History()
        self.cite_format: str = self.store.setting("cite").get("format", "bibtex")
        """The format `c` and `Y` copy in (one of `store.cite.FORMATS`); `C` changes it, the store keeps it."""
        self._ids = frozenset(paper.id for paper in collection.papers)
        self.farewell: list[str] = []
        """Lines for stderr once the app has quit: changes it could not save, the store's late notices."""
        self.unsaved_marks = 0
        """How many papers' mark changes were still not saved when the app quit."""
        self._ui_loop: asyncio.AbstractEventLoop | None = None
        self._saver = Saver(self.store, self._ids, self._from_writer, self._show,
                            partial(self.notify, severity="error", timeout=20, markup=False),
                            lambda message, severity: self.notify(message, title="Triage database", severity=severity,
                                                                  timeout=30, markup=False))
        """The writer thread, the marks shown before they are durable, and the writes waiting for the lock."""
        self._sync = AppSync(sync_folder, self.store, self._saver, self._from_writer,
                             lambda text: self.query_one(StatusLine).show_sync(text),
                             lambda message, severity: self.notify(message, severity=severity, timeout=20, markup=False),
                             ) if sync_folder else None
        """The sync with other devices through a folder (--sync, $TRIAGE_SYNC), or None."""
        self._index: SearchIndex | None = None
        self._index_lock = threading.Lock()
        self._hits: Hits | None = None
        """The search results (None when the list is not filtered)."""
        self._hit_papers: list[Paper] = []
        """`self._hits.papers`, best first."""
        self._row_hits: Callable[[int], Hit] | None = None
        """The hit of each row shown (rows are in the view's and sort's order, not always the hits')."""
        self._search_serial = 0
        self._searched = ""
        """The text of the newest query sent to the search."""
        self._shown_serial = 0
        """The query whose results the list shows (`_search_serial` once the newest query's have landed)."""
        self._type_ahead = TypeAhead(self, super().on_event, lambda: self.query_one(FilterBar).input, self._results_pending)
        self._tallies: dict[str, Tally] = {}
        """Counts per view over: "all" papers (the progress bar), "matched" by the query (the tabs), "shown" rows."""
        self._session_key = "session " + "\n".join(collection.sources)
        self._session_timer: Timer | None = None
        self._session: dict[str, Any] = {}
        self._restore_cursor: str | None = None
        """The paper to put the cursor on when the restored query's results arrive."""
        self._interest = Interest(collection.papers, self._search_index)
        self._ranking: Ranking | None = None
        """The newest For-you ranking of the marks (None: fewer than three positives, or none yet)."""
        self._similar: Similar | None = None
        """The "more like this" list shown instead of the query's matches, while there is one."""
        self._split = Split()
        """How the screen is shared between the list and the detail pane (`<` `>` `z`), kept with the session."""

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield ViewTabs(id="views")
        yield FilterBar(id="filter")
        self._split = Split.restored(self.store.setting(self._session_key))
        with Horizontal(id="panes", classes=self._split.classes()):
            yield PaperList(id="papers")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        self._ui_loop = asyncio.get_running_loop()
        self.call_after_refresh(self._assign_citation_keys)  # after the first paint, which it must not slow
        c = self.collection
        names = ", ".join(Path(source).name for source in c.sources)
        self.sub_title = names
        self.query_one(StatusLine).show_source(names, " ".join(str(part) for part in (c.venue, c.year) if part) or c.header)
        theme = self.store.setting("theme").get("name")
        if theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        keymap.apply(self)  # the user's keys file, if any
        session = self.store.setting(self._session_key)
        self.set_reactive(TriageApp.view, session.get("view") if session.get("view") in VIEWS else "all")
        self.set_reactive(TriageApp.sort, session.get("sort") if session.get("sort") in SORTS else "file")
        self.query_one(DetailPane).keys = keys_of(self, {"open_link", "open_pdf"})
        self._tallies["all"] = Tally(c.papers, self.states)
        paper_list = self.query_one(PaperList)
        paper_list.states = self.states
        paper_list.unsaved = self._saver.unsaved
        paper_list.columns = columns_for(c.papers)
        self.refresh_rows(keep=session.get("cursor"))
        # Now, not with `focus()`: that waits behind the keys already typed, which would go to the filter
        # (the first widget that takes the focus, which the screen gave it when it was shown).
        self.screen.set_focus(paper_list)
        if session.get("query"):
            self._restore_cursor = session.get("cursor")
            self.query_one(FilterBar).value = session["query"]
        if c.warnings:
            self.notify(describe_skipped(c.warnings), title="Some records were skipped", severity="warning",
                        timeout=12, markup=False)
        for notice in self.store.notices:
            self.notify(notice, title="Triage database", severity="warning", timeout=20, markup=False)
        self.load_saved_searches()
        self.set_interval(POLL_SECONDS, self._saver.poll)
        if self._sync:
            self._sync.start()
        self.call_after_refresh(self.run_worker, self._index_in_background, thread=True, group="index")
        self._rank(dict(self.states))

    # --- type-ahead (see tui.typeahead) ------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes from the terminal are applied in the order typed, each to what it was typed for."""
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            await self._type_ahead.typed(event)
        else:
            await super().on_event(event)

    def _results_pending(self) -> bool:
        """Whether the list does not show the results of the query as typed so far yet."""
        return self.query_one(FilterBar).input.value != self._searched or self._shown_serial != self._search_serial

    def on_unmount(self) -> None:
        """Save what is left, waiting for another process's hold on the database a bounded time (each
        job's wait, then one last try); what still cannot be saved is told in `farewell`."""
        self._save_session()
        self.farewell, self.unsaved_marks = self._saver.close(self._sync.at_close if self._sync else None)

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        paper, row_hits = message.paper, self._row_hits
        marks = self._marks_shown(paper.id) if paper is not None else None
        self.query_one(DetailPane).show(paper, row_hits(message.paper_list.cursor) if row_hits and paper else None, marks)
        self._session_changed()

    # --- views, sorts, counts, session --------------------------------------------------------------

    def matched(self) -> tuple[Sequence[Paper], bool]:
        """The papers the query matches (all of them without a query; the similar ones in "more like this"),
        and whether they are ranked best first."""
        if self._similar is not None:
            return self._similar.papers, True
        return (self._hit_papers, True) if self._hits is not None else (self.collection.papers, False)

    def _current_id(self) -> str | None:
        current = self.query_one(PaperList).current
        return current.id if current is not None else None

    def refresh_rows(self, keep: str | None = None, rows: list[Paper] | None = None) -> None:
        """Show the matched papers that the view shows, in the sort's order; the cursor goes to paper `keep`
        when it is shown, else to the top. `rows`: the same rows in a new order, the cursor staying put."""
        matched, ranked = self.matched()
        if self.sort == SCORE_SORT and not ranked:
            self.set_reactive(TriageApp.sort, "file")
        sort = SCORE_SORT if self._similar is not None else self.sort  # more like this: most similar first
        papers = rows if rows is not None else arrange(matched, self.states, self.view, sort, ranked, self._learnt())
        hits = self._hits
        if hits is None:
            self._row_hits = None
        elif self.view == "all" and self.sort == SCORE_SORT:
            self._row_hits = hits.__getitem__
        else:
            rank = {paper.id: index for index, paper in enumerate(matched)}
            ranks = [rank[paper.id] for paper in papers]
            self._row_hits = lambda row: hits[ranks[row]]
        row_hits = self._row_hits
        title_spans = (lambda row: (hit := row_hits(row)).spans(title_display(hit.paper.title).plain)) if row_hits else None
        paper_list = self.query_one(PaperList)
        if rows is not None:
            paper_list.reorder(papers, title_spans)
            return
        paper_list.set_papers(papers, keep=keep, title_spans=title_spans)
        # Without a query the matched papers are all of them, and the All view shows all matched: one
        # Tally then serves two or three roles (100,000 papers cost ~30 ms to count afresh).
        self._tallies["matched"] = Tally(matched, self.states) if ranked else self._tallies["all"]
        self._tallies["shown"] = self._tallies["matched"] if self.view == "all" else Tally(papers, self.states)
        self._show_counts()

    def _show_counts(self) -> None:
        tabs = self.query_one(ViewTabs)
        tabs.view, tabs.sort = self.view, self.sort
        if self._similar is not None:
            tabs.note = f"more like {shortly(self._similar.of)} · esc back"
        elif self.sort in LEARNT_SORTS and self._ranking is None:
            tabs.note = f"sorted by {SORTS[self.sort]} · star {MIN_POSITIVES} papers to get suggestions"
        else:
            tabs.note = ""
        tabs.set_counts(self._tallies["matched"].counts)
        shown, every = self._tallies["shown"].counts, self._tallies["all"].counts
        self.query_one(StatusLine).show(
            shown=shown["all"], total=every["all"], unread=shown["unread"], starred=shown["starred"],
            prioritised=shown["prioritised"], read=self._tallies["all"].read,
            selected=len(self.selection), visual=self.selection.anchor is not None,
        )

    def watch_view(self) -> None:
        self.refresh_rows(keep=self._current_id())
        self._session_changed()

    def watch_sort(self) -> None:
        self.refresh_rows(keep=self._current_id())
        self._session_changed()

    def on_view_tabs_selected(self, message: ViewTabs.Selected) -> None:
        self.view = message.view

    def action_cycle_view(self) -> None:
        views = list(VIEWS)
        self.view = views[(views.index(self.view) + 1) % len(views)]

    def action_cycle_sort(self) -> None:
        self.sort = next_sort(self.sort, querying=self.matched()[1])

    def action_view(self, view: str) -> None:
        self.view = view

    def action_sort(self, sort: str) -> None:
        self.sort = sort

    def _session_changed(self) -> None:
        """Note what should come back on the next start with the same source files; save it soon."""
        self._session = {
            "cursor": self._current_id(), "query": self.query_one(FilterBar).value, "view": self.view, "sort": self.sort,
            **self._split.saved(),
        }
        if self._session_timer is not None:
            self._session_timer.stop()
        self._session_timer = self.set_timer(SESSION_SECONDS, self._save_session)

    def _save_session(self) -> None:
        if self._session_timer is not None:
            self._session_timer.stop()
            self._session_timer = None
        if self._session:
            self._saver.run(self.store.put_setting, self._session_key, self._session)

    def _theme_changed(self, theme: Theme) -> None:
        self._saver.run(self.store.put_setting, "theme", {"name": theme.name})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in TRIAGE_ACTIONS and isinstance(self.screen, (NoteEditor, TagEditor, Confirm)):
            return False
        if action in COPY_ACTIONS | SAVED_ACTIONS and self.screen is not self.default_screen:
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
        return True

    def action_focus_detail(self) -> None:
        if not self._split.detail:
            self._set_split(self._split.toggled())
        self.query_one(DetailPane).focus()

    def action_split(self, steps: int) -> None:
        self._set_split(self._split.step(steps))

    def action_list_alone(self) -> None:
        if self._split.detail and self.default_screen.focused is self.query_one(DetailPane):
            self.query_one(PaperList).focus()
        self._set_split(self._split.toggled())

    def _set_split(self, split: Split) -> None:
        self._split = split
        split.apply(self.query_one("#panes"))
        self._session_changed()

    def action_focus_papers(self) -> None:
        self.query_one(PaperList).focus()

    def action_scroll_detail(self, pages: float) -> None:
        """Scroll the detail pane by a fraction of its height; the focus stays where it is."""
        detail = self.query_one(DetailPane)
        detail.scroll_relative(y=round(pages * max(1, detail.scrollable_content_region.height - 1)), animate=False)

    def action_leave_filter(self) -> None:
        """`enter` in the filter: the list takes the focus now, not after the queued keys."""
        self.screen.set_focus(self.query_one(PaperList))

    def action_focus_filter(self) -> None:
        self.action_leave_similar()
        self.query_one(FilterBar).focus_input()

    @work(thread=True, exclusive=True, group="similar")
    def action_more_like_this(self) -> None:
        """Show the papers most like the one under the cursor, best first, as a list to triage; esc goes back."""
        paper = self.query_one(PaperList).current
        if paper is not None:
            similar = [self.papers_by_id[pid] for pid in self._interest.similar(paper.id, Similar.SIZE)]
            self.call_from_thread(self._show_similar, paper, similar)

    def _show_similar(self, paper: Paper, similar: list[Paper]) -> None:
        back = self._similar.back if self._similar is not None else paper.id
        self._similar = Similar(paper, similar, back)
        self.refresh_rows()

    def action_leave_similar(self) -> None:
        """Back from "more like this" to the list it was opened from, on the paper it was opened on."""
        if self._similar is not None:
            back, self._similar = self._similar.back, None
            self.refresh_rows(keep=back)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

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
        for fmt, name in cite.FORMATS.items():
            yield SystemCommand(f"Copy as {name}", "copy the paper under the cursor (C picks the default)", partial(self.action_copy_as, fmt))
        for view, label in VIEWS.items():
            yield SystemCommand(f"View: {label}", "show these papers (v cycles the views)", partial(self.action_view, view))
        querying = self.matched()[1]
        for sort, name in SORTS.items():
            if sort != SCORE_SORT or querying:
                yield SystemCommand(f"Sort by {name}", "order the list (S cycles the sorts)", partial(self.action_sort, sort))
        yield from self.saved_commands()
        yield from textual_commands

    # --- state shown: rows, header counts, detail ------------------------------------------------

    def state_of(self, paper_id: str) -> Triage:
        return self.states.get(paper_id, NO_MARKS)

    def _show(self, states: Mapping[str, Triage]) -> None:
        """Make `states` the marks shown: rows (saved or not), counts and detail change now."""
        paper_list = self.query_one(PaperList)
        changed = {paper_id: state for paper_id, state in states.items() if state != self.state_of(paper_id)}
        for paper_id, state in changed.items():
            for tally in {id(tally): tally for tally in self._tallies.values()}.values():  # each once
                tally.change(paper_id, self.state_of(paper_id), state)
            if state.blank:
                self.states.pop(paper_id, None)
            else:
                self.states[paper_id] = state
        paper_list.refresh_papers(states)
        self._show_counts()
        self.query_one(StatusLine).show_saving(len(self._saver.unsaved))
        current = paper_list.current
        if current is not None and current.id in states:
            self._show_state(current.id)
        if changed:  # a write acknowledged as shown changes no mark
            self._rank(dict(self.states))

    @work(thread=True, exclusive=True, group="interest")
    def _rank(self, states: dict[str, Triage]) -> None:
        """Rank the marks off the UI thread (a key never waits for it); a newer mark's ranking wins."""
        ranking = self._interest.rank(states)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_ranking, ranking)

    def _show_state(self, paper_id: str) -> None:
        """The detail pane's marks of a paper, with why the For-you order puts it where it is."""
        self.query_one(DetailPane).show_state(*self._marks_shown(paper_id))

    def _marks_shown(self, paper_id: str) -> tuple[Triage, str]:
        """A paper's marks and why the For-you order puts it where it is ('' when it follows none)."""
        state = self.state_of(paper_id)
        shown = self.sort in LEARNT_SORTS or self._ranking is not None
        why = explain(self._ranking, self.papers_by_id[paper_id], not state.blank, self.papers_by_id) if shown else ""
        return state, why

    def _show_ranking(self, ranking: Ranking | None) -> None:
        """A new For-you ranking: the rows' buckets and the detail's reasons now. In a learnt sort the
        first ranking orders the whole list (it showed file order while there was none); a later one
        orders only the rows below the cursor, so nothing already passed moves."""
        if not self.is_running:
            return
        first, self._ranking = self._ranking is None, ranking
        paper_list = self.query_one(PaperList)
        paper_list.buckets = (lambda paper_id: ranking.bucket(paper_id).glyph) if ranking is not None else None
        learnt = self._learnt()
        if learnt is not None and self._similar is None:
            if first:
                self.refresh_rows(keep=self._current_id())
            else:
                self.refresh_rows(rows=rerank(paper_list.papers, paper_list.cursor + 1, learnt))
        else:
            paper_list.redraw()
        self._show_counts()
        if paper_list.current is not None:
            self._show_state(paper_list.current.id)

    def _learnt(self) -> Mapping[str, int] | None:
        """The learnt order the sort follows (paper id → place), None when it follows none or none yet."""
        if self._ranking is None or self.sort not in LEARNT_SORTS:
            return None
        return self._ranking.places if self.sort == INTEREST_SORT else self._ranking.suggested_places

    @cached_property
    def papers_by_id(self) -> dict[str, Paper]:
        return {paper.id: paper for paper in self.collection.papers}

    # --- search: the filter bar's query, run off the UI thread, newest wins ---------------------------

    def _search_index(self) -> SearchIndex:
        """The index of the collection, made once (at start, on a worker thread)."""
        with self._index_lock:
            if self._index is None:
                self._index = search_index(self.collection)  # a long list's loads from the cache
            return self._index

    def _index_in_background(self) -> None:
        """The index, then what phrases are looked for in (the first `"` typed need not wait ~1 s at 100k)."""
        self._search_index().literal_ready()

    def on_filter_bar_changed(self, message: FilterBar.Changed) -> None:
        if self._index is None:
            message.filter_bar.show_indexing()
        self._search_serial += 1
        self._searched = message.value
        self._search(message.value, self._search_serial, dict(self.states))

    def on_filter_bar_done(self, message: FilterBar.Done) -> None:
        self.query_one(PaperList).focus()

    @work(thread=True, exclusive=True, group="search")
    def _search(self, text: str, serial: int, states: dict[str, Triage]) -> None:
        """Search on a worker thread (typing never waits); a newer keystroke cancels this one."""
        hits = self._search_index().search(text, states)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_hits, hits, serial)

    def _show_hits(self, hits: Hits, serial: int) -> None:
        """Show the results of query number `serial`, unless a newer query was typed meanwhile."""
        if serial != self._search_serial:
            return
        filtered = hits.query.filters
        if filtered and self._hits is None and self.sort == "file":
            self.set_reactive(TriageApp.sort, SCORE_SORT)  # a new query shows the best matches first
        self._hits = hits if filtered else None
        self._hit_papers = hits.papers if filtered else []
        keep, self._restore_cursor = self._restore_cursor, None
        self.refresh_rows(keep=keep or (None if filtered else self._current_id()))
        self.query_one(FilterBar).show_result(len(hits), len(self.collection.papers), hits.query.hint)
        self._session_changed()
        self._shown_serial = serial
        self._type_ahead.resume()  # the keys typed after the query apply to its results, now shown

    # --- durable writes, on the writer thread ------------------------------------------------------

    def change(self, states: Mapping[str, Triage], seen: Mapping[str, Triage] | None = None) -> None:
        """A triage action: the fields it changes from the states the user `seen` (those shown now by default)
        are shown at once, remembered for undo and stored durably, made to the state stored by then."""
        stamp = time.time()
        seen = seen or {pid: self.state_of(pid) for pid in states}
        changes = {pid: Change.between(seen[pid], state, stamp) for pid, state in states.items()}
        changes = {pid: change for pid, change in changes.items() if change}
        if changes:
            self.history.record(changes)
            self._saver.save(changes, self.state_of)

    @property
    def saving(self) -> bool:
        """Whether a mark shown is not yet durable."""
        return bool(self._saver.unsaved)

    def _from_writer(self, callback: Callable[[], None]) -> None:
        """Run `callback` on the app's thread soon (from another thread), unless the app has stopped by then."""
        if self._ui_loop is not None and not self._ui_loop.is_closed():
            self._ui_loop.call_soon_threadsafe(lambda: callback() if self.is_running else None)

    # --- actions ------------------------------------------------------------------------------------


    def _current(self) -> tuple[str, Triage] | None:
        paper = self.query_one(PaperList).current
        return (paper.id, self.state_of(paper.id)) if paper is not None else None

    def _set_current(self, **marks: Any) -> None:
        current = self._current()
        if current is not None:
            self.change({current[0]: replace(current[1], **marks)})

    def action_toggle_read(self) -> None:
        self.toggle_mark("read", "Marked read", "Marked unread")

    def action_toggle_star(self) -> None:
        self.toggle_mark("starred", "Starred", "Unstarred")

    def action_dismiss(self) -> None:
        """Mark the paper not for me and go on to the next unread, as mutt's `d` does; or take the mark off."""
        if self.selection:
            self.toggle_mark("dismissed", "Marked not for me", "Took not for me off")
            return
        current = self._current()
        if current is not None:
            self._set_current(dismissed=not current[1].dismissed)
            if not current[1].dismissed:
                self.action_next_unread()

    def action_priority(self, priority: int) -> None:
        verb = f"Gave priority {priority} to" if priority else "Cleared the priority of"
        self.bulk(verb, lambda state: replace(state, priority=priority))

    def action_read_next(self) -> None:
        self._set_current(read=True)
        self.action_next_unread()

    def _go_to_unread(self, step: int) -> None:
        paper_list = self.query_one(PaperList)
        papers = paper_list.papers
        for k in range(1, len(papers) + 1):
            index = (paper_list.cursor + step * k) % len(papers)
            if to_read(self.state_of(papers[index].id)):
                paper_list.cursor = index
                return
        self.notify("No unread papers shown.")

    def action_next_unread(self) -> None:
        self._go_to_unread(1)

    def action_previous_unread(self) -> None:
        self._go_to_unread(-1)

    def _restore(self, changes: dict[str, Change] | None, what: str) -> None:
        if changes is None:
            self.notify(f"Nothing to {what}.")
            return
        self._saver.save(changes, self.state_of)
        if len(changes) == 1:
            index = self.query_one(PaperList).index_of(next(iter(changes)))
            if index is not None:
                self.query_one(PaperList).cursor = index

    def action_undo(self) -> None:
        self._restore(self.history.undo(time.time()), "undo")

    def action_redo(self) -> None:
        self._restore(self.history.redo(time.time()), "redo")

    def action_edit(self, mark: str) -> None:
        """Open the editor of the current paper's `note` or `tags`; saving it is a triage action."""
        paper = self.query_one(PaperList).current
        if self.selection and mark == "tags":
            self.add_tags()
            return
        if paper is None:
            return

        seen = self.state_of(paper.id)

        def edited(value: object) -> None:  # what changed from the value the editor opened with
            if value is not None:
                self.change({paper.id: replace(seen, **{mark: value})}, {paper.id: seen})

        self.push_screen(EDITORS[mark](paper.title, getattr(seen, mark)), edited)

    def action_read_all(self) -> None:
        papers = self.query_one(PaperList).papers
        unread = [paper.id for paper in papers if not self.state_of(paper.id).read]
        if not unread:
            self.notify(f"All {len(papers)} papers shown are read.")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.change({pid: replace(self.state_of(pid), read=True) for pid in unread})

        self.push_screen(Confirm(f"Mark {len(unread)} unread of the {len(papers)} papers shown as read?"), answered)
