"""A UTF-8 JSON Lines list (`.jsonl`, `.ndjson`, and a `.json` file that is JSON Lines, as the arXiv snapshot is)
is read a piece at a time, each line parsed as it is read: the same papers, lines and warnings as the whole text
gives, wherever the pieces end; and a long one is read without the file, its lines or its records held whole."""
from __future__ import annotations

import json
import random

from hypothesis import given, HealthCheck, settings, strategies as st

import store.readers as readers
from store.common.errors import ReadError
from store.readers import encoding, read_path
from tests.memory import read_alone

RECORD = {"title": "Graph networks", "abstract": "We study graph networks. They work.", "authors": ["Ada B", "Cy D"]}
# Lines as such files have them: records, blank lines, lines that are not JSON or not objects, a record without
# title or abstract, wide characters, a lone surrogate escape, U+2028 inside a string.
LINES = st.lists(st.sampled_from([
    json.dumps(RECORD), json.dumps({**RECORD, "title": "Café 论文 𝔼"}, ensure_ascii=False), "", "  ", "not json",
    "[1, 2]", json.dumps({"year": 2024}), '{"title": "Lone \\ud800 half", "abstract": "A text. It works."}',
    json.dumps({"title": "Line\u2028sep", "abstract": "Another abstract here."}, ensure_ascii=False)]), max_size=25)


def outcome(path):
    """What reading `path` gives: its papers and warnings, or the one line that says why it cannot be read."""
    try:
        collection = read_path(path)
    except ReadError as error:
        return str(error)
    return [(p.id, p.title, p.text, p.line, p.authors, p.fields) for p in collection.papers], collection.warnings


@given(lines=LINES, ends=st.sampled_from(["\n", "\r\n"]), suffix=st.sampled_from([".jsonl", ".ndjson", ".json"]))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_list_read_in_pieces_of_a_few_bytes_is_the_list_read_whole(tmp_path, monkeypatch, lines, ends, suffix):
    path = tmp_path / f"list{suffix}"
    path.write_bytes(ends.join(lines).encode("utf-8"))
    with monkeypatch.context() as whole:
        whole.setenv("TRIAGE_CACHE", str(tmp_path / "whole"))
        whole.setattr(readers, "_jsonl_pieces", lambda *_, **__: None)  # as it was read before: the whole text at once
        expected = outcome(path)
    monkeypatch.setenv("TRIAGE_CACHE", str(tmp_path / "pieces"))
    monkeypatch.setattr(encoding, "_PIECE", 7)  # many pieces, many of them ending mid-line
    assert outcome(path) == expected


def test_a_json_array_an_object_and_a_legacy_encoded_list_read_as_before(tmp_path, monkeypatch):
    monkeypatch.setattr(encoding, "_PIECE", 4096)
    records = [RECORD, {**RECORD, "title": "Café au lait", "abstract": "Milk in coffee. It works."}]
    both = {"Graph networks", "Café au lait"}
    cases = {
        "array.json": (json.dumps(records, indent=1).encode(), both),
        "object.json": (json.dumps({"notes": records}).encode(), both),
        "one.json": ((json.dumps(RECORD) + "\n\n").encode(), {"Graph networks"}),
        "utf16.jsonl": ("\n".join(map(json.dumps, records)).encode("utf-16"), both),
        # a byte UTF-8 does not read after the first pieces: the pieces read so far are void, the file read whole
        "latin1.jsonl": (("\n".join([json.dumps(RECORD)] * 200) + "\n"
                          + json.dumps(records[1], ensure_ascii=False)).encode("latin-1"), both),
    }
    for name, (data, titles) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert {p.title for p in read_path(path).papers} == titles, name


def test_a_long_json_lines_list_with_a_wide_character_is_read_without_a_wide_copy_of_the_file(tmp_path, monkeypatch):
    """One character beyond the Basic Multilingual Plane (𝔼) made the whole decoded file a string of four bytes a
    character, beside its bytes and its lines split from it: 7 times the file at the peak (32 MB for a 4.5 MB list,
    the arXiv snapshot's 4.5 GB more than the machine holds); now under 4."""
    rng = random.Random(7)
    words = "graph neural network diffusion model learning robust policy data sparse".split()
    path = tmp_path / "long.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for n in range(4000):
            text = " ".join(rng.choice(words) for _ in range(150)) + (" of 𝔼." if n == 0 else f" ({n}).")
            out.write(json.dumps({"title": f"Paper {n}", "abstract": text, "authors": ["Ada B"]}, ensure_ascii=False) + "\n")
    size = path.stat().st_size
    papers, peak = read_alone(path, monkeypatch)
    assert len(papers) == 4000
    assert peak < 4 * size, f"peak {peak / 2**20:.0f} MB for a {size / 2**20:.0f} MB list"
