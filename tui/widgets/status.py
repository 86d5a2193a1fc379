"""The header line: where the papers come from, how many are shown of how many, their marks, and a bar of papers read."""
from __future__ import annotations

from functools import partial

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import ProgressBar, Static

from tui.widgets.line_text import counted, show_line


SAVING_WIDTH = len("saving…") + 1
"""The cells "saving…" takes, with its padding."""
NOTICE_LEAST = 32
"""The fewest cells a notice is shown in ("search index rebuilt (damaged)"): the counts after the first give theirs up for it."""
NAME_LEAST = 24
"""The fewest cells the list's name and venue keep beside a notice (the whole of them when shorter)."""
NARROW_LIKE = 18
"""The most characters of the paper "more like this" is of that the header names below 100 columns."""


class StatusLine(Horizontal):
    """`iclr2024.txt · ICLR 2024   7 of 19 shown · 12 unread · 3 ★ · 4 prioritised   5 read ━━━━━━━ 26%`,
    with "saving…" before "5 read" while a mark shown is not yet durable, and before that how far the work
    on a list just opened is ("reading 40%…", "indexing…").

    The counts are never cut: the source names and the venue before them shrink first (cut with `…`),
    then whole counts are left out, the least important first (prioritised, ★, unread). Several lists
    open read "4 lists: a.jsonl, b.jsonl, …". Below 100 columns the source names and the "N read" label
    are left out and the bar is shorter, so it fits 80 columns.
    """

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        background: $panel;
        & > #status-source { width: auto; padding: 0 0 0 1; color: $text; text-wrap: nowrap; text-overflow: ellipsis; }
        & > #status-counts { width: 1fr; padding: 0 1; color: $text; text-wrap: nowrap; }
        & > #status-loading { width: auto; color: $text-muted; text-style: bold; }
        & > #status-notice { width: auto; color: $text-warning; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis; }
        & > #status-saving { width: auto; padding: 0 1 0 0; color: $text-warning; text-style: bold; }
        & > #status-read { width: auto; color: $text-muted; }
        & > #status-sync { width: auto; color: $text-muted; }
        & > ProgressBar { width: auto; padding: 0 1; }
        & > ProgressBar Bar { width: 20; }
    }
    StatusLine.-narrow, StatusLine.-noticed {
        & > #status-read { display: none; }
        & > ProgressBar Bar { width: 8; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._names: list[str] = []
        self._counts: list[str] = []
        """The parts of the counts, the most important first."""
        self._where = ""
        self._limit: int | None = None
        """The widest the source names and venue may be (None: as wide as they are)."""
        self._reserved = False
        """Whether "saving…" keeps its width while not shown (see `_fit`)."""
        self._told: object = None
        """The notice last told as a toast, not having room in the line (see `_fit`)."""

    def compose(self) -> ComposeResult:
        yield Static(id="status-source", markup=False)
        yield Static(id="status-counts", markup=False)
        yield Static(id="status-loading", markup=False)
        yield Static(id="status-notice", markup=False)
        yield Static(id="status-saving", markup=False)
        yield Static(id="status-sync", markup=False)
        yield Static(id="status-read", markup=False)
        yield ProgressBar(total=1, show_eta=False, id="status-progress")

    def show_source(self, names: list[str], where: str) -> None:
        """The source file names (left out when narrow; how many when several) and the venue and year."""
        self._names, self._where = names, where
        self._show_source()

    def _show_source(self) -> None:
        names = "" if self.has_class("-narrow") else ", ".join(self._names)
        if len(self._names) > 1 and names:
            names = f"{len(self._names)} lists: {names}"
        parts = [Content.styled(names, "bold $text-accent")] if names else []
        if self._where:
            parts.append(Content(f"{self._where} ·"))
        show_line(self.query_one("#status-source", Static), Content("  ").join(parts))

    def show(self, *, shown: int, total: int, unread: int, starred: int, prioritised: int, read: int,
             selected: int = 0, visual: bool = False, like: str = "", new: int = 0) -> None:
        """`unread`, `starred`, `prioritised` count the papers shown; `read` counts all `total` papers;
        `selected` the papers selected (shown or not), `visual` whether visual mode extends the selection;
        `like`: the paper "more like this" shows papers like ("30 like GraphPulse" for "30 of 2260 shown");
        `new`: the list's papers first seen since it was last opened ("3 new", when some are and some not: a
        list opened for the first time is all new, which the count would only repeat)."""
        if self.has_class("-narrow") and len(like) > NARROW_LIKE:  # (80 columns: the counts still fit)
            like = like[: NARROW_LIKE - 1].rstrip() + "…"
        n = partial(counted, total=total)
        lead = f"{n(shown)} like {like}" if like else f"{n(shown)} of {n(total)} shown"
        self._counts = [lead, *([f"{n(new)} new"] if 0 < new < total else []), f"{n(unread)} unread", f"{n(starred)} ★",
                        f"{n(prioritised)} prioritised"]
        if selected or visual:
            self._counts.insert(0, f"{n(selected)} selected{' (visual)' if visual else ''}")
        self._fit()
        read_line, read_text = self.query_one("#status-read", Static), f"{n(read)} read"
        before = read_line.outer_size.width
        show_line(read_line, Content(read_text))
        self.query_one(ProgressBar).update(total=max(total, 1), progress=read)
        if len(read_text) != before:  # (999 read → 1000 read: the counts' room is one cell less once laid out)
            self.call_after_refresh(self._fit)

    @property
    def text(self) -> str:
        """The venue and the counts as the line reads them (`ICLR 2024 · 7 of 19 shown · …`)."""
        counts = str(self.query_one("#status-counts", Static).content)
        return f"{self._where} · {counts}" if self._where else counts

    def show_loading(self, text: str) -> None:
        """How far the work on a list just opened is ("reading 40%…", "indexing…": tui.loading); '' once done."""
        self.query_one("#status-loading", Static).update(Content(f"{text} " if text else ""))  # no cell when empty
        self.call_after_refresh(self._fit)  # once it has its new width

    def show_notice(self, text: str) -> None:
        """What the user should know of the list itself ("list changed on disk — R reloads", a fetch that failed);
        '' once it is over."""
        if not text:
            self._told = None  # (told as a toast again if it comes back with no room)
        self.set_class(bool(text), "-noticed")  # (the bar of papers read gives the notice its room, as when narrow)
        for notice in self.query("#status-notice").results(Static):  # (none while the line is still composed)
            notice.update(Content(f"{text} " if text else ""))
            self.call_after_refresh(self.call_after_refresh, self._fit)  # once it has its new width (laid out)

    def show_saving(self, papers: int) -> None:
        """"saving…" while the marks of `papers` papers shown are not yet durable; nothing once all are."""
        show_line(self.query_one("#status-saving", Static), Content("saving…" if papers else ""))

    def _fit(self) -> None:
        """Leave the counts their room, as many whole ones as fit; the source names and venue get what is left, cut
        with `…` (and left out when not even the number of lists would show). While a notice shows (it says what went
        wrong: a fetch, the index), the first count keeps its room, then the list's name some (`NAME_LEAST`), then the
        notice as much as it needs: the other counts give way to it, and the name gets what is left. A notice that
        would get fewer than `NOTICE_LEAST` cells is told as a toast instead."""
        counts_widget = self.query_one("#status-counts", Static)
        if not self.size.width:  # not laid out yet: on_resize fits it
            show_line(counts_widget, Content(" · ".join(self._counts)))
            return
        saving = self.query_one("#status-saving", Static)
        notice = self.query_one("#status-notice", Static)
        others = sum(child.outer_size.width for child in self.children
                     if child.display and child.id not in ("status-source", "status-counts", "status-saving", "status-notice"))
        source = self.query_one("#status-source", Static)
        shown = source.content
        wanted = (shown.cell_length if isinstance(shown, Content) else len(shown)) + 1
        said = notice.content.cell_length if isinstance(notice.content, Content) else len(str(notice.content))
        room = self.size.width - others - 2  # (the counts' padding)
        kept = list(self._counts)
        name = min(wanted, NAME_LEAST)
        if said and room - SAVING_WIDTH - name - len(kept[0]) < min(said, NOTICE_LEAST):  # too few cells to say
            said = 0  # anything: the name and the counts keep them, and the notice is told once as a toast instead
            if self._told != notice.content:
                self._told = notice.content
                self.notify(str(notice.content).strip(), severity="warning", timeout=12, markup=False)
        beside = min(said, room - SAVING_WIDTH - name - len(kept[0]))  # (the notice, as much as the first count leaves)
        while len(kept) > 1 and room - SAVING_WIDTH - (name + beside if said else 0) < len(" · ".join(kept)):
            kept.pop()  # the least important
        counts = len(" · ".join(kept))
        show_line(counts_widget, Content(" · ".join(kept)))
        room -= counts
        noticed = max(0, min(said, room - SAVING_WIDTH - name))
        notice.styles.max_width = noticed if noticed < said or not said else None
        room -= noticed
        # "saving…" keeps its place while it is not shown, so a mark shows and clears it without laying the
        # screen out (twice a mark), unless that place would cut source names that fit without it.
        reserve = room - wanted >= SAVING_WIDTH or wanted > room
        if reserve != self._reserved:
            self._reserved = reserve
            saving.styles.width = SAVING_WIDTH if reserve else "auto"
        room = max(0, room - (SAVING_WIDTH if reserve else saving.outer_size.width))
        limit = room if wanted > room else None
        if limit is not None and len(self._names) > 1 and limit <= len(f"{len(self._names)} lists: "):
            limit = 0  # not even the number of lists: none of it
        if limit != self._limit:  # a new limit lays the line out again: only when the source is (or was) cut
            self._limit = source.styles.max_width = limit

    def show_sync(self, text: str) -> None:
        """When marks last synced with other devices ("synced 10:42"), with --sync / $TRIAGE_SYNC."""
        show_line(self.query_one("#status-sync", Static), Content(text + " "))
        self.call_after_refresh(self._fit)  # once it has its new width

    def on_resize(self) -> None:
        self.set_class(self.size.width < 100, "-narrow")
        self._show_source()
        self.call_after_refresh(self.call_after_refresh, self._fit)  # once the bar has its narrow or wide size
