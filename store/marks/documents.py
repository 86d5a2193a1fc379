"""The TinyDB of the marks (`store.marks.db.TriageStore`'s): its tables keyed by paper id, a write of many documents
as one journal line (`MarksTable`), and the state a mark document holds (`from_doc`, `marked_doc`)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tinydb import TinyDB
from tinydb.table import Table

from store.papers.boundary import inert_state
from store.papers.model import Triage


class MarksTable(Table):
    """TinyDB table keyed by paper id, with a write of many documents as one journal line.

    Ids are strings already, so an update changes the storage's tables in place (which
    `JournalStorage` tracks) instead of TinyDB's copy of the whole table in each direction.
    """

    document_id_class = str

    def _update_table(self, updater: Callable[[dict[str, Any]], None]) -> None:
        tables = self._storage.read()
        updater(tables.setdefault(self.name, {}))
        self._storage.write(tables)
        self.clear_cache()

    def replace_many(self, docs: Mapping[str, dict[str, Any]], remove: Iterable[str]) -> None:
        def updater(table: dict[str, Any]) -> None:
            for key in remove:
                table.pop(key, None)
            table.update(docs)

        self._update_table(updater)


class MarksDB(TinyDB):
    """TinyDB with `MarksTable`s."""


    table_class = MarksTable


def from_doc(doc: Mapping[str, Any]) -> Triage:
    """The state a document holds; a paper whose marks were all taken off reads as one never marked."""
    state = inert_state(Triage(
        read=bool(doc.get("read", False)),
        starred=bool(doc.get("starred", False)),
        priority=int(doc.get("priority", 0)),
        dismissed=bool(doc.get("dismissed", False)),  # absent from databases older than the mark
        note=str(doc.get("note", "")),
        tags=tuple(str(tag) for tag in doc.get("tags", ())),
        updated=float(doc.get("updated", 0.0)),
    ))
    return Triage() if state.blank else state


def marked_doc(doc: Mapping[str, Any] | None) -> bool:
    """Whether a stored document holds a mark (cheaper than `from_doc(doc).blank`: no state is made)."""
    return doc is not None and any(doc.get(name) for name in ("read", "starred", "priority", "dismissed", "note", "tags"))
