"""The help screen (`?`): every key, grouped, in two columns that fit 120x40 without scrolling, and
the filter's query syntax on a tab of its own; generated from the bindings so it never goes stale."""
from __future__ import annotations

import textwrap
from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static, TabbedContent, TabPane

from store.search.query import SYNTAX
from tui.keys import GENERAL, GROUPS, declared_bindings, key_display

Rows = list[tuple[str, str]]

PRIORITIES = tuple(f"priority({n})" for n in range(1, 6))
"""The five priority keys share one row of the help: "1 2 3 4 5  Priority 1 (highest) … 5 (lowest)"."""


class HelpColumn(Static):
    """Groups of keys, each a heading and its rows, the descriptions wrapped under themselves."""

    def __init__(self, groups: Sequence[tuple[str, Rows]], **kwargs) -> None:
        super().__init__(**kwargs)
        self.groups = groups

    def on_resize(self) -> None:
        self.update(rows_content(self.groups, self.size.width))


class HelpScreen(ModalScreen[None]):
    """Every key of the app, grouped, and the query syntax (`tab`); `esc`, `q` or `?` closes it,
    `j`/`k`, `space`/`pgdn`/`pgup` and `g`/`G` scroll."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close help", show=True, key_display="esc", id="close_help"),
        Binding("j,down", "scroll(1)", "Scroll down", show=False, tooltip="Scroll the help down", id="help_down"),
        Binding("k,up", "scroll(-1)", "Scroll up", show=False, tooltip="Scroll the help up", id="help_up"),
        Binding("space,pagedown", "page(1)", "Page down", show=False, tooltip="The help a page down", id="help_page_down"),
        Binding("pageup", "page(-1)", "Page up", show=False, tooltip="The help a page up", id="help_page_up"),
        Binding("G,end", "end(1)", "End", show=False, tooltip="The end of the help", id="help_end"),
        Binding("g,home", "end(0)", "Top", show=False, tooltip="The top of the help", id="help_top"),
        Binding("tab,shift+tab,slash", "other_tab", "Keys / syntax", show=False, tooltip="The keys or the filter's query syntax",
                id="help_tab"),
    ]

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        #help-box {
            width: 100%;
            max-width: 120;
            height: 100%;
            background: $surface;
            border: round $accent;
            border-title-color: $accent;
            padding: 0 1;
        }
        TabbedContent { height: 1fr; }
        ContentSwitcher, TabPane { height: 1fr; }
        TabPane { padding: 0; }
        .help-scroll { height: 1fr; }
        #help-columns { height: auto; }
        HelpColumn { width: 1fr; height: auto; margin: 0 1 0 0; }
        #help-syntax { height: auto; }
        #help-footnote { color: $text-muted; height: 1; }
    }
    HelpScreen.-narrow #help-columns { layout: vertical; }
    HelpScreen.-narrow HelpColumn { width: 100%; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box") as box:
            box.border_title = "Help"
            with TabbedContent(id="help-tabs"):
                with TabPane("Keys", id="help-keys"):
                    with VerticalScroll(classes="help-scroll") as scroll:
                        scroll.can_focus = False
                        with Horizontal(id="help-columns"):
                            for index, column in enumerate(balanced(self.groups())):
                                yield HelpColumn(column, classes="help-group", id=f"help-column-{index}")
                with TabPane("Filter (/) syntax", id="help-query"):
                    with VerticalScroll(classes="help-scroll") as scroll:
                        scroll.can_focus = False
                        yield Static(table(SYNTAX), id="help-syntax")
            yield Static(
                Content("esc, q or ? closes · tab: keys / filter syntax · space, pgdn, G scroll · ctrl+p finds any command by name"),
                id="help-footnote",
            )

    def groups(self) -> list[tuple[str, Rows]]:
        """(group title, its rows of keys and what they do) for every group that has keys, in `GROUPS`
        order; the priority keys share a row, and General ends with Textual's command palette."""
        app = self.app
        rows: dict[str, Rows] = {group.description: [] for group in GROUPS}
        priorities: list[str] = []
        for _, binding in declared_bindings(app):
            group = (binding.group or GENERAL).description
            keys = key_display(app, binding)
            if binding.action in PRIORITIES:
                if not priorities:
                    rows.setdefault(group, []).append(("", ""))  # filled below, in its place
                    where = (group, len(rows[group]) - 1)
                priorities.append(keys)
                continue
            rows.setdefault(group, []).append((keys, binding.tooltip or binding.description))
        if priorities:
            group, index = where
            rows[group][index] = (" ".join(priorities), "Priority 1 (highest) 2 (high) 3 (medium) 4 (low) 5 (lowest)")
        palette = app.get_key_display(Binding(app.COMMAND_PALETTE_BINDING, "command_palette"))
        rows.setdefault(GENERAL.description, []).append((palette, "Command palette: any action by name"))
        return [(title, entries) for title, entries in rows.items() if entries]

    @property
    def text(self) -> str:
        """Every row of the keys tab as plain text (what a reader sees in it, scrolled or not)."""
        return "\n".join(str(column.content) for column in self.query(HelpColumn))

    def on_resize(self) -> None:
        self.set_class(self.size.width < 100, "-narrow")

    def _scroll(self) -> VerticalScroll:
        active = self.query_one(TabbedContent).active or "help-keys"
        return self.query_one(f"#{active} .help-scroll", VerticalScroll)

    def action_scroll(self, lines: int) -> None:
        self._scroll().scroll_relative(y=lines, animate=False)

    def action_page(self, pages: int) -> None:
        scroll = self._scroll()
        scroll.scroll_relative(y=pages * max(1, scroll.scrollable_content_region.height - 1), animate=False)

    def action_end(self, end: int) -> None:
        scroll = self._scroll()
        (scroll.scroll_end if end else scroll.scroll_home)(animate=False)

    def action_other_tab(self) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.active = "help-query" if tabs.active != "help-query" else "help-keys"


