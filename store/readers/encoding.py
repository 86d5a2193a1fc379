"""Bytes of a list file to text: BOMs, UTF-8, then the legacy encoding the bytes read best in.

Legacy encodings: the East Asian ones (GB18030/GBK, Big5, Shift-JIS, EUC-KR) told apart by which
characters each reading gives (see `_east_asian`), else a charset guess between Windows-1252 and
Latin-1 (and GB18030 for Chinese text the first test was unsure of).

`utf8_pieces` reads a UTF-8 file a piece at a time instead: a long list is never one string beside
its bytes (a 145 MB list is a 290 MB string when one character of it is beyond Latin-1)."""
from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple

from charset_normalizer import from_bytes
from charset_normalizer.constant import COMMON_CHINESE_CHARACTERS

from store.common.errors import ReadError

# (a BOM, what decodes the file, what decodes a part of it after the BOM)
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig", "utf-8"), (codecs.BOM_UTF16_LE, "utf-16", "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16", "utf-16-be"))
# The other legacy encodings lists really arrive in (an old Windows export; Chinese text the East
# Asian test was unsure of): guessing among these few is reliable where an open-ended guess
# mistakes a GBK header for CP949.
_LEGACY = ["gb18030", "cp1252", "latin_1"]
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_CONTROL_SHARE = 0.05


class _EastAsian(NamedTuple):
    """A double-byte encoding and the part of its table that ordinary text is written in."""

    codec: str
    """What the bytes are decoded with (the Windows superset lists are saved in)."""
    table: str
    """What a decoded character is looked up in: its two-byte code there."""
    typical: tuple[tuple[int, int], ...]
    """Ranges of those codes holding the everyday characters: punctuation, kana, the frequent level
    of hanzi or kanji, Hangul syllables. Rare characters, symbols, half-width kana, Hanja in
    Korean, vendor additions are left out: the bytes of one encoding read in another mostly
    land there (Shift-JIS kana read as GBK are rare GBK additions, Big5 read as GBK gives kana
    and private-use characters...)."""
    min_trail: int = 0x40
    """The lowest second byte of a typical code: GB2312 and KS X 1001 use 0xA1-0xFE only, the
    GBK and Windows Korean additions lower ones too."""


_EAST_ASIAN = (  # in order of preference when two readings are as typical
    _EastAsian("gb18030", "gb18030", ((0xA1A1, 0xA1FE), (0xA3A1, 0xA3FE), (0xA6A1, 0xA6FE), (0xB0A1, 0xF7FE)), 0xA1),
    _EastAsian("cp950", "cp950", ((0xA140, 0xA3FE), (0xA440, 0xC67E))),
    _EastAsian("cp932", "cp932", ((0x8140, 0x81FC), (0x829F, 0x83D6), (0x889F, 0x9872))),
    _EastAsian("cp949", "euc_kr", ((0xA1A1, 0xA1FE), (0xA3A1, 0xA3FE), (0xB0A1, 0xC8FE)), 0xA1),
)
_TYPICAL_SHARE = 0.9
"""The share of a reading's non-ASCII characters that must be typical for it to be believed."""
_COMMON_CHINESE = frozenset(COMMON_CHINESE_CHARACTERS)  # the ~500 characters that make most of Chinese text
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_SAMPLE = 65536
_HIGH_BYTES = re.compile(rb"[\x80-\xff]+")
_LONE = re.compile(r"(?<![^\x00-\x7f])[^\x00-\x7f](?![^\x00-\x7f])")
_PIECE = 1 << 20  # bytes read at a time by `utf8_pieces`
CHECKED = 65536
"""The characters of a text `checked` looks at (a file read in pieces is checked on its first pieces that hold as many)."""


class NotPlainUtf8(Exception):
    """A file `utf8_pieces` does not read: one to decode whole (`decoded` tells what it is)."""


def utf8_pieces(source: BinaryIO) -> Iterator[str]:
    """The text `decode` makes of a UTF-8 file (a UTF-8 BOM skipped), a piece at a time, each piece
    ending at a line end but the last. Raises `NotPlainUtf8` (before its first piece, or later: the
    pieces given so far are then void) for a file it cannot tell is UTF-8 text: a UTF-16 BOM, a NUL
    byte, bytes UTF-8 does not read. (A piece ends after a line feed, which is no part of any other
    UTF-8 character: the pieces decode as the whole does.)"""
    kept = bytearray()
    start = True
    while block := source.read(_PIECE):
        if start:
            if block.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
                raise NotPlainUtf8
            block = block.removeprefix(codecs.BOM_UTF8)
            start = False
        if b"\x00" in block:
            raise NotPlainUtf8
        kept += block
        end = kept.rfind(b"\n") + 1
        if end:
            yield _utf8(kept[:end])
            del kept[:end]
    if kept:
        yield _utf8(kept)


def _utf8(data: bytearray) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotPlainUtf8 from None


