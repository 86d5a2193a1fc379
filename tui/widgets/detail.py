"""The detail pane: one paper in full — title, authors, venue and track, keywords (and a conference slot,
an arXiv announce type), marks, TL;DR,
the abstract and the paper's links — drawn line by line.

It is one Line-API widget (a `ScrollView`), not a column of widgets: moving the cursor in the list
changes what the pane draws, not the screen's layout, so a key costs a repaint of the pane and no
relayout of the screen (six `Static`s updated per key made Textual lay the whole screen out again).
Each part is wrapped once per width and kept; a change of marks re-wraps only the marks.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.style import Style
from textual.binding import Binding
from textual.content import Content, Span as Styled
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from store.search.highlight import context, Hit, Span
from store.papers.model import Paper, Triage
from store.papers.inert import inert
from store.papers.slots import announced, slot
from store.search.qualifiers import CODE_HOSTS
from store.papers.text import Display, display, shown_part, title_display
from tui.keys import READ
from tui.widgets.kept_lines import KeptLines
from tui.widgets.scrollbar import SteadyBar

MEASURE = 96
"""The widest the text runs, in cells: a wide pane keeps lines short enough to read."""

PARTS = ("title", "context", "authors", "meta", "keywords", "state", "tldr", "body", "links")
"""The parts of the pane, top to bottom; a blank line comes before `tldr`, `body` and `links`."""

_SPACED = {"tldr", "body", "links"}

_LOOK = {
    "title": "bold $text-accent", "context": "$text-muted", "authors": "", "meta": "$text-muted",
    "keywords": "$text-muted", "state": "$text-secondary", "tldr": "italic", "body": "", "links": "",
}
"""The base style of each part (a search match and the abstract's own emphasis go on top)."""

MATCH = "bold $text-warning on $warning-muted"
"""How a search match is marked in the detail pane (the list uses `paper-list--match`)."""

STYLES = {"bold": "bold", "italic": "italic", "code": "$text-accent", "math": "italic", "link": "underline"}
"""How the abstract's own emphasis, code, math and links look (links are not clickable: the text is untrusted)."""

LABEL = "bold $text-muted"
BLANK = Strip.blank(0)
"""A blank line: between parts, and below the text."""
TLDR_BAR = "▌ "


class DetailPane(KeptLines, SteadyBar, ScrollView, can_focus=True):
    """Shows one paper in full. Every part is `Content` built from the paper's text, never parsed as markup.

    Focused (`enter` / `l` from the list), it scrolls with `j` / `k` as well as the arrows and page keys,
    and `g` / `G` go to its top / bottom as `home` / `end` do.
    """

    BINDINGS = [
        Binding("j", "scroll_down", "Scroll down", show=False, group=READ, tooltip="Detail one line down (while reading it)", id="scroll_down"),
        Binding("k", "scroll_up", "Scroll up", show=False, group=READ, tooltip="Detail one line up (while reading it)", id="scroll_up"),
        Binding("g", "scroll_home", "Top", show=False, group=READ, tooltip="Detail to its top (while reading it)", id="detail_top"),
        Binding("G", "scroll_end", "Bottom", show=False, group=READ, tooltip="Detail to its bottom (while reading it)", id="detail_bottom"),
    ]

    DEFAULT_CSS = """
    DetailPane {
        padding: 0 1;
        background: $surface;
        overflow-x: hidden;
        overflow-y: scroll;  /* always there: a scrollbar that came and went would lay the screen out again */
        &:focus { background-tint: $foreground 4%; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._parts: dict[str, Content] = {name: Content("") for name in PARTS}
        self._parts["state"] = Content("Nothing to show.")
        self._wrapped: dict[str, tuple[Content, int, list[Strip]]] = {}
        """Part name → (the content, the width, its lines) as last wrapped."""
        self._lines: list[Strip] = []
        self._drawn: dict[int, Strip] = {}
        """Line index → the line as drawn (padded to the width in the pane's style), since the last relay."""
        self._style = Style()
        self._look: tuple[object, ...] | None = None
        """The pane's style and the theme the lines in `_wrapped` were wrapped in."""
        self._blank, self._blank_style = BLANK, Style()
        """A blank line as drawn, and the style it was drawn in."""
        self.keys: Mapping[str, str] = {}
        """How the open keys read (action id → key), shown beside the links they open; the app sets it."""

    def part(self, name: str) -> Content:
        """What part `name` of `PARTS` shows now (empty when the paper has none)."""
        return self._parts[name]

    @property
    def shown_text(self) -> str:
        """Every line the pane holds, as plain text (what a reader sees, scrolled or not)."""
        return "\n".join(strip.text.rstrip() for strip in self._lines)

    def show(self, paper: Paper | None, hit: Hit | None = None, marks: tuple[Triage, str] | None = None,
             instead: str | None = None) -> None:
        """Show `paper` from its top (or an empty pane for None) with what `hit` matched marked in
        its title and text, and, when the title has no match, a line of context around the best
        match of the text under the title; `marks`: its state and why, as `show_state` takes them.
        `instead`: a line shown in place of the abstract, which is then not read, nor the record's other fields
        (`tui.rereading`: they are being read again, or cannot be)."""
        parts = dict.fromkeys(PARTS, Content(""))
        if paper is None:
            parts["state"] = Content("Nothing to show.")
        else:
            title = title_display(paper.title)
            title_spans = hit.spans(title.plain) if hit is not None else ()
            text_spans = hit.text_spans if hit is not None and instead is None else ()  # (they read the text)
            parts["title"] = marked(styled(title), title_spans)
            if text_spans and not title_spans:
                parts["context"] = marked(*context(paper.plain, text_spans, max(20, self._measure() - 1)))
            parts["authors"] = text(", ".join(paper.authors))
            parts["meta"] = meta(paper)
            parts["keywords"] = keywords(paper, instead is None)
            parts["state"] = marks_content(*marks) if marks is not None else self._parts["state"]
            parts["tldr"] = text(paper.tldr)
            parts["body"] = abstract(paper, text_spans) if instead is None else text(instead).stylize("italic $text-muted")
            parts["links"] = links(paper, self.keys, instead is None)
        self._parts = parts
        self._relay()
        self.scroll_home(animate=False)

    def show_state(self, state: Triage, why: str = "") -> None:
        """Show the marks of the paper shown: read or not, not for me, star, priority, tags, note, and
        `why` the For-you order puts it where it is."""
        self._parts["state"] = marks_content(state, why)
        self._relay()

    # --- drawing -------------------------------------------------------------------------------------

    def _measure(self) -> int:
        return max(1, min(MEASURE, self.scrollable_content_region.width))

    def _wrap(self, name: str, width: int) -> list[Strip]:
        content = self._parts[name]
        kept = self._wrapped.get(name)
        if kept is not None and kept[1] == width and kept[0] is content:
            return kept[2]
        look = content.stylize_before(_LOOK[name]) if _LOOK[name] else content
        if name == "tldr":  # set apart from the abstract: a bar down its left side
            bar = Content.styled(TLDR_BAR, "$text-accent")
            look = Content("\n").join(bar + line for line in look.wrap(max(1, width - len(TLDR_BAR))))
        strips = Visual.to_strips(self, look, width, None, self.visual_style)
        self._wrapped[name] = (content, width, strips)
        return strips

    def _relay(self) -> None:
        """Wrap the parts at the pane's width and show them. The virtual size is set without a layout
        of the screen (the pane keeps its size: its scrollbar is always shown), then the lines on screen
        that changed are repainted (not the blank ones below a text as long as the last, nor the marks'
        neighbours when only the marks changed)."""
        width = self._measure()
        lines: list[Strip] = []
        # Not laid out yet (no width): wrapped once it is (`on_resize`), not at one cell a line (the first paper's
        # abstract was wrapped so twice before the first frame, ~2,000 lines each time).
        for name in PARTS if self.scrollable_content_region.width else ():
            if not self._parts[name]:
                continue
            if name in _SPACED and lines:
                lines.append(BLANK)
            lines.extend(self._wrap(name, width))
        old, self._lines = self._lines, lines
        self._drawn = {}
        size = Size(self.scrollable_content_region.width, len(lines))
        if size != self.virtual_size:
            self.set_reactive(DetailPane.virtual_size, size)
            self._scroll_update(size)  # the scrollbar's thumb follows
        top = self.scroll_offset.y
        changed = [y for y in range(top, top + self.scrollable_content_region.height)
                   if (old[y] if y < len(old) else BLANK) != (lines[y] if y < len(lines) else BLANK)]
        for start, end in _runs(changed):
            self.refresh_lines(start, end - start)

    def on_resize(self) -> None:
        self._relay()

    def notify_style_update(self) -> None:
        """The theme or the CSS changed: lines wrapped in the old colours are stale. Styles applied again as they
        were (three times as the app opens: its mount, the screen shown, a focus moved) leave them be: each wrap of a
        long abstract was ~0.1 s of the first frame."""
        super().notify_style_update()
        look = (self.visual_style, self.app.theme)
        if look == self._look:
            return
        self._look = look
        self._wrapped.clear()
        self._drawn = {}
        if self.is_mounted:
            self._relay()
            self.refresh()  # (the pane's own colours may have changed too, not only its lines')

    def on_focus(self) -> None:
        self._drawn = {}  # the background is tinted while focused

    def on_blur(self) -> None:
        self._drawn = {}

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        strip = self._drawn.get(index)
        if strip is None:
            if not self._drawn:
                self._style = self.rich_style  # once per relay: reading it costs as much as drawing a line
            width = self.scrollable_content_region.width
            strip = self._lines[index] if index < len(self._lines) else BLANK
            if strip is BLANK:  # one blank line, the same from one paper to the next: `KeptLines` finishes it once
                if self._blank.cell_length != width or self._blank_style != self._style:
                    self._blank, self._blank_style = BLANK.extend_cell_length(width, self._style), self._style
                strip = self._drawn[index] = self._blank
            else:
                strip = self._drawn[index] = strip.extend_cell_length(width, self._style).crop(0, width)
        return strip


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Ascending `rows` as [start, end) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row:
            runs[-1] = (runs[-1][0], row + 1)
        else:
            runs.append((row, row + 1))
    return runs


def marks_content(state: Triage, why: str) -> Content:
    """A paper's marks as the pane spells them out: read or not, not for me, star, priority, tags,
    why the For-you order puts it where it is (`why`), the note."""
    marks = ["read"] if state.read else [] if state.dismissed else ["unread"]  # as the row's • or ✗
    if state.dismissed:
        marks.append("not for me")
    if state.starred:
        marks.append("★ starred")
    if state.priority:
        marks.append(f"priority {state.priority}")
    if state.tags:
        marks.append("tags: " + ", ".join(state.tags))
    return text(" · ".join(marks) + (f"\n{why}" if why else "") + (f"\n\nNote: {state.note}" if state.note else ""))


def meta(paper: Paper) -> Content:
    """`ICLR 2024 · oral · 105a096a2f`: the venue, its track (bold), the year when the venue does not
    name it, and the id."""
    year = str(paper.year) if paper.year else ""
    parts: list[Content] = []
    if paper.venue:
        parts.append(text(paper.venue))
    if paper.track:
        parts.append(text(paper.track).stylize("bold $text-secondary"))
    if year and year not in paper.venue:
        parts.append(Content(year))
    parts.append(Content(paper.id))
    return Content(" · ").join(parts)


def keywords(paper: Paper, fields: bool = True) -> Content:
    """`Keywords  diffusion models · robustness` and, on lines of their own, the primary area, the
    conference slot (`Session  Poster Session 2 · Tue 7 May 16:30–18:30 · Halle B · board #2`), its other
    slot (`Also  Oral 1A …`: an oral paper's talk and poster) and how
    arXiv announced it (`Announced  cross`): the last three from its other fields, when `fields` may be read."""
    lines = []
    if paper.keywords:
        lines.append(Content.styled("Keywords  ", LABEL) + text(" · ".join(paper.keywords)))
    if paper.area:
        lines.append(Content.styled("Area  ", LABEL) + text(paper.area))
    when, other, how = (slot(paper), slot(paper, also=True), announced(paper)) if fields and paper.fields else ("", "", "")
    if when:
        lines.append(Content.styled("Session  ", LABEL) + text(when))
    if other:
        lines.append(Content.styled("Also  ", LABEL) + text(other))
    if how:
        lines.append(Content.styled("Announced  ", LABEL) + text(how))
    return Content("\n").join(lines)


def links(paper: Paper, keys: Mapping[str, str], text_read: bool = True) -> Content:
    """The paper's links, one a line, each with what it is: the record's own page, its PDF, DOI, code
    (a code host), then the other links of the abstract (when its text may be read: `text_read`); the key that
    opens the first and the PDF."""
    if not paper.links and not paper.pdf:
        return Content("")
    found = display(paper.text).links if text_read else ()
    rows: list[tuple[str, str]] = []
    first = paper.links[0] if paper.links else ""
    for url in dict.fromkeys((*paper.links, paper.pdf) if paper.pdf else paper.links):
        if url == paper.pdf:
            label = "PDF"
        elif url.startswith("https://doi.org/"):
            label = "DOI"
        elif any(host in url for host in CODE_HOSTS):
            label = "Code"
        elif url not in found:
            label = "Paper"
        else:
            label = "Link"
        rows.append((label, url))
    hints = {first: keys.get("open_link", ""), paper.pdf: keys.get("open_pdf", "")}
    width = max(len(label) for label, _ in rows)
    lines = []
    for label, url in rows:
        hint = hints.get(url, "") if url else ""
        line = Content.styled(label.ljust(width) + "  ", LABEL) + text(url).stylize("underline")
        if hint:
            line = line + Content.styled(f"  {hint} opens", "$text-muted")
        lines.append(line)
    return Content("\n").join(lines)


def text(value: str) -> Content:
    """A field of the record as Content: never markup, and inert (readers make it so; this is the pane's
    own guard for a `Paper` made elsewhere)."""
    return Content(inert(value))


def abstract(paper: Paper, spans: Sequence[Span]) -> Content:
    """The abstract as shown: styled, `spans` marked; past `SHOWN_LIMIT` characters, the start of
    it (plain) and a line saying how much more there is (search, copy and export have it all)."""
    if not paper.plain:
        return Content(shown_part(paper.text)[0])
    shown, more = shown_part(paper.plain)
    if not more:
        shown_display = display(paper.text)
        body = styled(shown_display) if shown_display.plain == paper.plain else Content(paper.plain)
        return marked(body, spans)
    body = marked(shown, [(start, min(end, len(shown))) for start, end in spans if start < len(shown)])
    return body + Content(f"\n\n… ({more:,} more characters: copy or export the paper for all of it)")


def styled(shown: Display) -> Content:
    """A display text (`store.papers.text.Display`) as Content with its markdown and LaTeX styles."""
    return with_styles(Content(shown.plain), [(span.start, span.end, STYLES[span.kind]) for span in shown.spans])


def marked(text: str | Content, spans: Sequence[Span]) -> Content:
    """`text` as Content (never markup) with `spans` marked as matches."""
    content = Content(text) if isinstance(text, str) else text
    return with_styles(content, [(start, end, MATCH) for start, end in spans])


def with_styles(content: Content, styles: Sequence[tuple[int, int, str]]) -> Content:
    """`content` with each (start, end, style) of `styles` applied over it, as `Content.stylize` one by
    one would (empty or out-of-text ones left out, ends cut at the text's end), made at once: a short
    phrase matched 200 times in an abstract would copy the spans 200 times (~1.5 ms a paper)."""
    length = len(content.plain)
    added = [Styled(start, min(end, length), style) for start, end, style in styles if start < length and start < end]
    return Content(content.plain, [*content.spans, *added], strip_control_codes=False) if added else content
