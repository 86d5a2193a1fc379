"""What a list's papers are keyed by in the cache, for what is made of them whole (the search engine's folder,
store.readers.engine_cache; the For-you features, store.interest.features_cache): this code's version and the parse
the papers are (`Collection.origin`: the keys of the list files read, when its papers are still the very ones read),
else a digest of what is made of them. An entry under the key stands for those very papers only."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from store.papers.model import Collection, Paper, kept_plain
from store.readers.cache import parse_key, version_key

_BATCH = 2_048
"""Papers hashed at a time: one string of a long list's texts is big."""


def papers_key(collection: Collection) -> str:
    """The key of `collection`'s papers: the parse they are, else a digest of them (`digest_of`, which reads every
    text: 0.4 s at 100,000 papers)."""
    return read_key(collection) or json.dumps([version_key(), digest_of(collection.papers).hex()])


def read_key(collection: Collection) -> str | None:
    """The key of `collection`'s papers when they are still the very papers of a parse (`Collection.origin`), made of
    that parse's keys (at once); else None."""
    origin = collection.origin
    return _of_keys(origin.keys) if origin is not None and origin.of(collection.papers) else None


def files_key(files: Sequence[str]) -> str | None:
    """The key `read_key` gives the read of the list files `files` (`store.readers.files_of`) when each is read from
    its parse entry: worked out from their status alone, before they are read. None when a file is not there."""
    try:
        return _of_keys([parse_key(Path(name)) for name in files])
    except (OSError, ValueError):
        return None


def _of_keys(keys: Sequence[tuple]) -> str:
    """The key of the papers of a parse of list files at `keys` (each file's `store.readers.cache.parse_key`)."""
    return json.dumps([version_key(), "read", [list(key[1:]) for key in keys]])


def digest_of(papers: Sequence[Paper]) -> bytes:
    """A digest of all that is made of `papers`: their display texts, titles and names, authors and keywords, in
    order. (Links, venues, years, areas and tracks are worked out anew from the text and fields.) A display text the
    paper works out from its text (or keeps as a patch over it: `store.papers.model.kept_plain`) is the text's under
    this very code, which the key names too: the text stands for it, and no display text is made to be hashed."""
    import numpy as np  # (here: `read_key`, which every `triage list` asks, needs none)

    digest = hashlib.blake2b(digest_size=16)
    for start in range(0, len(papers), _BATCH):
        fields = [field for p in papers[start : start + _BATCH]
                  for field in (_plain_part(p), p.title, p.name, "\n".join(p.authors), "\n".join(p.keywords))]
        digest.update("".join(fields).encode("utf-8", "surrogatepass"))
        digest.update(np.fromiter(map(len, fields), np.int64, len(fields)).tobytes())  # where each one ends
    return digest.digest()


def _plain_part(paper: Paper) -> str:
    """What stands for a paper's display text in its digest: the display text when the paper holds one of its
    own, else the text it is worked out from, marked apart (a text is no display text)."""
    kept = kept_plain(paper)
    return kept if isinstance(kept, str) else "\x00" + paper.text
