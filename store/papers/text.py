"""Abstract text for display and search: markup read into styled spans over a plain string.

`display(text)` turns an abstract as a source has it into a `Display`: the plain text a
reader sees (and search runs over) plus style spans over it. Understood:

- `**bold**`, `*italic*`, `` `code` ``; `[text](url)` becomes `text` with a link span;
- `$...$` / `$$...$$` math and LaTeX outside math (`\\textbf{x}`, `{\\em x}`, `\\%`,
  accents such as `{\\"o}`, brace protection such as `{B}ayesian`) rendered to Unicode
  through pylatexenc, which only ever sees those short segments (`store.papers.latex`);
- URLs with or without a scheme (`github.com/a/b`) become link spans; trailing punctuation is
  not part of a URL. A URL found without a scheme is linked as `https://` + the text.
- inline HTML as PMLR pages and some JSON dumps have it: `<em>`/`<i>` italic, `<b>`/`<strong>`
  bold, `<code>`/`<tt>` code, `<a href>` a link, `<sub>`/`<sup>` Unicode sub- and superscripts
  where they all exist (else the plain text), `<br>`/`<p>` a space, other known inline tags
  (`<span>`, `<u>`...) dropped, entities (`&amp;`, `&lt;`, `&#39;`) decoded. Only a known tag
  with its closing tag is HTML: `a < b`, `x<y`, `<unk> token`, `List<int>` stay as written.

Everything else stays literal: square brackets are never markup, and control characters,
terminal escape sequences and invisible format characters are removed first (`store.papers.inert`).
"""
from __future__ import annotations

import html
import re
import struct
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from store.papers.inert import inert
from store.papers.latex import latex

SHOWN_LIMIT = 20_000
"""The most of an abstract laid out on the screen or read for a title (the longest real abstracts
are a few thousand characters; a 10 MB one would freeze each redraw): search, citations and
exports still take the whole text."""


def shown_part(plain: str) -> tuple[str, int]:
    """The part of a display text that is shown (`SHOWN_LIMIT` characters, cut at a space when one
    is near) and how many characters are left out (0 for any real abstract)."""
    if len(plain) <= SHOWN_LIMIT:
        return plain, 0
    cut = plain.rfind(" ", SHOWN_LIMIT - 200, SHOWN_LIMIT)
    cut = cut if cut != -1 else SHOWN_LIMIT
    return plain[:cut], len(plain) - cut


class Span(NamedTuple):
    """A styled stretch `plain[start:end]`; `kind` is bold, italic, code, math or link (with its `url`)."""

    start: int
    end: int
    kind: str
    url: str = ""


@dataclass(frozen=True, slots=True)
class Display:
    """What an abstract shows: `plain` text without markup and the style spans over it, in order."""

    plain: str
    spans: tuple[Span, ...] = ()

    @property
    def links(self) -> tuple[str, ...]:
        """The URLs of the link spans, in order, each once."""
        return tuple(dict.fromkeys(span.url for span in self.spans if span.kind == "link"))


_TRAILING = ".,;:!?)]}*_'\"”’>"
_URL_BODY = r"[^\s<>\"'`{}\[\]|\\^“”‘’]+"
_URL = re.compile(rf"https?://{_URL_BODY}")
_MARKUP_START = re.compile(r"[\\$*`\[{]")
_MARKUP = re.compile(
    r"(?P<link>\[(?P<ltext>[^\[\]\n]+)\]\((?P<lurl>(?:https?://|www\.)[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)\))"
    r"|(?P<code>`(?P<ctext>[^`\n]+)`)"
    r"|(?P<math>\$\$(?P<m2>[^$]+)\$\$|\$(?P<m1>(?:[^\s$\\]|\\.)(?:(?:[^$\\\n]|\\.)*?(?:[^\s$\\]|\\.))??)\$(?!\d))"
    # (bold text never holds `**`: a `**` that is not closed is looked past at the next one, not
    # to the end of the line, so `**a ` repeated is read in linear time)
    r"|(?P<bold>\*\*(?P<btext>[^\s*](?:(?:[^\n*]|\*(?!\*))*?[^\s])??)\*\*)"
    r"|(?P<italic>(?<![\w*\\])\*(?P<itext>[^\s*](?:[^*\n]*?[^\s*])??)\*(?![\w*]))"
    r"|(?P<group>\{\\(?P<gname>[A-Za-z]*)(?P<gbody>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\})"
    r"|(?P<cmd>\\(?P<cname>[A-Za-z]+)\*?(?:\{(?P<carg>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}(?:\{[^{}]*\})?)?)"
    r"|(?P<accent>\\['\"`^~=.](?:\{[A-Za-z]?\}|[A-Za-z]))"
    r"|(?P<escape>\\[ %&_#$\{\}])"
    r"|(?P<brace>\{(?P<btbody>[^{}\\$]*)\})"
)
_TLDS = ("com", "org", "net", "io", "ai", "edu", "dev", "app", "gov", "co", "me", "info", "site", "page")
_BARE = re.compile(
    r"(?<![\w@./:-])(?:www\.[\w-]+(?:\.[\w-]+)+|(?:[A-Za-z0-9][\w-]*\.)+(?:" + "|".join(_TLDS) + r"))"
    rf"(?![\w-])(?:/{_URL_BODY})?"
)

