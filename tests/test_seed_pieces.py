"""A UTF-8 seed list is read a piece at a time (never the whole file as one string): the same papers,
header and lines as the whole text gives, wherever the pieces end; and a long list with a wide
character in its header is read without a copy of the file twice its size."""
from __future__ import annotations

import random

from hypothesis import given, HealthCheck, settings, strategies as st

from store.readers import encoding, read_path, seed
from tests.memory import read_alone

# Lines as lists have them: text, blank ones, blank ones of other whitespace (a no-break or an
# ideographic space: blank too), a header, a line ending in a full stop, wide characters.
LINES = st.lists(st.sampled_from(["Alpha beta.", "gamma δ 论文", "", " ", "\t \u00a0", "\u3000", "ICLR 2024 论文列表",
                                  "x" * 30, "end.", "  indented text  "]), max_size=30)


def whole(text: str) -> list[tuple[int, str]]:
    return list(seed.paragraphs(text))


@given(lines=LINES, cuts=st.lists(st.integers(0, 40), max_size=8))
@settings(max_examples=300, deadline=None)
def test_paragraphs_of_pieces_are_those_of_the_whole_text(lines, cuts):
    text = "\n".join(lines)
    breaks = [i + 1 for i, c in enumerate(text) if c == "\n"]  # pieces end at line ends
    at = sorted({breaks[c % len(breaks)] for c in cuts}) if breaks else []
    pieces = [text[a:b] for a, b in zip([0, *at], [*at, len(text)])]
    assert list(seed.paragraphs_of(pieces)) == whole(text)


@given(lines=LINES.filter(lambda lines: any(line.strip() for line in lines)), ends=st.sampled_from(["\n", "\r\n"]))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_list_read_in_pieces_of_a_few_bytes_is_the_list_read_whole(tmp_path, monkeypatch, lines, ends):
    path = tmp_path / "list.txt"
    data = ends.join(lines).encode("utf-8")
    path.write_bytes(data)
    expected = seed.parse(data.decode("utf-8"), str(path))
    monkeypatch.setattr(encoding, "_PIECE", 7)  # many pieces, many of them ending mid-line
    monkeypatch.setattr(seed, "HEAD", 1)  # the header told from as few pieces as can tell it
    got = read_path(path)
    assert (got.header, got.venue, got.year) == (expected.header, expected.venue, expected.year)
    assert [(p.id, p.text, p.line, p.title) for p in got.papers] == [(p.id, p.text, p.line, p.title) for p in expected.papers]


def test_a_utf8_bom_a_utf16_list_and_a_legacy_one_read_as_before(tmp_path):
    text = "ICLR 2024 论文列表\n\nFirst abstract here.\n\nSecond one, café.\n"
    for name, data in [("bom", b"\xef\xbb\xbf" + text.encode()), ("utf16", text.encode("utf-16")),
                       ("gbk", text.encode("gb18030"))]:
        path = tmp_path / f"{name}.txt"
        path.write_bytes(data)
        got = read_path(path)
        assert got.header == "ICLR 2024 论文列表", name
        assert [p.text for p in got.papers] == ["First abstract here.", "Second one, café."], name


def test_a_long_list_with_a_wide_header_is_read_without_a_wide_copy_of_the_file(tmp_path, monkeypatch):
    """The header's 论文 made the whole decoded file a two-bytes-a-character string beside its bytes:
    three times the file in memory at once (a 145 MB list of 100,000 abstracts: 290 MB + 145 MB), and
    its papers' texts besides (here 34 MB at the peak for an 8 MB list; now 18)."""
    rng = random.Random(7)
    words = "graph neural network diffusion model learning robust policy data sparse".split()
    abstracts = [" ".join(rng.choice(words) for _ in range(200)) + f" ({n})." for n in range(6000)]
    path = tmp_path / "long.txt"
    path.write_text("ICLR 2024 论文列表\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    size = path.stat().st_size
    papers, peak = read_alone(path, monkeypatch)
    assert len(papers) == 6000
    assert peak < 3 * size, f"peak {peak / 2**20:.0f} MB for a {size / 2**20:.0f} MB list"
