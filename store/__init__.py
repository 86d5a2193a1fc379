"""Everything that works without a terminal: models, readers, search, the triage store."""
from typing import TYPE_CHECKING, Any

from store.errors import ReadError
from store.model import Collection, Paper, Triage, paper_id
from store.readers import describe_skipped, read_path, read_paths
from store.readers.cache import search_index

if TYPE_CHECKING:
    from store.search import Hit, SearchIndex

__all__ = [
    "Collection", "Hit", "Paper", "ReadError", "SearchIndex", "Triage", "describe_skipped", "paper_id", "read_path",
    "read_paths", "search_index",
]


def __getattr__(name: str) -> Any:
    """`Hit` and `SearchIndex` from `store.search` when first asked for: a command that does not
    search never imports it (nor numpy and rapidfuzz with it)."""
    if name in ("Hit", "SearchIndex"):
        from store import search

        return getattr(search, name)
    raise AttributeError(f"module 'store' has no attribute {name!r}")
