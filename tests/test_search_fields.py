"""Searching by what the record says and what you noted: author names as plain words (ranked below
title matches), `author:`, `title:`, `abstract:`, `kw:`, `area:`, `track:`, and your notes and tags;
on records written here and on the real ICLR 2024 list, in the index, the app and `triage list -q`."""
from __future__ import annotations

import json
import os
import re

import pytest

from store.search.engine import Engine
from store.readers import read_path
from store.marks.db import TriageStore
from store.papers.model import Triage
from tests.test_cli import triage
from tests.test_triage_keys import NoteEditor, press, see_dialog
from tui.app import TriageApp
from tui.widgets.paper_list import PaperList

RECORDS = [
    {"title": "Bengio's Razor: Why Simple Nets Generalise", "abstract": "We revisit simplicity biases in deep networks.",
     "authors": ["Ana García"], "keywords": ["generalisation"], "venue": "ICLR 2024 poster", "primary_area": "theory"},
    {"title": "Flow Networks for Molecules", "abstract": "Generative flow networks sample molecules with rewards.",
     "authors": ["Emmanuel Bengio", "Yoshua Bengio"], "keywords": ["GFlowNets", "diffusion models"],
     "venue": "ICLR 2024 oral", "primary_area": "generative models"},
    {"title": "Diffusion for Graphs", "abstract": "A graph diffusion model, with neural networks on graph edges.",
     "authors": ["Yoshua Smith", "Bo Bengio-Li"], "keywords": ["Graph Diffusion Models", "graphs"],
     "venue": "ICLR 2024 spotlight", "primary_area": "learning on graphs"},
    {"title": "Diffusion Models Need Less Data", "abstract": "We train diffusion samplers with less data; Bengio et al. "
     "proposed the neural baseline.", "authors": ["Chen Wei"], "keywords": ["data efficiency", "models of diffusion"],
     "venue": "ICLR 2024 poster", "primary_area": "generative models"},
]
RAZOR, FLOW, GRAPHS, LESS = range(4)


@pytest.fixture
def written(tmp_path):
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path


@pytest.fixture
def index(written):
    return Engine.of(read_path(written).papers)


def found(index, query, states=None) -> list[int]:
    hits = index.search(query, states)
    assert not hits.query.hint, hits.query.hint
    return [p.position for p in hits.papers]


def test_an_author_name_is_a_plain_word_ranked_below_title_matches(index):
    assert found(index, "bengio") == [RAZOR, FLOW, GRAPHS, LESS]  # title; authors (Bengio-Li too); the abstract last
    assert found(index, "bengoi") == found(index, "bengio")  # typos forgiven in names as in text
    assert found(index, "yoshua") == [FLOW, GRAPHS]


def test_author_finds_any_author_by_name_with_typos_and_a_quoted_full_name(index):
    assert found(index, "author:bengio") == [FLOW, GRAPHS]  # not the title's nor the abstract's Bengio
    assert found(index, "author:Bengoi") == [FLOW, GRAPHS]
    assert found(index, 'author:"Yoshua Bengio"') == [FLOW]  # one author's name: not Yoshua Smith + Bo Bengio-Li
    assert found(index, 'author:"yoshua bengoi"') == [FLOW]
    assert found(index, "-author:bengio") == [RAZOR, LESS]
    assert found(index, "author:wei | author:garcia") == [RAZOR, LESS]


def test_title_abstract_keyword_area_and_track_look_in_their_own_field(index):
    assert found(index, "title:graphs") == [GRAPHS]
    assert found(index, "abstract:graph") == [GRAPHS]
    assert found(index, "abstract:bengio") == [LESS]
    assert found(index, 'abstract:"neural baseline"') == [LESS]
    assert found(index, 'title:"Need Less"') == [LESS]
    assert found(index, '-title:diffusion') == [RAZOR, FLOW]
    assert found(index, 'kw:"diffusion models"') == [FLOW, GRAPHS]  # in order, in one keyword: not 'models of diffusion'
    assert found(index, "kw:gflownet") == [FLOW]
    assert found(index, "cat:graphs") == [GRAPHS]
    assert found(index, "area:generative") == [FLOW, LESS]
    assert found(index, 'area:"learning on"') == [GRAPHS]
    assert found(index, "track:oral") == [FLOW] and found(index, "-track:poster") == [FLOW, GRAPHS]


