"""The Textual app: a paper list beside a detail pane."""
from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Footer, Header

from store import Collection
from tui.widgets.detail import DetailPane
from tui.widgets.paper_list import PaperList


class TriageApp(App[None]):
    """Triage a list of abstracts from the keyboard."""

    CSS_PATH = "app.tcss"
    TITLE = "paper-triage"

    BINDINGS = [
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, collection: Collection, db_path: str | None = None) -> None:
        super().__init__()
        self.collection = collection
        self.db_path = db_path

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="panes"):
            yield PaperList(id="papers")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        c = self.collection
        where = " ".join(str(part) for part in (c.venue, c.year) if part) or c.header
        self.sub_title = f"{where} · {len(c.papers)} papers" if where else f"{len(c.papers)} papers"
        paper_list = self.query_one(PaperList)
        paper_list.set_papers(c.papers)
        paper_list.focus()

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        self.query_one(DetailPane).show(message.paper)