_STYLE = {
    "textbf": "bold", "bf": "bold", "mathbf": "bold", "bfseries": "bold", "boldsymbol": "bold",
    "textit": "italic", "emph": "italic", "em": "italic", "it": "italic", "textsl": "italic", "itshape": "italic",
    "texttt": "code", "tt": "code", "mathtt": "code", "ttfamily": "code",
}

# The markup whose inner text is markup again, and the group holding that text.
_INNER = {"link": "ltext", "bold": "btext", "italic": "itext"}


def _trim_url(raw: str) -> str:
    url = raw.rstrip(_TRAILING)
    while url.count("(") > url.count(")") and raw.startswith(")", len(url)):
        url += ")"
    return url


def _absolute(url: str) -> str:
    return url if "://" in url else "https://" + url


# Inline HTML. A tag is read only with its closing tag (so `List<int>` or `<unk>` stay text); the
# style each gives, "" for none. Line and paragraph breaks are a space; entities need their `;`.
_HTML_STYLE = {
    "em": "italic", "i": "italic", "cite": "italic", "var": "italic", "b": "bold", "strong": "bold",
    "code": "code", "tt": "code", "kbd": "code", "samp": "code",
    "sub": "", "sup": "", "span": "", "u": "", "small": "", "big": "", "mark": "", "font": "", "abbr": "",
}
_ENTITY_PATTERN = r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
_HTML = re.compile(
    rf"(?P<tag><(?P<tname>{'|'.join(_HTML_STYLE)})(?:\s[^<>]*)?>(?P<tbody>(?s:.{{0,2000}}?))</(?P=tname)\s*>)"
    r"|(?P<anchor><a\s[^<>]*?\bhref\s*=\s*[\"'](?P<href>https?://[^\"'<>\s]+)[\"'][^<>]*>(?P<abody>(?s:.{0,2000}?))</a\s*>)"
    r"|(?P<gap>(?:<br\s*/?>|</?p(?:\s[^<>]*)?>)(?:\s*(?:<br\s*/?>|</?p(?:\s[^<>]*)?>))*\s*)"
    rf"|(?P<entity>{_ENTITY_PATTERN})",
    re.IGNORECASE,
)
_HTML_START = re.compile("[<&]")
_ENTITY = re.compile(_ENTITY_PATTERN)
_SCRIPTS = {
    "sub": dict(zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")),
    "sup": dict(zip("0123456789+-−=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿ")),
}


def _entity(reference: str) -> str:
    """An HTML character reference (`&amp;`, `&#39;`) as its character; an unknown one as written."""
    char = html.unescape(reference)
    if char == reference:
        return reference
    return " " if char.isspace() else inert(char)


def _unescaped(text: str) -> str:
    """`text` with its HTML character references decoded (a URL from an HTML page: `?a=1&amp;b=2`)."""
    return _ENTITY.sub(lambda m: _entity(m.group()), text) if "&" in text else text


def _script(body: str, tag: str) -> str | None:
    """`<sub>`/`<sup>` text in Unicode sub- or superscripts (`x<sup>2</sup>` reads x²), or None
    when one of its characters has none (`5<sup>th</sup>` reads 5th)."""
    table = _SCRIPTS[tag]
    return "".join(table[char] for char in body) if body and all(char in table for char in body) else None


def _html_inner(match: re.Match[str]) -> tuple[str, str | None, str]:
    """The text inside an HTML tag or link, its span kind ("" none, None for a sub- or
    superscript) and link URL."""
    if match.lastgroup == "anchor":
        return match.group("abody"), "link", _unescaped(match.group("href"))
    name = match.group("tname").lower()
    return match.group("tbody"), None if name in _SCRIPTS else _HTML_STYLE[name], ""


def html_text(value: str) -> str:
    """A title or a name with its inline HTML read as `display` reads it, without styles: known
    tags dropped (sub- and superscripts as in `display`), entities decoded. A value without `<`
    or `&` is returned as it is."""
    if "<" not in value and "&" not in value:
        return value
    return _HTML.sub(_html_plain, value)


def _html_plain(match: re.Match[str]) -> str:
    kind = match.lastgroup
    if kind == "entity":
        return _entity(match.group())
    if kind == "gap":
        return " "
    inner, style, _ = _html_inner(match)
    script = _script(inner, match.group("tname").lower()) if style is None else None
    return html_text(inner) if script is None else script


def _bare_urls(text: str) -> list[tuple[int, re.Match[str] | None, str]]:
    """URLs without a scheme: a domain with a known TLD followed by a path, or starting with www."""
    starts = []
    slash = text.find("/")
    while slash != -1:
        head = text[max(0, slash - 6) : slash]
        dot = head.rfind(".")
        if dot != -1 and head[dot + 1 :] in _TLDS:
            start = slash - len(head) + dot
            while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "-_."):
                start -= 1
            starts.append(start)
        slash = text.find("/", slash + 1)
    www = text.find("www.")
    while www != -1:
        starts.append(www)
        www = text.find("www.", www + 4)
    found = []
    for start in sorted(set(starts)):
        match = _BARE.match(text, start)
        if match and not (found and start < found[-1][0] + len(found[-1][2])):
            found.append((start, None, _trim_url(match.group())))
    return found


