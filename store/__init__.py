"""Everything that works without a terminal: models, readers, search, the triage store."""
from typing import TYPE_CHECKING, Any

from store.errors import ReadError
from store.model import Collection, Paper, Triage, paper_id
from store.readers import describe_skipped, read_path, read_paths
from store.readers.index_cache import search_index

if TYPE_CHECKING:
    from store.highlight import Hit
    from store.search import SearchIndex

__all__ = [
    "Collection", "Hit", "Paper", "ReadError", "SearchIndex", "Triage", "describe_skipped", "paper_id", "read_path",
    "read_paths", "search_index",
]


def __getattr__(name: str) -> Any:
    """`Hit` (store.highlight) and `SearchIndex` (store.search) when first asked for: a command that
    does not search never imports them (nor numpy and rapidfuzz with them)."""
    if name == "Hit":
        from store.highlight import Hit

        return Hit
    if name == "SearchIndex":
        from store.search import SearchIndex

        return SearchIndex
    raise AttributeError(f"module 'store' has no attribute {name!r}")
