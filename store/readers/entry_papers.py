"""The papers of a parse entry's columns (store.readers.cache): all of them, made a chunk at a time as they are
asked for, or one alone (`chunked`: store.papers.chunked), or those of some ids, made at once (`picked`). `FIELDS` are
a paper's, in the order the columns hold them; `COLUMNS` those an entry keeps as they are."""
from __future__ import annotations

import gc
import marshal
from collections.abc import Callable, Iterable, Sequence, Set as AbstractSet
from itertools import repeat

from store.common.collector import collector_paused
from store.common.sliced import joined, one as one_value
from store.papers.chunked import SIZE, Chunked
from store.papers.model import Paper, built
from store.papers.rows import Lookup
from store.readers import texts_entry

FIELDS = tuple(Paper.__dataclass_fields__)
COLUMNS = tuple(name for name in FIELDS if name not in ("text", "plain", "position", "fields"))
"""The fields an entry keeps as they are; the texts and display texts it keeps apart (the texts and the other fields
in its texts entry), and a paper's position is its row."""


def chunked(ids: list[str], columns: dict, ends: dict, same: dict, chunks: list, pairs: list, plains: list[bytes],
             lookups: dict[str, Lookup], let_go: Callable[[], None]) -> Chunked:
    """An entry's papers made a chunk at a time (`Chunked`) from its `columns` (each marshalled a slice of a chunk's
    papers at a time: `store.common.sliced`), each chunk's slices let go once it is made; `ends`: where each value is in
    its slice, of the columns so kept and of the display texts (`plain`: `store.common.sliced.indexed`), a paper made
    alone reads only its own values; `lookups` the rows of the values of some of its columns (`Chunked.lookups`);
    `let_go` what lets go of the pages the columns were read from (`Chunked`)."""
    per = SIZE // texts_entry.CHUNK  # (the texts entry's chunks in one of papers)
    shared: dict[str, tuple[list, memoryview]] = {}

    def distinct(name: str) -> tuple[list, memoryview]:
        """A field kept as its distinct values (`store.readers.entry_writer.SHARED`): them, and the index of each paper's
        (read where they are: 4 MB a field at 1,000,000 papers, not copied for the first paper made)."""
        if name not in shared:
            values, at = columns[name]
            shared[name] = (joined(values), memoryview(at).cast("I"))
        return shared[name]

    def column(name: str, k: int) -> Iterable:
        start, stop = k * SIZE, min(len(ids), (k + 1) * SIZE)
        if name == "id":
            return ids[start:stop]
        if name in ("text", "fields"):
            return texts_entry.kept((chunks if name == "text" else pairs)[k * per : (k + 1) * per], range(stop - start))
        if name == "position":
            return range(start, stop)
        if name not in columns:
            return repeat(same[name], stop - start)
        if type(columns[name]) is not tuple:
            return marshal.loads(columns[name][k])
        values, indices = distinct(name)
        return map(values.__getitem__, indices[start:stop])

    def value(name: str, at: int) -> object:
        """The field `name` of the paper at `at` alone (read alone from its slice: `store.common.sliced.one`)."""
        k, place = divmod(at, SIZE)
        if name == "id":
            return ids[at]
        if name == "position":
            return at
        if name not in columns:
            return same[name]
        if type(columns[name]) is not tuple:
            return one_value(columns[name][k], ends[name][k], place)
        values, indices = distinct(name)
        return values[indices[at]]

    def make(k: int) -> list[Paper]:
        values = {name: column(name, k) for name in FIELDS if name != "plain"}
        values["text"] = texts = list(values["text"])
        values["plain"] = (text if plain is None else None if plain is False else plain
                           for text, plain in zip(texts, marshal.loads(plains[k])))
        return built([values[name] for name in FIELDS])

    def one(at: int) -> Paper:
        k, place = divmod(at, SIZE)
        kept = slice(k * per, (k + 1) * per)  # (the texts entry's chunks of chunk `k`)
        try:
            values = {name: [value(name, at)] for name in FIELDS if name not in ("text", "fields", "plain")}
            values["text"], values["fields"] = texts_entry.kept(chunks[kept], [place]), texts_entry.kept(pairs[kept], [place])
            plain = one_value(plains[k], ends["plain"][k], place)
        except (IndexError, TypeError, ValueError, EOFError) as error:
            raise ValueError("damaged cache entry") from error
        values["plain"] = [values["text"][0] if plain is None else None if plain is False else plain]
        return built([values[name] for name in FIELDS])[0]

    def forget(k: int) -> None:
        for found in (*columns.values(), *ends.values()):
            if type(found) is not tuple:
                found[k] = None
        plains[k] = None

    if len(plains) != -(-len(ids) // SIZE) or SIZE % texts_entry.CHUNK:
        raise ValueError("damaged cache entry")
    return Chunked(ids, make, one, column, forget, lookups, let_go)


def picked(ids: list[str], wanted: AbstractSet[str], columns: dict, same: dict, chunks: list, pairs: list,
            plains: list[bytes]) -> list[Paper]:
    """Those of an entry's papers whose ids are `wanted`, made now."""
    chosen = [at for at, pid in enumerate(ids) if pid in wanted]
    with collector_paused():
        texts = texts_entry.kept(chunks, chosen)

        def of_chosen(column: Sequence[bytes] | tuple[list[bytes], bytes]) -> list:
            whole = joined(column)
            return [whole[at] for at in chosen]

        values = {name: of_chosen(columns[name]) if name in columns else repeat(same[name], len(chosen))
                  for name in COLUMNS if name != "id"}
        values["id"] = [ids[at] for at in chosen]
        values["text"], values["fields"] = texts, texts_entry.kept(pairs, chosen)
        values["plain"] = (text if plain is None else None if plain is False else plain for text, plain in zip(texts, of_chosen(plains)))
        values["position"] = chosen
        papers = built([values[name] for name in FIELDS])
        gc.freeze()  # (they live as long as their collection and form no cycles: out of the collector's walks)
    if len(papers) != len(chosen):  # (map stops at the shortest column)
        raise ValueError("damaged cache entry")
    return papers
