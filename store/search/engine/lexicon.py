"""The vocabularies kept beside an engine's index, and the values its qualifiers look among.

Written once by `write`, from the index's own term dictionaries, as plain files of the folder (sealed with it by
store.search.engine.folder's manifest); read by `Lexicon` when first asked (a query of one kind needs one of them):
- `words.txt`: the words of titles and texts, case-folded (what a lower-case query word is looked up in, with
  typos: store.search.vocabulary's `words_matched`), and `unfolded.json`, the index's lower-cased forms of
  those whose case-folding differs (`straße` for `strasse`);
- `cased.txt`: the words as written (a query word with a capital);
- `names.txt`: the words of authors and keywords as looked up (`name_form`);
- `facets.json`: each qualifier field's distinct values (`venue:iclr` is every venue holding `iclr`).
"""
from __future__ import annotations

import json
from collections import defaultdict
from functools import cached_property
from pathlib import Path

import tantivy

from store.search.engine.documents import CASED, FACETS, GAP
from store.search.vocabulary import Vocabulary

FILES = ("words.txt", "unfolded.json", "cased.txt", "names.txt", "facets.json")


def _terms(searcher: tantivy.Searcher, *fields: str) -> set[str]:
    return {term for field in fields for term, _ in searcher.terms_with_prefix(field, "")} - {GAP}


def write(searcher: tantivy.Searcher, folder: Path) -> None:
    """The files of a `Lexicon`, from the term dictionaries of the index `searcher` reads."""
    lowered = _terms(searcher, "head", "body")
    unfolded: defaultdict[str, list[str]] = defaultdict(list)
    for word in lowered:
        if word.casefold() != word:
            unfolded[word.casefold()].append(word)
    for folded_word, forms in unfolded.items():
        forms += [folded_word] if folded_word in lowered else []
    folded = {word.casefold() for word in lowered}
    (folder / "words.txt").write_text("\n".join(sorted(folded)), encoding="utf-8", errors="surrogatepass")
    (folder / "unfolded.json").write_text(json.dumps(unfolded))
    (folder / "cased.txt").write_text("\n".join(sorted(_terms(searcher, *CASED))), encoding="utf-8", errors="surrogatepass")
    (folder / "names.txt").write_text("\n".join(sorted(_terms(searcher, "authors", "keywords"))), encoding="utf-8",
                                      errors="surrogatepass")
    (folder / "facets.json").write_text(json.dumps({field: sorted(_terms(searcher, field)) for field in FACETS}))


def _words(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="surrogatepass")
    return text.split("\n") if text else []


class Lexicon:
    """The vocabularies of an index folder, each read when first asked."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder

    @cached_property
    def folded(self) -> Vocabulary:
        return Vocabulary(_words(self._folder / "words.txt"))  # (`ending`: a phrase's first word)

    @cached_property
    def unfolded(self) -> dict[str, list[str]]:
        return json.loads((self._folder / "unfolded.json").read_text())

    @cached_property
    def cased(self) -> Vocabulary:
        return Vocabulary(_words(self._folder / "cased.txt"), ends=False)

    @cached_property
    def names(self) -> Vocabulary:
        return Vocabulary(_words(self._folder / "names.txt"), ends=False)

    @cached_property
    def facets(self) -> dict[str, list[str]]:
        return json.loads((self._folder / "facets.json").read_text())

    def lowered(self, folded: str) -> list[str]:
        """The index's lower-cased forms of a case-folded word (most are the word itself)."""
        return self.unfolded.get(folded, [folded])
