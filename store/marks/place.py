"""Where the user's database is (`store.marks.db` opens it): told without loading the database's code, which a
command that reads no marks (an export of 100,000 papers as BibTeX) never needs."""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def db_path(option: str | os.PathLike[str] | None = None) -> Path:
    """The database file: `--db PATH`, else `$TRIAGE_DB`, else `triage.json` in the user data folder."""
    if option:
        return Path(option)
    env = os.environ.get("TRIAGE_DB")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("paper-triage", appauthor=False)) / "triage.json"
