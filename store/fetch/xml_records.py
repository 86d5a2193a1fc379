"""A feed's records as the bytes the source sent: an Atom feed's entries (the arXiv API), an RSS
channel's items (arXiv's daily announcements), read with expat (`store.readers.atom.parse_xml`: no
document type, so no entity is ever declared) without building a tree.

`scan` finds each record's span of bytes and the text of some of its child elements, and the text
of some children of the root (a total); what comes before the first record, and from the end of the
records' parent on, are the head and tail a combined file is made of."""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat

from store.common.errors import ReadError
from store.readers.atom import parse_xml


@dataclass(frozen=True)
class Shape:
    """Where a feed's records are, with tags spelt '{namespace}name' (no namespace: the name alone)."""

    kind: str
    """What the feed is called in a message: 'an Atom feed'."""
    root: str
    record: tuple[str, ...]
    """The path from the root to a record: ('{Atom}entry',), ('channel', 'item')."""
    fields: tuple[str, ...]
    """The children of a record whose text is kept."""
    top: tuple[str, ...] = ()
    """The children of the root whose text is kept."""


@dataclass
class Scanned:
    head_end: int
    spans: list[tuple[int, int]] = field(default_factory=list)
    values: list[dict[str, str]] = field(default_factory=list)
    """Each record's kept children: tag → its text, spacing collapsed."""
    lines: list[int] = field(default_factory=list)
    """Each record's first line."""
    top: dict[str, str] = field(default_factory=dict)
    tail_start: int = 0
    """Where the records' parent ends (the tail: `</feed>`, `</channel></rss>`)."""

    def records(self, body: bytes) -> list[bytes]:
        return [body[a:b] for a, b in self.spans]


def _name(tag: str) -> str:
    return tag.rpartition("}")[2]


def scan(body: bytes, where: str, shape: Shape) -> Scanned:
    """`body` read as `shape` says; ReadError naming `where` and the line when it is not well-formed XML
    or its root is not `shape.root`."""
    parser = expat.ParserCreate(namespace_separator="}")
    stack: list[str] = []
    text: list[str] = []
    found = Scanned(len(body), tail_start=len(body))
    depth = len(shape.record)

    def start(tag: str, _attrs: dict[str, str]) -> None:
        tag = "{" + tag if "}" in tag else tag
        if not stack and tag != shape.root:
            raise ReadError(where, f"not {shape.kind} (the document is a <{_name(tag)}>)", parser.CurrentLineNumber)
        stack.append(tag)
        if len(stack) == depth + 1 and tuple(stack[1:]) == shape.record:
            found.spans.append((parser.CurrentByteIndex, -1))
            found.values.append({})
            found.lines.append(parser.CurrentLineNumber)
        text.clear()

    def end(_tag: str) -> None:
        value = " ".join("".join(text).split())
        text.clear()
        in_record = len(stack) == depth + 2 and tuple(stack[1:-1]) == shape.record
        if in_record and stack[-1] in shape.fields:
            found.values[-1].setdefault(stack[-1], value)
        elif len(stack) == depth + 1 and tuple(stack[1:]) == shape.record:
            found.spans[-1] = (found.spans[-1][0], body.index(b">", parser.CurrentByteIndex) + 1)
        elif len(stack) == 2 and stack[-1] in shape.top:
            found.top[stack[-1]] = value
        elif len(stack) == depth and tuple(stack[1:]) == shape.record[:-1]:
            found.tail_start = parser.CurrentByteIndex  # (the end of the records' parent: </feed>, </channel>)
        stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text.append
    parse_xml(parser, body, where)
    found.head_end = found.spans[0][0] if found.spans else found.tail_start
    return found


def combined(head: bytes, records: list[bytes], tail: bytes) -> bytes:
    """One feed: `head` (up to the first record), `records` a line each, `tail` (from their parent's end)."""
    return head.rstrip() + b"\n  " + b"\n  ".join(records) + b"\n" + tail
