"""What a paper is in the engine's index: its fields (`schema`) and their tokens (`document`).

Words are the project's (`WORD`), found in Python and handed to tantivy one a space (its `whitespace`
tokenizer), so the index holds exactly the words a query looks up (store.search.vocabulary):
- `head` (the title with the name, as store.search.phrases.head) and `body` (the display text): the text
  lower-cased with single spaces (as a phrase is looked for, store.search.phrases.lower), with positions. Two
  words with anything but one space between them are kept apart by a `GAP` (a token no query
  asks for), so a phrase query over consecutive positions is exactly a literal phrase of words one space apart;
- `head_cased` and `body_cased`: the words as written (a word with a capital matches case-sensitively);
- `body_chars`: which characters its lower-cased words hold: each ASCII letter, digit or `_` they do not hold,
  as `-c`, and each other character they hold, as itself (a literal of one character, `"n` as a phrase is begun,
  is then all papers but those of one term: a regex over every word of the texts holding it, the union of most of
  the index's postings, took ~130 ms at 1,000,000 papers, ~35 ms so; the titles' words are few enough for theirs; the
  missing ASCII ones rather than those present: ~7 terms a paper rather than ~30; ~5% more CPU to build);
- `authors` and `keywords`: each name's words as looked up (`name_form`), names `GAP` apart (`author:"a b"`
  holds the words in one name, in order);
- `venue`, `year`, `area`, `track`, `session`, `announce`, `has`: the values the qualifiers look at, whole;
- `id` (the paper's), `row` (its place in the list: ties keep file order), and the stored texts a literal
  match the index can only narrow is checked on (`plain`, `head_text`).
"""
from __future__ import annotations

import re

import tantivy

from store.papers.model import Paper, flat
from store.papers.slots import ALSO, ANNOUNCE, SLOT, announced, slot_words
from store.search.phrases import head, lower
from store.search.qualifiers import CODE_HOSTS
from store.search.vocabulary import WORD, name_form

GAP = "\x01"
"""The token between two words that are not one space apart, and between two names: never a word."""
POSITIONED = ("head", "body", "authors", "keywords")
CASED = ("head_cased", "body_cased")
CHARS = "body_chars"
FACETS = ("venue", "year", "area", "track", "session", "announce", "has")


def schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_unsigned_field("row", fast=True)
    for name in POSITIONED:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="position")
    for name in CASED:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="basic")
    builder.add_text_field(CHARS, tokenizer_name="raw", index_option="basic")
    for name in FACETS:
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    builder.add_bytes_field("plain", stored=True, indexed=False)
    builder.add_bytes_field("head_text", stored=True, indexed=False)
    return builder.build()


def new_index(path: str | None = None) -> tantivy.Index:
    """An empty index of `schema` (in the folder `path`, else in memory) whose documents are kept in `row` order
    (tantivy's index sorting): a segment's documents, and those of a merge of segments, in list order, so that a
    long list's folder, merged while it was built, is still in list order (store.search.engine.folder's `ordered`:
    at 1,000,000 papers, a query whose first screen ties, `"n`, read every hit again without it, ~0.8 s)."""
    return tantivy.Index(schema(), path=path, sort_by_field="row")


_APART = re.compile(r"[^\w\u0300-\u036f ]+")
"""Characters between words but spaces (a lowered text has no other spacing): each run of them a `GAP`."""


_GAPS_ASCII = str.maketrans(dict.fromkeys([c for c in map(chr, range(128)) if not (c.isalnum() or c in "_ ")], GAP))
"""Each ASCII character `_APART` matches made a `GAP` (so a run of them is a run of `GAP`s)."""


def _gapped_ascii(text: str) -> str:
    """`_APART.sub(f" {GAP} ", text)` of an ASCII text, ~2.5x quicker: its characters between words made `GAP`s by a
    `translate` (a table lookup a character, in C), and each run of them then one `GAP` with a space either side
    (the pieces between two runs are never empty, those within a run always)."""
    pieces = text.translate(_GAPS_ASCII).split(GAP)
    if len(pieces) == 1:
        return text
    return f" {GAP} ".join([pieces[0], *filter(None, pieces[1:-1]), pieces[-1]])


def lowered(text: str) -> str:
    """The words of `text` lower-cased with single spaces, a `GAP` (or more) where two are not one space apart."""
    return _APART.sub(f" {GAP} ", lower(text))


def spelled(text: str) -> tuple[str, str]:
    """(`lowered(text)`, the words of `text` as written, one space apart or more), from one pass of a regex (of a
    table for an ASCII text, `_gapped_ascii`): the words as written with their `GAP`s, lower-cased then (lower-casing
    keeps what each character is: a word's, a space or another, tests/test_engine_documents.py), and without them
    (~40% less CPU than `lowered` and `WORD.findall`)."""
    text = flat(text)
    gapped = _gapped_ascii(text) if text.isascii() else _APART.sub(f" {GAP} ", text)
    return gapped.lower(), gapped.replace(GAP, "")


ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_"
"""The ASCII characters a lower-cased word may hold (`body_chars` holds those it does not)."""
_BEYOND_ASCII = str.maketrans(dict.fromkeys(range(128)))
"""A text's characters beyond ASCII (a `translate` that drops the others)."""


def characters(lowered_text: str) -> list[str]:
    """What `body_chars` holds of a `lowered` text: `-c` for each character c of `ALPHABET` its words do not hold, and
    each other character they hold (from what is left of the text without ASCII)."""
    return ["-" + c for c in ALPHABET if c not in lowered_text] + list(set(lowered_text.translate(_BEYOND_ASCII)))


def named(items: tuple[str, ...]) -> str:
    """The words of each name (or keyword) as looked up, names `GAP` apart."""
    return f" {GAP} ".join(" ".join(WORD.findall(name_form(item))) for item in items)


_SLOTTED = frozenset((*SLOT, *ALSO, ANNOUNCE))
"""The fields `slot_words` and `announced` read: a paper with none of them (an arXiv snapshot's, with its submitter
and license) has neither, found in one look at its fields rather than six (each a JSON decoding once the texts
entry holds them: 20 -> 9 µs a paper)."""


def facets(paper: Paper) -> dict[str, list[str]]:
    """The values the qualifiers look at (store.search.qualifiers.Facets), each as one token."""
    has = [kind for kind, holds in (("code", any(h in link for link in paper.links for h in CODE_HOSTS)),
                                    ("link", bool(paper.links))) if holds]
    slotted = any(name in _SLOTTED for name, _ in paper.fields)
    return {"venue": [f"{paper.venue} {paper.track}".strip().casefold()], "year": [str(paper.year)],
            "area": [paper.area.casefold()], "track": [paper.track], "session": [slot_words(paper) if slotted else ""],
            "announce": [announced(paper) if slotted else ""], "has": has}


def document(paper: Paper, row: int) -> tantivy.Document:
    plain, title = paper.plain or "", head(paper)
    (head_lowered, head_cased), (body, body_cased) = spelled(title), spelled(plain)
    doc = tantivy.Document(id=paper.id, head=head_lowered, body=body, head_cased=head_cased, body_cased=body_cased,
                           body_chars=characters(body),
                           authors=named(paper.authors), keywords=named(paper.keywords), **facets(paper))
    doc.add_unsigned("row", row)
    doc.add_bytes("plain", plain.encode("utf-8", "surrogatepass"))
    doc.add_bytes("head_text", title.encode("utf-8", "surrogatepass"))
    return doc
