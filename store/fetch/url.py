"""Any list the readers know, from a URL (a PMLR volume's .bib, an ACL Anthology .bib or .bib.gz, a
.jsonl): saved whole as the server sent it (a .gz unpacked, within the size limit), one file a day.
The file is one record: a later fetch that gets the same bytes saves nothing; changed bytes replace
the day's file."""
from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from store.common.errors import ReadError
from store.fetch.client import Client
from store.fetch.saved import feed_name
from store.fetch.source import Page
from store.readers import KNOWN_EXTENSIONS


def _suffixes(url: str) -> tuple[str, str, bool]:
    """(the file's name without its extensions, its extension, whether it is gzipped) from a URL's path."""
    name = unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2]) or "list"
    packed = name.lower().endswith(".gz")
    if packed:
        name = name[:-3]
    stem, dot, ext = name.rpartition(".")
    return (stem, f".{ext.lower()}", packed) if dot else (name, "", packed)


@dataclass
class Url:
    url: str
    limit: int = 256 << 20

    def __post_init__(self) -> None:
        if urlsplit(self.url).scheme not in ("http", "https"):
            raise ReadError(self.url, "only http:// and https:// addresses are fetched")
        stem, self.suffix, self.packed = _suffixes(self.url)
        if self.suffix not in KNOWN_EXTENSIONS:
            raise ReadError(self.url, f"not a list the readers know ({', '.join(KNOWN_EXTENSIONS)}, or one of them .gz)")
        self.name = feed_name("url", urlsplit(self.url).hostname or "", stem)

    def pages(self, client: Client, since: object | None) -> Iterator[Page]:
        body = client.get(self.url)
        if self.packed:
            unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
            try:
                body = unpack.decompress(body, self.limit)
            except zlib.error as exc:
                raise ReadError(self.url, f"not a gzip file: {exc}") from None
            if unpack.unconsumed_tail:
                raise ReadError(self.url, f"unpacks to more than {self.limit >> 20} MB: not saved")
        yield self.scan(body, self.url)

    def scan(self, body: bytes, where: str) -> Page:
        return Page(b"", [body], [hashlib.sha256(body).hexdigest()], [0], b"", 1)

    def combine(self, head: bytes, records: list[bytes], tail: bytes) -> bytes:
        return records[-1]
