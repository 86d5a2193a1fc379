"""The vocabularies kept beside an engine's index, and the values its qualifiers look among.

Made once by `made`, from the index's own term dictionaries, as the texts of plain files: `write` puts them in the
folder (sealed with it by store.search.engine.folder's manifest), an engine in memory keeps them as they are. `Lexicon`
reads each when first asked (a query of one kind needs one of them):
- `words.txt`: the words of titles and texts, case-folded (what a lower-case query word is looked up in, with
  typos: store.search.vocabulary's `words_matched`), and `unfolded.json`, the index's lower-cased forms of
  those whose case-folding differs (`straße` for `strasse`);
- `cased.txt`: the words as written (a query word with a capital), and `written.json`, the forms as written of
  each case-folded word that has any but itself (what a highlight marks: `Graph` and `GRAPH` for `graph`);
- `names.txt`: the words of authors and keywords as looked up (`name_form`);
- `facets.json`: each qualifier field's distinct values (`venue:iclr` is every venue holding `iclr`).
"""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from functools import cached_property
from pathlib import Path

import tantivy

from store.search.engine.documents import CASED, FACETS, GAP
from store.search.vocabulary import Vocabulary

FILES = ("words.txt", "unfolded.json", "cased.txt", "written.json", "names.txt", "facets.json")


def _terms(searcher: tantivy.Searcher, *fields: str) -> set[str]:
    return {term for field in fields for term, _ in searcher.terms_with_prefix(field, "")} - {GAP}


def _lines(words: set[str]) -> str:
    return "\n".join(sorted(words))


def _forms(words: set[str], among: set[str]) -> dict[str, list[str]]:
    """Case-folded word → its forms among `words` (with itself when among `among`), for those with a form but itself."""
    forms: defaultdict[str, list[str]] = defaultdict(list)
    for word in words:
        if word.casefold() != word:
            forms[word.casefold()].append(word)
    for folded_word, found in forms.items():
        found += [folded_word] if folded_word in among else []
    return forms


def made(searcher: tantivy.Searcher) -> dict[str, str]:
    """The texts of a `Lexicon`'s files (`FILES`), from the term dictionaries of the index `searcher` reads."""
    lowered, cased = _terms(searcher, "head", "body"), _terms(searcher, *CASED)
    return {"words.txt": _lines({word.casefold() for word in lowered}), "unfolded.json": json.dumps(_forms(lowered, lowered)),
            "cased.txt": _lines(cased), "written.json": json.dumps(_forms(cased, cased)),
            "names.txt": _lines(_terms(searcher, "authors", "keywords")),
            "facets.json": json.dumps({field: sorted(_terms(searcher, field)) for field in FACETS})}


def write(searcher: tantivy.Searcher, folder: Path) -> None:
    """The files of a `Lexicon` in `folder` (`made`)."""
    for name, text in made(searcher).items():
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")


def _words(text: str) -> list[str]:
    return text.split("\n") if text else []


class Lexicon:
    """The vocabularies of an index, each read when first asked: `texts` gives a file's text by its name (an index
    folder's file, `in_folder`, or `made`'s text kept in memory)."""

    def __init__(self, texts: Callable[[str], str]) -> None:
        self._texts = texts

    @classmethod
    def in_folder(cls, folder: Path) -> Lexicon:
        return cls(lambda name: (folder / name).read_text(encoding="utf-8", errors="surrogatepass"))

    @cached_property
    def folded(self) -> Vocabulary:
        return Vocabulary(_words(self._texts("words.txt")))  # (`ending`: a phrase's first word)

    @cached_property
    def unfolded(self) -> dict[str, list[str]]:
        return json.loads(self._texts("unfolded.json"))

    @cached_property
    def cased(self) -> Vocabulary:
        return Vocabulary(_words(self._texts("cased.txt")), ends=False)

    @cached_property
    def _written(self) -> dict[str, list[str]]:
        return json.loads(self._texts("written.json"))

    @cached_property
    def names(self) -> Vocabulary:
        return Vocabulary(_words(self._texts("names.txt")), ends=False)

    @cached_property
    def facets(self) -> dict[str, list[str]]:
        return json.loads(self._texts("facets.json"))

    def lowered(self, folded: str) -> list[str]:
        """The index's lower-cased forms of a case-folded word (most are the word itself)."""
        return self.unfolded.get(folded, [folded])

    def written(self, folded: str) -> list[str]:
        """The forms of a case-folded word as written in the texts (most are the word itself)."""
        return self._written.get(folded, [folded])
