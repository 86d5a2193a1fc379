"""What a search index holds and how it is made: built from papers (the build's steps are store.search.index_build's),
given its titles' words once they are derived (`retitled`), kept as plain arrays and made again from them
(`parts`, `from_parts`: the index cache, store.readers.index_cache), and a `fingerprint` of what it is made
of. `Made` is the index's half that holds it; answering a query over it is store.search.index's `SearchIndex`."""
from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from copy import copy
from typing import Self

import numpy as np

from store.common import heap
from store.common.ahead import in_order
from store.search.index_build import (THREADS, Counted, Grouped, Named, Placing, Postings, Words, emptied, join_words, split_words,
                                      title_postings)
from store.search.words import BATCH, TF_BITS, TF_MAX
from store.papers.model import Paper, any_untitled, kept_name, kept_plain, kept_title
from store.search.phrases import Lowered, Phrases, head
from store.search.qualifiers import Facets
from store.search.vocabulary import Vocabulary, name_form

K1, B = 1.2, 0.75  # BM25 constants


class Made:
    """The index of `papers` as it is held: the postings of body, titles, authors and keywords over their
    vocabularies, the length of each text, the literal side (store.search.phrases) and the facets."""

    def __init__(self, papers: Iterable[Paper], bodies: Sequence[Counted | None] | Named = ()) -> None:
        """`bodies`: the words of the display texts of each `BATCH` of `papers`, counted already (by the
        parse's worker processes: `store.readers.records.counting`), and maybe named already (`Named`), or ()
        when not; None for a batch not."""
        with heap.large_apart():  # what the build frees goes back to the system after it (see store.common.heap)
            self._build(list(papers), bodies)

    def _assemble(self, papers: list[Paper], words: dict[str, int], body: Postings, title: Postings,
                  lengths: np.ndarray, lowered: Lowered | None, names: dict[str, int],
                  author: Postings, keyword: Postings) -> None:
        """Set up the index from what a build or a cache gives; the rest is quick to work out, and what
        a query of lower-case words does not need (the row of each id, the vocabulary as written, what
        qualifiers look at) is worked out when first asked, or by `qualifiers_ready` (after search is ready)."""
        self.papers = papers
        self.provisional = any_untitled(papers)
        """Whether the index was made before some of its papers' titles were derived (see `retitled`)."""
        self._words = words
        self._body = body
        self._title = title
        self._names = names
        self._author = author
        self._keyword = keyword
        self._lengths = lengths
        self._phrases = Phrases(papers, words, body, title, lowered)
        size = lengths.astype(np.float64)
        self._norm = K1 * (1 - B + B * size / (size.mean() if len(size) and size.mean() else 1.0))
        folded: defaultdict[str, list[str]] = defaultdict(list)
        for word in self._words:
            folded[word.casefold()].append(word)
        self._folded = dict(folded)
        self._vocab = _Vocabularies(self._folded, self._words)
        self._names_vocab = Vocabulary(self._names, ends=False)
        self._position = _Rows(papers)
        self._facets = Facets(papers, self._position)

    @classmethod
    def from_parts(cls, papers: Iterable[Paper], parts: Mapping[str, np.ndarray]) -> Self:
        """The index `parts()` of an index of these same `papers` describes; ValueError when the
        parts do not fit together or do not fit `papers` (not when they describe other papers
        of the same number: the caller makes sure of that)."""
        papers = list(papers)
        try:
            words, lengths, names = split_words(parts["words"]), parts["lengths"], split_words(parts["names"])
            body = Postings.checked(parts["body_bounds"], parts["body"], len(words), len(papers) << TF_BITS)
            title = Postings.checked(parts["title_bounds"], parts["title"], len(words), len(papers))
            author, keyword = (Postings.checked(parts[f"{name}_bounds"], parts[name], len(names), len(papers))
                               for name in ("author", "keyword"))
            lowered = Lowered(papers, parts["letters"], parts["chars"], Postings(parts["char_bounds"], parts["char_papers"]))
        except KeyError as missing:
            raise ValueError(f"no {missing} part") from None
        vocabulary, named = dict(zip(words, range(len(words)))), dict(zip(names, range(len(names))))
        if len(vocabulary) != len(words) or len(named) != len(names) or lengths.dtype != np.int64 or lengths.shape != (len(papers),):
            raise ValueError("index parts do not fit together")
        index = cls.__new__(cls)
        index._assemble(papers, vocabulary, body, title, lengths, lowered, named, author, keyword)
        return index

    def parts(self) -> dict[str, np.ndarray]:
        """What `from_parts` makes this index again from, as plain arrays (no Python objects):
        the postings of body, titles, authors and keywords, the number of words of each text, the vocabulary
        in word id order as UTF-8 text, a word a line (no word holds a line break), and that of the
        authors and keywords; how often each letter is in each display text, and which papers hold which
        character beyond ASCII (`store.search.phrases.Lowered`: made now if it is not yet). ValueError for a
        `provisional` index: what it is made of is not what its papers will be."""
        if self.provisional:
            raise ValueError("an index made before its papers' titles were derived")
        lowered = self._phrases.lowered
        return {
            "words": join_words(self._words), "body": self._body.values, "body_bounds": self._body.bounds,
            "title": self._title.values, "title_bounds": self._title.bounds, "lengths": self._lengths,
            "letters": lowered.letters, "chars": lowered.chars, "char_bounds": lowered.wide.bounds, "char_papers": lowered.wide.values,
            "names": join_words(self._names), "author": self._author.values,
            "author_bounds": self._author.bounds,
            "keyword": self._keyword.values, "keyword_bounds": self._keyword.bounds,
        }

    def retitled(self) -> Self:
        """This index with the titles and names its papers have now, which it was made before (`provisional`):
        the index a build makes of them now, the body's postings kept (~0.3 s at 100,000 papers)."""
        words, title = title_postings([head(p) for p in self.papers], self._words)
        if len(words) > len(self._words):  # words only the titles hold (rare: a derived title's are its text's)
            index = type(self).__new__(type(self))
            index._assemble(self.papers, words, self._body.widened(len(words)), title, self._lengths, None,
                            self._names, self._author, self._keyword)
            return index
        index = copy(self)  # the same words: all but what holds the titles' postings is this index's
        index._title, index._phrases = title, Phrases(self.papers, words, self._body, title, None)
        index.provisional = any_untitled(self.papers)
        return index

    def term_counts(self) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """The index as word counts, for models over its words (store.interest.ranking): the vocabulary in word
        id order, then for each posting its paper (row in file order), its word id and how often the
        word occurs there (capped at 15 in the body; a title word counts once more)."""
        words = list(self._words)  # (in id order: ids are given in order)
        body, title = self._body.values.astype(np.int64), self._title.values.astype(np.int64)
        every = np.arange(len(words))
        of_word = np.concatenate([np.repeat(every, np.diff(self._body.bounds)), np.repeat(every, np.diff(self._title.bounds))])
        times = np.concatenate([(body & TF_MAX).astype(np.float32), np.ones(len(title), np.float32)])
        return words, np.concatenate([body >> TF_BITS, title]), of_word, times

    def _build(self, papers: list[Paper], bodies: Sequence[Counted | None] | Named) -> None:
        # Built in batches with numpy rather than word by word in Python (see Words): the
        # index of 100,000 abstracts is ~20 million words. numpy lets go of the GIL, so two
        # threads find the words of the next batches while this one names them; batches also
        # keep each step short, so the app's UI thread is never held up for long.
        batches = [papers[start : start + BATCH] for start in range(0, len(papers), BATCH)]
        # Authors and keywords (`name_form`) have words of their own (`names`): most names are in no
        # abstract, and they need no cased or phrase lookup.
        prenamed = bodies.ids if isinstance(bodies, Named) else None
        bodies = (bodies.taken() if isinstance(bodies, Named) else list(bodies)) or [None] * len(batches)
        texts = [([p.plain for p in batch] if counted is None else [], [head(p) for p in batch],
                  [name_form(" ".join(p.authors)) for p in batch] + [name_form(" ".join(p.keywords)) for p in batch])
                 for batch, counted in zip(batches, bodies)]
        words = Words()
        if prenamed is not None:  # the words of the bodies named already: any other is named after them
            words.ids = prenamed
        names = Words()
        body: list[Placing] = []
        title: list[Placing] = []
        author: list[Placing] = []
        keyword: list[Placing] = []
        lengths: list[np.ndarray] = []
        starts = range(0, len(papers), BATCH)
        with ThreadPoolExecutor(THREADS) as pool:
            # (the lowered texts phrases are looked for in are made later: `literal_ready`, once search is)
            # The bodies' words are named first, all batches (as a parse's counted words are, as they arrive:
            # `Named`), then the words only titles hold.
            for start, in_body in zip(starts, in_order(pool, lambda item: item[0] or words.find(item[1][0]), zip(emptied(bodies), texts))):
                grouped = (in_body if isinstance(in_body, Grouped) else words.kept(in_body) if isinstance(in_body, Counted)
                           else words.count(in_body))
                body.append(grouped.placing(start << TF_BITS))  # (a pair: its text and count, as a posting is)
                lengths.append(grouped.lengths)
            found = in_order(pool, lambda three: (words.find(three[1]), names.find(three[2])), texts)
            for start, batch, (in_title, in_record) in zip(starts, batches, found):
                title.append(words.count(in_title).placing(start, TF_BITS))
                in_names = names.count(in_record)  # a text of authors, then one of keywords, per paper
                of_keyword = in_names.texts() >= len(batch)
                author.append(in_names.split(~of_keyword, start))
                keyword.append(in_names.split(of_keyword, start - len(batch)))
        vocabulary, named = dict(words.ids), dict(names.ids)  # plain dicts: looking up an unknown word adds nothing
        self._assemble(papers, vocabulary, Postings.placed(body, len(vocabulary)), Postings.placed(title, len(vocabulary)),
                       np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int64), None,
                       named, Postings.placed(author, len(named)),
                       Postings.placed(keyword, len(named)))