def test_an_unknown_qualifier_keeps_its_hint_and_never_widens(index):
    hits = index.search("auther:bengio")
    assert len(hits) == 0 and hits.query.hint.startswith("unknown qualifier auther: (use ")
    assert "author:" in hits.query.hint and "kw:" in hits.query.hint
    assert [p.position for p in index.search("graphs | auther:bengio").papers] == [GRAPHS]
    assert index.search("author:").query.hint == "author: needs a value"


def test_notes_and_tags_are_searchable_words_that_change_at_run_time(index, written):
    papers = read_path(written).papers
    assert found(index, "zanzibar") == []
    states = {papers[LESS].id: Triage(note="compare with the Zanzibar ablation"), papers[RAZOR].id: Triage(tags=("reread",))}
    assert found(index, "zanzibar", states) == [LESS]
    assert found(index, "zanzibr", states) == [LESS]  # typos forgiven here too
    assert found(index, "reread", states) == [RAZOR]
    assert found(index, "diffusion -zanzibar", states) == [GRAPHS]
    states[papers[LESS].id] = Triage(note="")  # the note removed: found no more, with no rebuild
    assert found(index, "zanzibar", states) == []


# --- the real ICLR 2024 list ------------------------------------------------------------------


def iclr(corpora) -> list[dict]:
    return [json.loads(line) for line in (corpora / "iclr-2024-papers.jsonl").read_text(encoding="utf-8").split("\n") if line]


def test_the_13_bengio_papers_of_iclr_by_author_and_by_plain_word(corpora):
    records = iclr(corpora)  # (record n is on line n + 1, as `Paper.line` says)
    bengio = {n + 1 for n, r in enumerate(records) if any("bengio" in a.lower() for a in r["authors"])}
    assert len(bengio) == 13
    index = Engine.of(read_path(corpora / "iclr-2024-papers.jsonl").papers)
    assert {p.line for p in index.search("author:bengio").papers} == bengio
    assert {p.line for p in index.search("bengio").papers} == bengio
    yoshua = {n + 1 for n, r in enumerate(records) if "Yoshua Bengio" in r["authors"]}
    assert {p.line for p in index.search('author:"Yoshua Bengio"').papers} == yoshua and len(yoshua) == 11


def test_kw_diffusion_models_on_iclr_counts_what_the_jsonl_says(corpora):
    """A keyword with "diffusion" then "model(s)" (any case, typos forgiven: the singular too)."""
    pattern = re.compile(r"\bdiffusion models?\b")
    wanted = {n + 1 for n, r in enumerate(iclr(corpora)) if any(pattern.search(k.lower()) for k in r["keywords"])}
    index = Engine.of(read_path(corpora / "iclr-2024-papers.jsonl").papers)
    assert {p.line for p in index.search('kw:"diffusion models"').papers} == wanted and len(wanted) == 170


async def test_a_note_written_in_the_app_finds_its_paper_there_and_in_triage_list(corpora):
    path = corpora / "iclr-2024-papers.jsonl"
    collection = read_path(path)
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await press(pilot, *["j"] * 30)  # a paper well down the list
        target = app.query_one(PaperList).papers[30]
        await see_dialog(pilot, "e", NoteEditor)
        await press(pilot, *"ask Zanzibar lab", "ctrl+s")
        await press(pilot, "slash", *"zanzibar")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [p.id for p in app.query_one(PaperList).papers] == [target.id]
    assert TriageStore(os.environ["TRIAGE_DB"]).get(target.id).note == "ask Zanzibar lab"
    result = triage("list", str(path), "-q", "zanzibar", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [target.id]
    assert triage("set", collection.papers[7].id, str(path), "--tag", "zanzibar-visit").returncode == 0
    result = triage("list", str(path), "-q", "zanzibar", "--format", "jsonl")
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [collection.papers[7].id, target.id]  # tie: file order
