"""The paper list: one line per paper, drawn line by line so 100,000 rows cost what 20 do.

A row is its marks, the title (LaTeX rendered) and, when the list is wide enough to keep the title
`TITLE_ROOM` cells, short columns of what the list's papers have: the first author, the track, the year."""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.cache import LRUCache
from textual.events import Click
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from store.papers.chunked import ids_of, values_of
from store.papers.model import Paper, Triage
from store.papers.rows import ById, lookup_of
from store.papers.text import title_display
from store.search.views import surname
from tui.contrast import AAA, contrast, legible
from tui.keys import MOVE
from tui.widgets.kept_lines import KeptLines
from tui.widgets.scrollbar import SteadyBar

NO_MARKS = Triage()


TitleSpans = Callable[[int], Sequence[tuple[int, int]]]
"""Row index → the [start, end) spans of its title as shown (`store.papers.text.title_display`) that a search matched."""

TITLE_ROOM = 48
"""The cells a title keeps before a column is given room beside it."""

RECEDE = 1.6
"""How many times the contrast of a read title an unread one has, at least."""

TRACKS = {"oral": "oral", "spotlight": "spot", "poster": "poster"}
"""How the track column names a track (6 cells at most)."""

COLUMNS: dict[str, tuple[int, Callable[[Paper], str]]] = {
    "author": (14, lambda paper: surname(paper.authors[0]) if paper.authors else ""),
    "track": (6, lambda paper: TRACKS.get(paper.track, paper.track[:6])),
    "year": (4, lambda paper: str(paper.year) if paper.year else ""),
}
"""Column name → (its width, what a paper shows in it), in the order they are given room."""


def columns_for(papers: Sequence[Paper]) -> tuple[str, ...]:
    """The columns worth showing for these papers: authors when any has them, the track and the year
    when the papers differ in it (a list of one venue's 2024 papers gets no year column)."""
    shown = ["author"] if any(values_of(papers, "authors")) else []
    for name in ("track", "year"):  # (at C speed: ~70 ms less over 100,000 papers than a loop)
        if len([value for value in set(values_of(papers, name)) if value]) > 1:
            shown.append(name)
    return tuple(shown)


