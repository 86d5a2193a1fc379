"""What a list's papers are matched by across sources (`store.library.identity`), worked out for a whole list at
once: each paper's plain title (`plain`: case, accents, spaces and punctuation aside), DOI (case-folded) and
OpenReview id (`openreview_id`), as columns, one value a paper in the list's order (`Columns`), '' where it has none.

Made in few passes in C (no Python call a paper but for a title with letters other than ASCII's, rare), and kept
beside a long list's parse entry (`store.readers.match_cache`), so a list opened again with marks from another
source looks each up without making them again."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from itertools import compress
from operator import attrgetter, not_
from typing import NamedTuple

from store.papers.model import Paper

OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_\-]+)")
"""An OpenReview link, its id the group."""
KEPT_FROM = 2_000
"""A list of this many papers (to look at) and more keeps its columns (`store.readers.match_cache`); a shorter one
makes them when asked (~2 ms)."""
_NOT_ALNUM = re.compile(r"[\W_]+")
_ASCII_NOT_ALNUM = bytes(byte for byte in range(128) if not chr(byte).isalnum())
_ASCII_NOT_ALNUM_NOR_NUL = _ASCII_NOT_ALNUM[1:]
_ASCII_LOWER = bytes(range(256)).lower()


def plain(text: str) -> str:
    """`text` case-folded, without accents, spaces or punctuation: "Déjà-Vu: {GANs}" → "dejavugans". (An ASCII
    text, most titles, as bytes: a tenth of the pattern's time.)"""
    if text.isascii():
        return text.encode().translate(_ASCII_LOWER, _ASCII_NOT_ALNUM).decode()
    text = text.casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)  # an accent comes apart from its letter, and goes
    return _NOT_ALNUM.sub("", text)


def openreview_id(links: tuple[str, ...]) -> str:
    """The OpenReview id in the first of `links` on openreview.net that has one; ''."""
    for link in links:
        found = OPENREVIEW.search(link)
        if found:
            return found[1]
    return ""


class Columns(NamedTuple):
    """A list's papers' keys, a column each, one value a paper in the list's order ('' for none)."""

    titles: list[str]
    """`plain` of the title of each paper that has authors (a title alone names no paper)."""
    dois: list[str]
    openreview: list[str]
    """`openreview_id` of its links."""


def columns(papers: Sequence[Paper]) -> Columns:
    return Columns(titles(papers), dois(papers), openreview(papers))


def titles(papers: Sequence[Paper]) -> list[str]:
    """The titles column of `papers`: their titles joined in one text made `plain` in one pass as ASCII bytes; a
    title with other letters (or a NUL) made `plain` alone."""
    titled = list(map(attrgetter("title"), papers))
    authored = list(map(attrgetter("authors"), papers))
    if not all(authored):  # (a paper without authors: no title read, none derived)
        titled = [title if names else "" for title, names in zip(titled, authored)]
    flat = "\0".join(titled).encode("utf-8", "surrogatepass").translate(_ASCII_LOWER, _ASCII_NOT_ALNUM_NOR_NUL)
    found = flat.decode("utf-8", "surrogatepass").split("\0")
    if len(found) != len(titled):  # (a title holding a NUL; or no title at all)
        return [plain(title) for title in titled]
    for at in compress(range(len(titled)), map(not_, map(str.isascii, titled))):
        found[at] = plain(titled[at])
    return found


def dois(papers: Sequence[Paper]) -> list[str]:
    return list(map(str.casefold, map(attrgetter("doi"), papers)))


def openreview(papers: Sequence[Paper]) -> list[str]:
    return list(map(openreview_id, map(attrgetter("links"), papers)))