def fingerprint(papers: Sequence[Paper]) -> bytes:
    """A digest of all that an index of `papers` is made from: their display texts, titles and names (as
    far as they are known: `kept_title`), authors and keywords, in order. (An index also uses links, venues, years, areas and tracks,
    but works them out anew.) A display text the paper works out from its text (or keeps as a patch
    over it: `store.papers.model.kept_plain`) is the text's under this very code, which the index entry's
    key names too: the text stands for it, and no display text is made to be hashed."""
    digest = hashlib.blake2b(digest_size=16)
    for start in range(0, len(papers), BATCH):  # a batch at a time: one string of a long list is big
        fields = [field for p in papers[start : start + BATCH]
                  for field in (_plain_part(p), kept_title(p), kept_name(p), "\n".join(p.authors), "\n".join(p.keywords))]
        digest.update("".join(fields).encode("utf-8", "surrogatepass"))
        digest.update(np.fromiter(map(len, fields), np.int64, len(fields)).tobytes())  # where each one ends
    return digest.digest()


def _plain_part(paper: Paper) -> str:
    """What stands for a paper's display text in its `fingerprint`: the display text when the paper
    holds one of its own, else the text it is worked out from, marked apart (a text is no display text)."""
    kept = kept_plain(paper)
    return kept if isinstance(kept, str) else "\x00" + paper.text


class _Rows(Mapping[str, int]):
    """Paper id → its row among `papers`, made when first asked (~15 ms at 100,000 papers):
    a query's notes and tags ask only when some paper has one, the qualifiers only for marks."""

    def __init__(self, papers: list[Paper]) -> None:
        self._papers = papers
        self._rows: dict[str, int] | None = None

    def _made(self) -> dict[str, int]:
        if self._rows is None:
            self._rows = {p.id: i for i, p in enumerate(self._papers)}
        return self._rows

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._made()

    def __getitem__(self, paper_id: str) -> int:
        return self._made()[paper_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


class _Vocabularies(dict):
    """An index's two vocabularies, `False` → case-folded (`folded`: each case-folded word → the words
    it folds), `True` → as written: each made when first asked for (one of 25,000 words ~25 ms)."""

    def __init__(self, folded: dict[str, list[str]], words: dict[str, int]) -> None:
        super().__init__()
        self._of = {False: folded, True: words}

    def __missing__(self, cased: bool) -> Vocabulary:
        made = self[cased] = Vocabulary(self._of[cased])  # (two threads at once make it twice, alike)
        return made