def decode(data: bytes, path: str) -> str:
    """The text of a file: by its BOM, else UTF-8, else the likeliest legacy encoding. Line ends kept.

    Raises `ReadError` for an empty file and for binary data (NUL bytes outside UTF-16, or
    mostly control characters)."""
    return decoded(data, path)[0]


def decoded(data: bytes, path: str) -> tuple[str, str]:
    """`decode(data, path)` and the codec it was read with: what reads any part of the bytes between
    two characters (past a BOM) as that part of the text."""
    if not data or data.isspace():  # (not data.strip(), without copying a long file)
        raise ReadError(path, "empty file")
    for bom, encoding, codec in _BOMS:
        if data.startswith(bom):
            try:
                return checked(data.decode(encoding), path), codec
            except UnicodeDecodeError as exc:
                raise ReadError(path, f"not valid {encoding.upper()} text (byte {exc.start})") from None
    if b"\x00" in data:
        raise ReadError(path, "binary file, not a text list of abstracts")
    try:
        return checked(data.decode("utf-8"), path), "utf-8"
    except UnicodeDecodeError:
        pass
    found = _east_asian(data)
    if found is not None:
        return checked(found[0], path), found[1]
    best = from_bytes(data, cp_isolation=_LEGACY).best()
    if best is None:
        raise ReadError(path, "cannot tell the text encoding (save it as UTF-8)")
    return checked(str(best), path), best.encoding


def _typical_share(reading: str, encoding: _EastAsian) -> float:
    """The share of the non-ASCII characters of `reading` that are typical of `encoding`."""
    counts = Counter(_NON_ASCII.findall(reading))
    typical = 0
    for char, count in counts.items():
        try:
            code = char.encode(encoding.table)
        except UnicodeEncodeError:
            continue
        if len(code) == 2 and code[1] >= encoding.min_trail:
            value = code[0] << 8 | code[1]
            typical += count * any(low <= value <= high for low, high in encoding.typical)
    return typical / max(1, sum(counts.values()))


def _chinese_share(reading: str) -> float:
    chars = _NON_ASCII.findall(reading)
    return sum(char in _COMMON_CHINESE for char in chars) / max(1, len(chars))


def _east_asian(data: bytes) -> tuple[str, str] | None:
    """`data` read in the East Asian encoding whose reading is made of the characters text in it
    is made of, and that codec; or None when no reading is (Western text, or too unusual to tell).

    The readings are compared on a sample from the first non-ASCII character (a header is short and
    comes first); the encoding whose reading has the most typical characters wins, if it reads
    the whole file. Hangul syllables also read as everyday hanzi in GBK (and often Big5), as some
    short Chinese texts read as Hangul: where they tie, Korean wins only when the Chinese readings
    are mostly not among the common Chinese characters (Korean read as GBK makes a rare hanzi of
    most syllables); else the order of `_EAST_ASIAN` decides."""
    first = _HIGH_BYTES.search(data)
    if first is None:
        return None
    start = max(0, first.start() - 1)  # (with the ASCII character before: which is no trail byte)
    sample = data[start : start + _SAMPLE]
    readings = {}
    for encoding in _EAST_ASIAN:
        try:
            reading = codecs.getincrementaldecoder(encoding.codec)().decode(sample, final=len(sample) == len(data))
        except UnicodeDecodeError:
            continue
        readings[encoding.codec] = (_typical_share(reading, encoding), reading)
    while readings:
        best = max(share for share, _ in readings.values())
        if best < _TYPICAL_SHARE:
            return None
        tied = [codec for codec, (share, _) in readings.items() if share == best]
        codec = tied[0]
        if "cp949" in tied and all(_chinese_share(readings[other][1]) < 0.5 for other in tied if other != "cp949"):
            codec = "cp949"
        if _western(sample, readings[codec][1]):
            return None
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:  # past the sample: not this one
            del readings[codec]
    return None


def _western(sample: bytes, reading: str) -> bool:
    """Whether `sample`, read as East Asian `reading`, is rather Western text with accents.

    Accents sit alone or in pairs inside words ("Müller", "voilàé"), and such bytes can read as
    everyday hanzi in GBK or Big5, one lone hanzi per accent; East Asian text runs its
    characters together. Western: most non-ASCII bytes are in runs of one or two beside an ASCII
    letter, and most characters of the reading stand alone."""
    in_words = total = 0
    for run in _HIGH_BYTES.finditer(sample):
        start, end = run.span()
        total += end - start
        if end - start <= 2 and (sample[start - 1 : start].isalpha() or sample[end : end + 1].isalpha()):
            in_words += end - start
    if in_words * 2 <= total:
        return False
    return len(_LONE.findall(reading)) * 2 > len(_NON_ASCII.findall(reading))


def checked(text: str, path: str) -> str:
    """`text` (a file's, or its first 65,536 characters and more); `ReadError` when it is empty or
    made of control characters."""
    if not text or text.isspace():
        raise ReadError(path, "empty file")
    sample = text[:CHECKED]
    if len(_CONTROL.findall(sample)) > _CONTROL_SHARE * len(sample):
        raise ReadError(path, "binary file, not a text list of abstracts")
    return text
