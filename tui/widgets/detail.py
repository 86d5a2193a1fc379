"""The detail pane: the title, where the paper comes from, and the full abstract, wrapped and scrollable."""
from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from store import Hit, Paper, Triage
from store.search import Span, context
from store.text import display, shown_part
from tui.keys import READ


class DetailPane(VerticalScroll, can_focus=True):
    """Shows one paper in full. Text is set as `Content`, never parsed as markup.

    Focused (`enter` / `l` from the list), it scrolls with `j` / `k` as well as the arrows and page keys.
    """

    BINDINGS = [
        Binding("j", "scroll_down", "Scroll down", show=False, group=READ, tooltip="Detail one line down (while reading it)", id="scroll_down"),
        Binding("k", "scroll_up", "Scroll up", show=False, group=READ, tooltip="Detail one line up (while reading it)", id="scroll_up"),
    ]

    DEFAULT_CSS = """
    DetailPane {
        padding: 0 1;
        background: $surface;
        &:focus { background-tint: $foreground 4%; }
        #detail-title { text-style: bold; color: $text-accent; margin-bottom: 1; }
        #detail-context { color: $text-muted; margin-bottom: 1; }
        #detail-meta { color: $text-muted; }
        #detail-state { color: $text-secondary; margin-bottom: 1; }
        #detail-body { margin-bottom: 1; }
        #detail-links { color: $text-secondary; }
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="detail-title")
        yield Static(id="detail-context")
        yield Static(id="detail-meta")
        yield Static(id="detail-state")
        yield Static(id="detail-body")
        yield Static(id="detail-links")

    def show(self, paper: Paper | None, hit: Hit | None = None) -> None:
        """Show `paper` from its top (or an empty pane for None) with what `hit` matched marked in
        its title and text, and, when the title has no match, a line of context around the best
        match of the text under the title."""
        title_spans = hit.title_spans if hit is not None else ()
        text_spans = hit.text_spans if hit is not None else ()
        if paper is None:
            parts = (Content(""), Content(""), Content(""), Content("Nothing to show."), Content(""))
        else:
            meta = " · ".join(str(part) for part in (paper.venue, paper.year, paper.id) if part)
            if paper.authors:
                meta = ", ".join(paper.authors) + "\n" + meta
            line = Content("")
            if text_spans and not title_spans:
                line = marked(*context(paper.plain, text_spans, max(20, self.scrollable_content_region.width - 1)))
            body = abstract(paper, text_spans)
            parts = (marked(paper.title, title_spans), line, Content(meta), body, Content("\n".join(paper.links)))
        for widget_id, content in zip(("title", "context", "meta", "body", "links"), parts):
            widget = self.query_one(f"#detail-{widget_id}", Static)
            widget.update(content)
            widget.display = bool(content.plain)
        self.query_one("#detail-state", Static).display = paper is not None
        self.scroll_home(animate=False)

    def show_state(self, state: Triage, why: str = "") -> None:
        """Show the marks of the paper shown: read or not, not for me, star, priority, tags, note, and
        `why` the For-you order puts it where it is."""
        marks = ["read"] if state.read else [] if state.dismissed else ["unread"]  # as the row's • or ✗
        if state.dismissed:
            marks.append("not for me")
        if state.starred:
            marks.append("★ starred")
        if state.priority:
            marks.append(f"priority {state.priority}")
        if state.tags:
            marks.append("tags: " + ", ".join(state.tags))
        text = " · ".join(marks) + (f"\n{why}" if why else "") + (f"\n\nNote: {state.note}" if state.note else "")
        self.query_one("#detail-state", Static).update(Content(text))


MATCH = "bold $text-warning on $warning-muted"
"""How a search match is marked in the detail pane (the list uses `paper-list--match`)."""


STYLES = {"bold": "bold", "italic": "italic", "code": "$text-accent", "math": "italic", "link": "underline"}
"""How the abstract's own emphasis, code, math and links look (links are not clickable: the text is untrusted)."""


def abstract(paper: Paper, spans: Sequence[Span]) -> Content:
    """The abstract as shown: styled, `spans` marked; past `SHOWN_LIMIT` characters, the start of
    it (plain) and a line saying how much more there is (search, copy and export have it all)."""
    if not paper.plain:
        return Content(shown_part(paper.text)[0])
    shown, more = shown_part(paper.plain)
    if not more:
        return marked(styled(paper), spans)
    body = marked(shown, [(start, min(end, len(shown))) for start, end in spans if start < len(shown)])
    return body + Content(f"\n\n… ({more:,} more characters: copy or export the paper for all of it)")


def styled(paper: Paper) -> Content:
    """The abstract's display text as Content with its markdown and LaTeX styles."""
    shown = display(paper.text)
    content = Content(paper.plain)
    if shown.plain != paper.plain:
        return content
    for span in shown.spans:
        content = content.stylize(STYLES[span.kind], span.start, span.end)
    return content


def marked(text: str | Content, spans: Sequence[Span]) -> Content:
    """`text` as Content (never markup) with `spans` marked as matches."""
    content = Content(text) if isinstance(text, str) else text
    for start, end in spans:
        content = content.stylize(MATCH, start, end)
    return content
