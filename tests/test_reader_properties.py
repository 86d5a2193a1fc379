"""Property tests: no input makes a reader fail other than with `ReadError`, and no text is lost."""
from __future__ import annotations

from hypothesis import example, given, HealthCheck, settings, strategies as st

from store.common.errors import ReadError
from store.papers.inert import inert
from store.readers import read_path

SUFFIXES = [".txt", ".bib", ".json", ".jsonl", ".csv", ".dat"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(data=st.one_of(st.binary(max_size=400), st.text(max_size=400).map(str.encode)), suffix=st.sampled_from(SUFFIXES))
@example(data=b"\xc2\x80", suffix=".txt")  # a C1 control character alone: nothing left once inert
@example(data=b"[{\"abstract\": \"\\u200b\"}]", suffix=".json")
def test_any_bytes_in_any_format_give_papers_or_a_read_error(tmp_path, data, suffix):
    path = tmp_path / f"input{suffix}"
    path.write_bytes(data)
    try:
        collection = read_path(path)
    except ReadError as exc:
        assert str(exc).startswith(str(path)) and "\n" not in str(exc)
    else:
        assert collection.papers and all(p.id and (p.text or p.title) for p in collection.papers)


words = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Cc", "Zl", "Zp")), min_size=1, max_size=12)
paragraph = st.lists(st.lists(words, min_size=1, max_size=8).map(" ".join), min_size=1, max_size=3)
blank = st.sampled_from(["\n\n", "\n \n", "\r\n\r\n", "\n\t\n\n", "\r\r"])
wrap = st.sampled_from(["\n", "\r\n", " \n\t", "\r"])


@FAST
@given(
    header=st.one_of(st.none(), words.filter(lambda w: not w.endswith("."))),
    paragraphs=st.lists(paragraph, min_size=1, max_size=6, unique_by=lambda p: " ".join(" ".join(p).split()).casefold()),
    separators=st.lists(blank, min_size=6, max_size=6),
    wraps=wrap,
)
def test_abstracts_rejoined_equal_the_non_header_text(tmp_path, header, paragraphs, separators, wraps):
    body = "".join(wraps.join(lines) + separators[i] for i, lines in enumerate(paragraphs))
    text = (header + "\n\n" if header else "") + body
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    collection = read_path(path)
    # What is read is made inert: format characters (U+00AD, U+200B…) go, from words and header.
    first_line = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[0].strip()
    assert collection.header in ("", inert(first_line).strip())
    non_header = [w for w in map(inert, text.split()[len(first_line.split()) if collection.header else 0 :]) if w]
    assert " ".join(p.text for p in collection.papers).split() == non_header
