"""The query language of the filter bar and `--query`: a string → a `Query` value (see `SYNTAX`).

Smart case: a word or phrase with a capital letter matches case-sensitively; but the upper-case words
AND, OR and NOT are operators (as in Scopus, Web of Science, arXiv and PubMed: `a OR b` is `a | b`,
`NOT a` is `-a`, `a AND b` is `a b`; OR binds first, as there). Parsing never
raises: what cannot be understood is left out and described in `Query.problems`, and a query
of which nothing understood is left matches nothing, never everything (`Query.dropped`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

SYNTAX = (
    ("difusion recovry", "every word, typos forgiven; a word being typed matches longer words"),
    ('"exact phrase"', "the exact words, in order, on the display text"),
    ("'exact", "an exact piece of text, no typo tolerance"),
    ('-word  -"phrase"', "must not match (also !word; a lone - is ignored, -1 is text)"),
    ("a | b", "either (the bar joins the terms on each side)"),
    ("a OR b  a AND b  NOT a", "operators in capitals (as | , a space, -); lower-case and, or, not are words"),
    ("is:unread is:starred", "by triage state (also is:read, is:dismissed); -is:read negates"),
    ("is:new", "first seen since this list was last opened, or fetched by F this session"),
    ("is:updated", "a marked paper seen here in a later version (arXiv vN, the proceedings after the preprint)"),
    ("p:1  p<=2  p:0", "by priority (also p>=3; p:0 is none)"),
    ("has:note has:code", "a note, a code link (also has:tag, has:link)"),
    ("bengio", "words also match authors (below title matches), your notes and tags"),
    ('author:bengio  author:"Yoshua Bengio"', "an author's name (any author, typos forgiven)"),
    ('title:graph  abstract:"neural network"', "only in the title, only in the abstract (a word, \"phrase\" or 'exact)"),
    ('kw:"diffusion models"  kw:cs.LG', "a keyword or arXiv category (also cat:)"),
    ("area:generative track:oral", "by primary area or subject, by track (part of it, any case)"),
    ('session:"poster session 2"  session:tue', "by conference slot: session, day, time, room, board (part of it)"),
    ("announce:new", "by arXiv announce type (new, cross, replace, replace-cross)"),
    ("tag:NAME", "by tag"),
    ("venue:iclr year:2024", "by venue (part of its name) or year (also year>=2023)"),
    ("Capital letters", "make a word or phrase match case-sensitively"),
    ("is:stared  auther:x", "not understood: the bar says why; alone it matches nothing"),
)
"""(example, meaning) for each element of the language, for the help screen."""

_QUALIFIER = re.compile(r"^([A-Za-z]+)(<=|>=|:|<|>|=)(.*)$", re.S)
_QUOTED_VALUE = re.compile(r'([A-Za-z]+)([:=])"')
_STATES = ("read", "unread", "starred", "dismissed", "new", "updated")
_HAS = ("note", "code", "link", "tag")
_NUMERIC = {"p": (0, 5), "year": (0, 9999)}
FIELDS = {"author": "author", "title": "title", "abstract": "abstract", "kw": "kw", "cat": "kw"}
"""Qualifiers that look for text in one field of the record (→ a `Term` with that `field`)."""
_FOLDED = ("author", "kw")  # names and keywords match whatever their case
QUALIFIERS = ("is", "p", "has", "tag", "author", "title", "abstract", "kw", "cat", "area", "track", "venue", "year",
              "session", "announce")
_STATE_FIELDS = ("is", "p", "has", "tag")
_OPERATOR = re.compile(r"(AND|OR|NOT)(?=\s|\||$)")
"""The boolean words, upper-case and standing alone (`ANDROID`, `and`, `'OR` and `"NOT"` are text)."""
_SEARCHABLE = re.compile(r"\w")  # a word without any (a lone `-`, `--`, `…`) has nothing to look for
WORD = re.compile(r"[\w\u0300-\u036f]+")
"""A word, for the index and for query words alike (combining accents stay in their word)."""
MAX_CHARS = 4000
"""The longest query answered, in characters: a longer one is refused (it matches nothing, the hint says why)."""
MAX_TERMS = 100
"""The most terms a query may hold: a qualifier counts one, a word, phrase or name each of its words (each
word looked up costs at most about one pass over the postings, so this bounds a query's time); identical
terms count once, as they are looked for once."""


@dataclass(frozen=True, slots=True)
class Term:
    """Text to find. kind: 'word' (fuzzy), 'exact' (literal substring), 'phrase' (literal words).
    field: '' (title, name, abstract, authors, your note and tags), 'title', 'abstract', or 'author'
    and 'kw' (the words, typos forgiven, in that order within one author's name or one keyword)."""

    text: str
    kind: str = "word"
    negated: bool = False
    field: str = ""

    @property
    def case_sensitive(self) -> bool:
        """Smart case: any capital letter makes the match case-sensitive."""
        return self.text != self.text.lower()


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A condition on a paper's fields or triage state, such as `p<=2` → ('p', '<=', 2)."""

    field: str
    op: str
    value: str | int
    negated: bool = False


Atom = Term | Qualifier


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: every group must hold; a group holds when any of its atoms does."""

    text: str
    groups: tuple[tuple[Atom, ...], ...] = ()
    problems: tuple[str, ...] = ()
    dropped: bool = False
    """Whether a part was not understood and left out (a problem says why)."""
    too_long: bool = False
    """Whether it was refused whole for its size (`MAX_CHARS`, `MAX_TERMS`): it matches nothing."""

    @property
    def filters(self) -> bool:
        """Whether the query narrows the list: it has a condition, or a part of it was not
        understood (with nothing understood left, it matches no paper rather than all)."""
        return bool(self.groups) or self.dropped

    @property
    def hint(self) -> str:
        """One line describing what was not understood ('' when the query is well-formed)."""
        return "; ".join(self.problems)

    @property
    def asks_new(self) -> bool:
        """Whether it holds `is:new` (negated or not): its caller must say which papers are new (`store.library.seen`)."""
        return any(isinstance(a, Qualifier) and a.field == "is" and a.value == "new" for group in self.groups for a in group)

    @property
    def needs_states(self) -> bool:
        """Whether a qualifier asks about triage state (is:, p:, tag:, has:note, has:tag), or a word
        may be found in a note or tag."""
        return any(isinstance(a, Qualifier) and a.field in _STATE_FIELDS and a.value not in ("code", "link")
                   or isinstance(a, Term) and a.kind == "word" and not a.field
                   for group in self.groups for a in group)


def clipped(text: str, width: int = 60) -> str:
    """`text` in at most `width` characters: cut with '…' when longer (a query in a message or a row)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _field_term(name: str, value: str, quoted: bool, negated: bool) -> Term:
    """The term of `title:`, `abstract:`, `author:`, `kw:` (`cat:`) with its value."""
    field = FIELDS[name]
    if field in _FOLDED:
        return Term(" ".join(value.casefold().split()), "word", negated, field)
    if quoted:
        return Term(value, "phrase", negated, field)
    if value.startswith("'") and value[1:]:
        return Term(value[1:], "exact", negated, field)
    return Term(value, "word", negated, field)


def _qualifier(name: str, op: str, value: str, negated: bool, problems: list[str], quoted: bool = False) -> Atom | None:
    """The qualifier (or field term) `name`, `op`, `value` spell, or None after noting in `problems`
    why it is not one. A `quoted` value was written in quotes (`author:"Yoshua Bengio"`)."""
    name = name.lower()
    if name not in QUALIFIERS:
        problems.append(f"unknown qualifier {name}: (use {', '.join(q + ':' for q in QUALIFIERS)})")
        return None
    if op == "=":
        op = ":"
    if name in _NUMERIC:
        low, high = _NUMERIC[name]
        if not value.isascii() or not value.isdigit() or not low <= int(value) <= high:
            problems.append(f"{name}{op} needs a number" + (f" from {low} to {high}" if name == "p" else ""))
            return None
        return Qualifier(name, op, int(value), negated)
    if op != ":":
        problems.append(f"{name}: takes no comparison, write {name}:VALUE")
        return None
    if name in FIELDS:
        if not _SEARCHABLE.search(value):
            problems.append(f"{name}: needs a value")
            return None
        return _field_term(name, value, quoted, negated)
    value = value.lower()
    choices = {"is": _STATES, "has": _HAS}.get(name)
    if choices is not None:
        found = [c for c in choices if c.startswith(value)] if value else []
        if len(found) != 1:
            problems.append(f"{name}: needs one of {', '.join(choices)}")
            return None
        value = found[0]
    elif not value:
        problems.append(f"{name}: needs a value")
        return None
    return Qualifier(name, op, value, negated)


def _is_qualifier(token: str) -> bool:
    match = _QUALIFIER.match(token)
    if match is None or match.group(3).startswith("//"):  # a URL is text, not a qualifier
        return False
    return match.group(2) == ":" or match.group(1).lower() in QUALIFIERS


def _negates(text: str, i: int) -> bool:
    """Whether text[i] negates what follows: a `!`, or a `-` right before a letter or a quote
    (so not the dash of `-1` or `--`, nor a lone `-`)."""
    after = text[i + 1 : i + 2]
    return text[i] == "!" or text[i] == "-" and (after.isalpha() or after in ('"', "'"))


def parse(text: str) -> Query:
    """`text` → `Query`. Never raises; problems (unclosed quote, unknown qualifier…) are listed.
    An atom repeated in its group, and a group repeated, are kept once; a query over `MAX_CHARS`
    or `MAX_TERMS` is refused whole (nothing understood: it matches nothing)."""
    if len(text) > MAX_CHARS:
        return _too_long(text, f"{len(text):,} characters (at most {MAX_CHARS:,})")
    query = _parsed(text)
    terms = sum(max(1, len(WORD.findall(atom.text))) if isinstance(atom, Term) else 1
                for atom in {atom for group in query.groups for atom in group})
    return _too_long(text, f"{terms} terms (at most {MAX_TERMS})") if terms > MAX_TERMS else query


def _too_long(text: str, size: str) -> Query:
    return Query(text, problems=(f"too long: {size}",), dropped=True, too_long=True)


def _parsed(text: str) -> Query:
    groups: list[list[Atom]] = []
    problems: list[str] = []
    dropped = False
    joining = ""  # the previous token was a bar (or OR): the next atom joins the last group
    anding = not_next = False  # the previous token was AND, NOT
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        operator = _OPERATOR.match(text, i)
        if text[i] == "|" or operator and operator.group() == "OR":
            bar = "OR" if operator else "|"
            if not groups or joining or anding or not_next:
                problems.append(f"{bar} needs a term on each side")
            joining = bar if groups else ""
            i += len(bar)
            continue
        if operator:
            if operator.group() == "NOT":
                not_next = True
            else:
                if not groups or joining or anding or not_next:
                    problems.append("AND needs a term on each side")
                anding = True
            i = operator.end()
            continue
        negated, not_next = not_next, False
        while i < n and _negates(text, i):
            negated = True
            i += 1
        atom: Atom | None = None
        missing = False  # a part not understood: it keeps its place among the groups, holding nothing
        quoted = _QUOTED_VALUE.match(text, i)
        if quoted:  # author:"Yoshua Bengio": the value runs to the closing quote
            end = text.find('"', quoted.end())
            if end < 0:
                problems.append("unclosed quote")
                end = n
            value = " ".join(text[quoted.end() : end].split())
            i = end + 1
            atom = _qualifier(quoted.group(1), quoted.group(2), value, negated, problems, quoted=True)
            missing = atom is None
        elif i < n and text[i] == '"':
            end = text.find('"', i + 1)
            if end < 0:
                problems.append("unclosed quote")
                end = n
            phrase = " ".join(text[i + 1 : end].split())
            i = end + 1
            if phrase:
                atom = Term(phrase, "phrase", negated)
        else:
            start = i
            while i < n and not text[i].isspace() and text[i] != "|":
                i += 1
            token = text[start:i]
            if token.startswith("'"):
                if token[1:]:
                    atom = Term(token[1:], "exact", negated)
            elif _is_qualifier(token):
                match = _QUALIFIER.match(token)
                assert match is not None
                atom = _qualifier(match.group(1), match.group(2), match.group(3), negated, problems)
                missing = atom is None
            elif _SEARCHABLE.search(token):
                atom = Term(token, "word", negated)
        if atom is None and not missing:
            continue
        if not joining:
            groups.append([])
        if atom is not None:
            groups[-1].append(atom)
        dropped = dropped or missing
        joining, anding = "", False
    if joining or anding:
        problems.append(f"{joining or 'AND'} needs a term on each side")
    if not_next:
        problems.append("NOT needs a term after it")
    kept: dict[frozenset[Atom], tuple[Atom, ...]] = {}  # each atom and group once, where first written
    for group in groups:
        if group:
            kept.setdefault(frozenset(group), tuple(dict.fromkeys(group)))
    return Query(text, tuple(kept.values()), tuple(dict.fromkeys(problems)), dropped)
