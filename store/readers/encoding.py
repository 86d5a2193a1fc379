"""Bytes of a list file to text: BOMs, UTF-8, then a charset guess among GB18030 and Windows-1252/Latin-1."""
from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes

from store.errors import ReadError

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# The legacy encodings lists really arrive in (an editor in a Chinese locale, an old Windows export);
# guessing among these few is reliable where an open-ended guess mistakes a GBK header for CP949.
_LEGACY = ["gb18030", "cp1252", "latin_1"]
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_CONTROL_SHARE = 0.05


def decode(data: bytes, path: str) -> str:
    """The text of a file: by its BOM, else UTF-8, else the likeliest legacy encoding. Line ends kept.

    Raises `ReadError` for an empty file and for binary data (NUL bytes outside UTF-16, or
    mostly control characters)."""
    if not data or data.isspace():  # (not data.strip(), without copying a long file)
        raise ReadError(path, "empty file")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return _checked(data.decode(encoding), path)
            except UnicodeDecodeError as exc:
                raise ReadError(path, f"not valid {encoding.upper()} text (byte {exc.start})") from None
    if b"\x00" in data:
        raise ReadError(path, "binary file, not a text list of abstracts")
    try:
        return _checked(data.decode("utf-8"), path)
    except UnicodeDecodeError:
        pass
    best = from_bytes(data, cp_isolation=_LEGACY).best()
    if best is None:
        raise ReadError(path, "cannot tell the text encoding (save it as UTF-8)")
    return _checked(str(best), path)


def _checked(text: str, path: str) -> str:
    if not text or text.isspace():
        raise ReadError(path, "empty file")
    sample = text[:65536]
    if len(_CONTROL.findall(sample)) > _CONTROL_SHARE * len(sample):
        raise ReadError(path, "binary file, not a text list of abstracts")
    return text