def balanced(groups: list[tuple[str, Rows]]) -> list[list[tuple[str, Rows]]]:
    """The groups in two columns of about equal height, each keeping their order (Triage, the longest,
    then goes beside the rest), the shorter column first on ties."""
    heights = [2 + sum(1 + len(description) // 46 for _, description in rows) for _, rows in groups]
    best = min(range(2 ** len(groups)), key=lambda mask: (
        max(sum(h for i, h in enumerate(heights) if mask >> i & 1), sum(h for i, h in enumerate(heights) if not mask >> i & 1)),
        not mask & 1))
    return [[g for i, g in enumerate(groups) if best >> i & 1], [g for i, g in enumerate(groups) if not best >> i & 1]]


def rows_content(groups: Sequence[tuple[str, Rows]], width: int) -> Content:
    """The groups as Content at `width`: a heading, then each key (accented) and what it does, the
    description wrapped to run on under itself."""
    lines: list[Content] = []
    for title, rows in groups:
        if lines:
            lines.append(Content(""))
        lines.append(Content.styled(title, "bold underline $text-accent"))
        keys_width = max(len(keys) for keys, _ in rows)
        room = max(10, width - keys_width - 2)
        for keys, description in rows:
            wrapped = textwrap.wrap(description, room) or [""]
            lines.append(Content.assemble((keys.ljust(keys_width), "bold $text-accent"), "  ", wrapped[0]))
            lines.extend(Content(" " * (keys_width + 2) + more) for more in wrapped[1:])
    return Content("\n").join(lines)


def table(entries: Sequence[tuple[str, str]]) -> Content:
    """Two columns: what to type (accented) and what it does."""
    width = max(len(keys) for keys, _ in entries)
    lines = [Content.assemble((keys.ljust(width), "bold $text-accent"), "  ", description) for keys, description in entries]
    return Content("\n").join(lines)