def _html_tokens(text: str, tokens: list) -> None:
    """Add the inline HTML of `text` to `tokens`: tried at each `<` and `&` only (quicker than
    `_HTML.finditer`, which tries every position)."""
    at = _HTML_START.search(text)
    while at:
        match = _HTML.match(text, at.start())
        if match:
            tokens.append((match.start(), match, ""))
        at = _HTML_START.search(text, match.end() if match else at.end())


def _tokens(text: str) -> list[tuple[int, re.Match[str] | None, str]]:
    """Markup and URLs in `text` as (start, markup match or None, url), by position; may overlap."""
    tokens = _bare_urls(text) if "/" in text or "www." in text else []
    if "://" in text:
        tokens += [(m.start(), None, _trim_url(m.group())) for m in _URL.finditer(text)]
    # Chained `in` tests find out whether a markup character is there at all several times quicker
    # than any() over a generator: what pays for the HTML test below on every abstract.
    has_markup = "\\" in text or "$" in text or "*" in text or "`" in text or "[" in text or "{" in text
    start = _MARKUP_START.search(text) if has_markup else None
    while start:
        match = _MARKUP.match(text, start.start())
        if match:
            tokens.append((match.start(), match, ""))
        start = _MARKUP_START.search(text, match.end() if match else start.end())
    if "<" in text or "&" in text:
        _html_tokens(text, tokens)
    tokens.sort(key=lambda token: token[0])
    return tokens


