"""Everything that works without a terminal: models, readers, search, the triage store."""
from store.errors import ReadError
from store.model import Collection, Paper, Triage, paper_id
from store.readers import describe_skipped, read_path, read_paths
from store.readers.cache import search_index
from store.search import Hit, SearchIndex

__all__ = [
    "Collection", "Hit", "Paper", "ReadError", "SearchIndex", "Triage", "describe_skipped", "paper_id", "read_path",
    "read_paths", "search_index",
]
