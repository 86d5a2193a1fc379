"""Everything that works without a terminal: models, readers, search, the triage store."""
from store.errors import ReadError
from store.model import Collection, Paper, Triage, paper_id
from store.readers import read_path, read_paths

__all__ = ["Collection", "Paper", "ReadError", "Triage", "paper_id", "read_path", "read_paths"]
