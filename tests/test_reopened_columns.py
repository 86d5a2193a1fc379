"""A reopened long list's papers stay in its columns while it is browsed (store.papers.chunked: made a chunk at a time,
when first asked for): the open noted, the marks found on it and on other lists' papers, For you ranked and the
citation keys assigned, only the papers a screen shows and those marked are made, each alone (a reopened
1,000,000-paper list made whole was ~1.2 GB more, for as long as it was open)."""
from __future__ import annotations

from pathlib import Path

from store.marks.db import TriageStore
from store.papers.chunked import SIZE
from store.papers.model import Triage
from store.readers import cache, read_path
from tests.waits import until
from tui.app import TriageApp

TOPICS = ("graph neural networks", "diffusion models", "reinforcement learning", "protein folding", "speech recognition",
          "causal inference", "federated learning", "program synthesis", "robot grasping", "weather forecasting")
METHODS = ("a contrastive objective", "sparse attention", "a kernel method", "message passing", "a variational bound",
           "curriculum sampling", "low-rank adapters")


def abstracts(count: int) -> list[str]:
    """`count` abstracts of a few topics and methods (words enough for features: each term in some, in none all)."""
    return [f"We study {TOPICS[k % 10]} with {METHODS[k % 7]} on benchmark {k % 89}. "
            f"Our analysis of {TOPICS[(k * 3) % 10]} improves {k % 31} baselines by {k % 17} points." for k in range(count)]


async def test_a_reopened_long_list_is_marked_ranked_and_keyed_without_making_its_papers(tmp_path: Path):
    path = tmp_path / "long.txt"
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(abstracts(5 * SIZE)) + "\n", encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text("A reinforcement learning agent learns a policy from pixels.\n\n"
                     "Graph neural networks pass messages between the atoms of a molecule.\n", encoding="utf-8")
    first = read_path(path)  # parsed and kept
    db = tmp_path / "db.json"
    store = TriageStore(db)
    store.attach(first.papers)
    store.put({first.papers[1].id: Triage(starred=True), first.papers[8].id: Triage(starred=True),
               first.papers[2].id: Triage(read=True)})
    elsewhere = read_path(other).papers
    store.attach(elsewhere)
    store.put({elsewhere[0].id: Triage(starred=True)})  # (For you learns from it: `outside`)
    store.close()

    for reopened in (False, True):  # (the first open sees its papers, ranks them and keeps its features)
        app = TriageApp(read_path(path), str(db))
        papers = app.collection.papers
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app._noted.is_set() and app._ranking is not None and "citation_keys" in app.__dict__)
            assert app.states[first.papers[1].id].starred and len(app._ranking.order) == len(papers)
            assert app.citation_keys[first.papers[-1].id] and app._interest.outside.keys() == {elsewhere[0].id}
            made = [k for k, chunk in enumerate(papers._made) if chunk is not None]  # (the chunks made so far)
        cache.settle()
    assert made == []  # (the first screen's rows and the marked papers, each made alone: no chunk whole)