class PaperList(KeptLines, SteadyBar, ScrollView, can_focus=True, inherit_bindings=False):
    """A cursor over a list of papers. Each row: `…` while a mark shown is not yet saved, else `▌` on a
    selected paper (its row tinted), else `+` fetched this session, else `↻` a later version of a marked paper, else the For-you
    bucket of an unmarked paper (`↑` likely star, `·` unsure, `↓` likely skip), `•` unread (`✗` in its place: not for me), `★` starred, the priority
    1–5, the title (with the spans a search matched highlighted; faded when read or not for me).
    The page keys of a ScrollView are not inherited: the app gives
    PgUp/PgDn to the detail pane, so the list pages with ctrl+f / ctrl+b.

    | Key | Action |
    | :- | :- |
    | `j` / `down` | Next paper |
    | `k` / `up` | Previous paper |
    | `g` / `home` | First paper |
    | `G` / `end` | Last paper |
    | `ctrl+f` / `ctrl+b` | A page down / up |
    """

    BINDINGS = [
        Binding("j,down", "cursor_down", "Down", key_display="j/↓", group=MOVE, tooltip="Next paper", id="cursor_down"),
        Binding("k,up", "cursor_up", "Up", key_display="k/↑", group=MOVE, tooltip="Previous paper", id="cursor_up"),
        Binding("g,home", "first", "First", show=False, group=MOVE, tooltip="First paper", id="first"),
        Binding("G,end", "last", "Last", show=False, group=MOVE, tooltip="Last paper", id="last"),
        Binding("ctrl+f", "page_down", "Page down", show=False, group=MOVE, tooltip="List a page down", id="page_down"),
        Binding("ctrl+b", "page_up", "Page up", show=False, group=MOVE, tooltip="List a page up", id="page_up"),
    ]

    COMPONENT_CLASSES = {
        "paper-list--cursor",
        "paper-list--empty",
        "paper-list--unread",
        "paper-list--dismissed",
        "paper-list--read",
        "paper-list--star",
        "paper-list--bucket",
        "paper-list--priority",
        "paper-list--match",
        "paper-list--selected",
        "paper-list--unsaved",
        "paper-list--new",
        "paper-list--column",
    }

    DEFAULT_CSS = """
    PaperList {
        background: $surface;
        overflow-x: hidden;
        & > .paper-list--cursor { background: $block-cursor-blurred-background; color: $block-cursor-blurred-foreground; text-style: $block-cursor-blurred-text-style; }
        &:focus > .paper-list--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
        & > .paper-list--empty { color: $text-muted; }
        & > .paper-list--unread { color: $accent; text-style: bold; }
        & > .paper-list--dismissed { text-style: bold; }  /* faded as a read title is: see _read_style */
        & > .paper-list--read { color: $foreground 55%; }  /* blended with the background: see _read_style */
        & > .paper-list--star { color: $warning; }
        & > .paper-list--bucket { color: $text-secondary; text-style: bold; }
        & > .paper-list--priority { color: $error; text-style: bold; }
        & > .paper-list--selected { background: $accent 25%; }
        & > .paper-list--match { color: $text-warning; background: $warning-muted; text-style: bold; }
        & > .paper-list--unsaved { color: $text-muted; text-style: bold; }
        & > .paper-list--new { color: $text-success; text-style: bold; }
        & > .paper-list--column { color: $text-muted; }
    }
    """

    cursor: reactive[int] = reactive(0, always_update=False, init=False, repaint=False)
    """Index of the highlighted paper in `papers` (a move redraws the two rows it changes, not the list)."""

    def __init__(self, follow: Callable[[PaperList], None], *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._follow = follow
        """Called at once whenever the paper under the cursor may have changed (a move, new papers): the app shows
        it in the detail pane in the same call, so the rows and the pane change in one frame. (A message would be
        handled when the app's queue reaches it, and the screen's update timer can draw the rows before that.)"""
        self.papers: Sequence[Paper] = ()
        self.states: Mapping[str, Triage] = {}
        """Triage state by paper id (absent: no marks); call `refresh_papers` after changing it."""
        self.buckets: Callable[[str], str] | None = None
        """The For-you bucket glyph of a paper by id, drawn in the row's first column (None: no ranking);
        call `redraw` after changing it."""
        self.selected: Container[str] = ()
        """The ids of the selected papers; call `refresh_papers` with those whose selection changed."""
        self.unsaved: Container[str] = ()
        """Ids of the papers whose marks shown are not yet saved; call `refresh_papers` when it changes."""
        self.fresh: Container[str] = ()
        """Ids of the papers new this session (fetched from the app: `+` in the first column); call `redraw`."""
        self.updated: Container[str] = ()
        """Ids of the marked papers seen here in a later version (`↻` in the first column: `is:updated`); call `redraw`."""
        self.columns: tuple[str, ...] = ()
        """The columns of `COLUMNS` the papers have (see `columns_for`), shown when there is room; call `redraw`."""
        self._rows: ById | None = None
        """The rows by paper id, made when first asked for (its look-up too: a query typed need not index 100,000 rows)."""
        self._title_spans: TitleSpans | None = None
        self._cache: LRUCache[tuple[int, bool, int], Strip] = LRUCache(1024)
        self._style: Style | None = None
        """The list's own style, kept until the styles change (see `_base_style`)."""

    @property
    def current(self) -> Paper | None:
        """The paper under the cursor."""
        return self.papers[self.cursor] if self.papers else None

    def set_papers(self, papers: Sequence[Paper], keep: str | None = None, title_spans: TitleSpans | None = None) -> None:
        """Show `papers`; the cursor stays on paper id `keep` when it is among them, else goes to the top.
        `title_spans` gives the matched spans of a row's title, to highlight."""
        self.papers = papers
        self._title_spans = title_spans
        self._rows = None
        self._cache.clear()
        index = (self._row_kept(keep) or 0) if keep else 0
        self._set_rows(len(papers))
        self.set_reactive(PaperList.cursor, index)
        self._centre(index)
        self.refresh()
        self._follow(self)

    def reorder(self, papers: Sequence[Paper], title_spans: TitleSpans | None = None) -> None:
        """Show the same papers in a new order that leaves the cursor's row where it is (no scroll, no move)."""
        self.papers = papers
        self._title_spans = title_spans
        self._rows = None
        self.redraw()

    def _row_kept(self, keep: str) -> int | None:
        """The row of paper `keep` in the papers now shown: the cursor's row when it is there (a query's hits read whole
        after their first screen: no look through 700,000 ids at 1,000,000 papers, ~0.2 s), else its first."""
        if self.cursor < len(self.papers) and self.papers[self.cursor].id == keep:
            return self.cursor
        return self._row_of().found(keep)

    def _row_of(self) -> ById:
        """The papers shown by id (their ids read once: ~15 ms at 1,000,000 papers, not a dict of them, ~0.35 s), through
        the look-up they keep when they are a reopened long list's (no scan of a million ids for the cursor's paper)."""
        if self._rows is None:
            self._rows = ById(self.papers, ids_of(self.papers), lookup_of(self.papers, "id"))
        return self._rows

    def _set_rows(self, count: int) -> None:
        """The list is `count` rows long. Only the scrollbar changes with it (the rows are drawn
        line by line): the screen is laid out again only when the scrollbar comes or goes."""
        size = Size(self.size.width, count)
        if size == self.virtual_size:
            return
        self.set_reactive(PaperList.virtual_size, size)
        self._scroll_update(size)  # (Textual's own update of the scrollbars: a layout only when one shows or hides)

    def redraw(self) -> None:
        """Draw every row afresh (what each shows changed: a new ranking's buckets)."""
        self._cache.clear()
        self.refresh()

    def validate_cursor(self, cursor: int) -> int:
        return max(0, min(cursor, len(self.papers) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_lines(old)
        self.refresh_lines(new)
        self.scroll_to_show(new)
        self._follow(self)

    def scroll_to_show(self, index: int) -> None:
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if index < top:
            self.scroll_to(y=index, animate=False, immediate=True)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False, immediate=True)

    def index_of(self, paper_id: str) -> int | None:
        """The row of a paper, None when it is not in the list."""
        return self._row_of().row(paper_id)

    def refresh_papers(self, paper_ids: Iterable[str]) -> None:
        """Redraw the rows of these papers (their state changed); many at once redraw the whole list.
        Only the rows drawn (kept or on screen) are looked at, not every row: a mark costs the same
        in a list of 100,000 as in one of 20."""
        changed = set(paper_ids)
        if len(changed) > len(self._cache):
            self.redraw()
            return
        papers = self.papers
        stale = [key for key in self._cache.keys() if key[0] < len(papers) and papers[key[0]].id in changed]
        for key in stale:
            self._cache.discard(key)
        top = self.scroll_offset.y
        for index in range(top, min(len(papers), top + self.scrollable_content_region.height)):
            if papers[index].id in changed:
                self.refresh_lines(index)

    def notify_style_update(self) -> None:
        """The theme or the CSS changed: rows drawn in the old colours are stale."""
        self._cache.clear()
        self._style = None
        super().notify_style_update()

    def _centre(self, index: int) -> None:
        self.scroll_to(y=max(0, index - self.scrollable_content_region.height // 2), animate=False, immediate=True)

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.papers))
        self._cache.clear()
        # The papers may have been set before the list had a size (a restored session's cursor, at start):
        # the scroll made then was clamped to the top, so the cursor row is brought into view now.
        top, height = self.scroll_offset.y, self.scrollable_content_region.height
        if not top <= self.cursor < top + height:
            self._centre(self.cursor)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = self.scroll_offset.y + y
        if index >= len(self.papers):
            if index == 0:
                style = self.get_component_rich_style("paper-list--empty")
                return Strip([Segment(" No papers", style)]).extend_cell_length(width).crop(0, width)
            return Strip.blank(width, self._base_style())
        selected = index == self.cursor
        key = (index, selected and self.has_focus, width)
        strip = self._cache.get(key)
        if strip is None:
            spans = self._title_spans(index) if self._title_spans else ()
            strip = self._render_row(self.papers[index], selected, width, spans)
            self._cache[key] = strip
        return strip

    def on_focus(self) -> None:
        self.refresh_lines(self.cursor)

    def on_blur(self) -> None:
        self.refresh_lines(self.cursor)

    def _base_style(self) -> Style:
        """`rich_style`, which walks every ancestor's styles (a third of what drawing a row costs), worked
        out once until the styles change."""
        if self._style is None:
            self._style = self.rich_style
        return self._style

    def _render_row(self, paper: Paper, selected: bool, width: int, spans: Sequence[tuple[int, int]]) -> Strip:
        base = self._base_style()
        chosen = paper.id in self.selected
        if chosen:
            base = base + self.get_component_rich_style("paper-list--selected")
        if selected:
            base = base + self.get_component_rich_style("paper-list--cursor")
        state = self.states.get(paper.id, NO_MARKS)

        def part(name: str) -> Style:
            style = self.get_component_rich_style(name, partial=True)
            # On the cursor row a mark takes the cursor's colour: a theme's marks are not made to be read on it.
            return Style(bold=style.bold) if selected else style

        row = Text(style=base, no_wrap=True, overflow="ellipsis", end="")
        if paper.id in self.unsaved:
            row.append("…", part("paper-list--unsaved"))
        elif chosen:
            row.append("▌", part("paper-list--bucket"))
        elif paper.id in self.fresh:
            row.append("+", part("paper-list--new"))
        elif paper.id in self.updated:
            row.append("↻", part("paper-list--new"))
        else:
            row.append(self.buckets(paper.id) if self.buckets is not None and state.blank else " ", part("paper-list--bucket"))
        if state.dismissed:
            row.append("✗", part("paper-list--dismissed") + (self._read_style() if not selected else Style()))
        else:
            row.append("•" if not state.read else " ", part("paper-list--unread"))
        row.append("★" if state.starred else " ", part("paper-list--star"))
        row.append(str(state.priority) if state.priority else " ", part("paper-list--priority"))
        faded = (state.read or state.dismissed) and not selected
        columns = self._columns(width)
        room = width - sum(COLUMNS[name][0] + 2 for name in columns)
        # The title is cut to the room the marks leave it on its own: rich counts the cells of a string
        # character by character once it holds one of the marks (•, ★…), ~0.1 ms a row, and a title
        # seldom holds one. The row then has the list's width exactly: nothing of it is counted again.
        title = Text(" " + title_display(paper.title).plain, end="")
        title_room = room - cell_len(row.plain)  # (a few strings of marks: their count is cached)
        cut = title_room > 1
        if cut:
            title.truncate(title_room, overflow="ellipsis")
        start = len(row) + 1
        row.append(title.plain, self._read_style() if faded else None if selected else self._title_style(base))
        for begin, end in spans:
            row.stylize(part("paper-list--match"), start + begin, start + end)
        if cut:
            row.append(" " * (title_room - title.cell_len))
        else:  # (a list too narrow for its marks: cut as a whole)
            row.truncate(room, overflow="ellipsis", pad=True)
        style = self._column_style() if not faded and not selected else self._read_style() if faded else None
        for name in columns:
            size, value = COLUMNS[name]
            cell = Text(value(paper), no_wrap=True, overflow="ellipsis", end="")
            cell.truncate(size, overflow="ellipsis", pad=True)
            row.append("  ")
            row.append(cell.plain, style)
        if not cut:
            row.truncate(width, overflow="ellipsis", pad=True)
        return Strip(row.render(self.app.console), width if cut else cell_len(row.plain)).crop(0, width)

    def _columns(self, width: int) -> list[str]:
        """The columns there is room for at `width`: each keeps the title `TITLE_ROOM` cells."""
        room, shown = width - 5, []
        for name in self.columns:
            room -= COLUMNS[name][0] + 2
            if room < TITLE_ROOM:
                break
            shown.append(name)
        return shown

    def _title_style(self, base: Style) -> Style | None:
        """An unread title: the text colour at AAA contrast (7:1) at least, and 1.6 times a read title's (which
        is drawn at AA at least, tui.contrast), so read titles recede even in themes whose text is near AA
        (solarized). (On the cursor row the title keeps the cursor's colours.)"""
        read = self._read_style().color
        if None in (base.color, base.bgcolor, read) or base.color.is_default or base.bgcolor.is_default or read.is_default:
            return None
        least = max(AAA, RECEDE * contrast(legible(read, base.bgcolor), base.bgcolor))
        return Style(color=legible(base.color, base.bgcolor, least))

    def _column_style(self) -> Style:
        """The author, track and year columns: muted text, its colour worked out on the list's background (a
        partial component style works `$text-muted` out on none: white, in textual-light)."""
        return Style(color=self.get_component_rich_style("paper-list--column").color)

    def _read_style(self) -> Style:
        """A read title: the text colour faded towards the background (dimmed where the theme's colours
        are the terminal's own, which cannot be blended), so read rows recede in every theme."""
        color = self.get_component_rich_style("paper-list--read").color  # blended: a partial style is not
        return Style(color=color) if color is not None and not color.is_default else Style(dim=True)

    def on_click(self, event: Click) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < len(self.papers):
            self.cursor = index

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self.papers) - 1

    def action_page_down(self) -> None:
        self.cursor += max(1, self.scrollable_content_region.height - 1)

    def action_page_up(self) -> None:
        self.cursor -= max(1, self.scrollable_content_region.height - 1)