def _render(text: str, out: list[str], spans: list[Span], offset: int, tokens: list | None = None,
            edits: list[int] | None = None) -> int:
    """Append the plain form of `text` to `out` and its spans (shifted by `offset`); return the new length.

    `tokens` are `_tokens(text)` when the caller has them already. Given `edits`, each markup read
    adds to it where it starts in `text` and the index in `out` of its first piece, and where it
    ends (`plain_form` makes a patch of them)."""
    pos = 0
    length = offset

    def emit(piece: str, kind: str = "", url: str = "") -> None:
        nonlocal length
        out.append(piece)
        if kind and piece:
            spans.append(Span(length, length + len(piece), kind, url))
        length += len(piece)

    for start, match, url in _tokens(text) if tokens is None else tokens:
        if start < pos:
            continue
        if edits is not None:
            edits.append(pos)  # where the markup before ended (0 before the first)
        emit(text[pos:start])
        if edits is not None:
            edits += (start, len(out))
        if match is None:
            pos = start + len(url)
            if "&" in url:  # a URL from an HTML page: `?a=1&amp;b=2`
                url = _unescaped(url)
            emit(url, "link", _absolute(url))
            continue
        pos = match.end()
        kind = match.lastgroup
        if kind in _INNER:
            begin = length
            length = _render(match.group(_INNER[kind]), out, spans, length)
            url = _absolute(match.group("lurl")) if kind == "link" else ""
            if length > begin:
                spans.append(Span(begin, length, kind, url))
        elif kind == "code":
            emit(match.group("ctext"), "code")
        elif kind == "escape":
            emit(match.group()[1:])
        elif kind == "math":
            emit(latex(match.group()).strip(), "math")
        elif kind == "group":
            emit(latex(match.group()).strip(), _STYLE.get(match.group("gname"), ""))
        elif kind == "cmd":
            emit(latex(match.group()), _STYLE.get(match.group("cname"), ""))
        elif kind == "tag" or kind == "anchor":
            inner, style, url = _html_inner(match)
            script = None if style is not None else _script(inner, match.group("tname").lower())
            if script is not None:
                emit(script)
                continue
            begin = length
            length = _render(inner, out, spans, length)
            if length > begin and style:
                spans.append(Span(begin, length, style, url))
        elif kind == "gap":
            emit("" if start == 0 or text[start - 1].isspace() or match.end() == len(text) else " ")
        elif kind == "entity":
            emit(_entity(match.group()))
        else:
            emit(latex(match.group()))
    if edits is not None:
        edits.append(pos)
    emit(text[pos:])
    return length


@lru_cache(maxsize=8192)
def title_display(title: str) -> Display:
    """A title as shown, its LaTeX and markdown rendered like an abstract's (`PixArt-$\\alpha$` reads
    `PixArt-α`); kept for the titles seen last, since the list draws its rows again and again."""
    return display(title)


def display(text: str) -> Display:
    """The display form of an abstract: plain text and style spans (see the module docstring)."""
    return plain_form(text)[0]


def plain_form(text: str) -> tuple[Display, str | bytes | None]:
    """`display(text)` and what a `Paper` keeps of its plain text (see `store.papers.model.Paper.plain`):
    None when it is `text` itself, else a patch over `text` (`store.papers.patch.patched`) when that is
    smaller than the plain text, else the plain text."""
    if _bare(text):
        return Display(text), None
    clean = unicodedata.normalize("NFC", inert(text)).replace("\t", " ")
    tokens = _tokens(clean)
    if not tokens:
        return Display(clean), None if clean == text else clean
    out: list[str] = []
    spans: list[Span] = []
    edits: list[int] = []
    _render(clean, out, spans, 0, tokens, edits)
    spans.sort(key=lambda span: (span.start, -span.end))
    plain = "".join(out)
    shown = Display(plain, tuple(spans))
    if plain == text:
        return shown, None
    return shown, _patch(text, out, edits) if clean == text else plain


def _bare(text: str) -> bool:
    """Whether `text` is its own plain form, found quickly: printable ASCII (nothing `inert` removes, nothing NFC
    changes, no tab) with none of the characters `_tokens` starts from (most titles: printing 100,000 rows asks)."""
    return (text.isascii() and text.isprintable() and not ("/" in text or "\\" in text or "$" in text or "*" in text
            or "`" in text or "[" in text or "{" in text or "<" in text or "&" in text or "www." in text))


def _patch(text: str, out: list[str], edits: list[int]) -> str | bytes:
    """The patch that makes `"".join(out)` of `text`, from `_render`'s `edits` over it: the
    markup it read, each as the pieces of `out` after the text before it (one piece) and before
    the text after it (one piece). The plain text itself when that is smaller."""
    numbers = []
    inserts = []
    marks = edits[1:]  # (start, first piece, end) for each markup read
    for k in range(0, len(marks), 3):
        start, first, end = marks[k : k + 3]
        last = marks[k + 4] - 1 if k + 3 < len(marks) else len(out) - 1
        insert = "".join(out[first:last])
        if insert != text[start:end]:  # (a URL is itself)
            numbers += (start, end, len(insert))
            inserts.append(insert)
    added = "".join(inserts).encode("utf-8", "surrogatepass")
    patch = struct.pack(f"<{1 + len(numbers)}I", len(numbers) // 3, *numbers) + added
    plain = "".join(out)
    return patch if len(patch) < len(plain) and len(text) < 2**32 else plain
