"""What to read next from the command line, run as a user runs it (the installed `triage`, a temp
database, real files): `triage similar ID` (more like this) and `triage list --sort interest` (For you)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SEED
from tests.tmux import triage_command

LLM_KICK = "105a096a2f"  # "Compressing LLMs: The Truth is Rarely Pure and Never Simple" (LLM-KICK)
KOLA, BATCHPROMPT, TOOLCHAIN = "64859981a7", "905739258d", "0af57f21b8"

GRAPHS = [
    "We propose a graph neural network that passes messages between the nodes of a molecular graph to predict properties.",
    "Over-smoothing in deep graph neural networks makes node embeddings alike; we add residual message passing between layers.",
    "A graph transformer with positional encodings of the graph Laplacian classifies nodes of citation graphs.",
    "We study the expressive power of message passing graph neural networks against the Weisfeiler-Lehman graph test.",
    "Link prediction on knowledge graphs with a graph neural network that aggregates the neighbours of each node.",
    "Graph pooling for graph classification: node clusters are learned by a graph neural network and coarsened.",
]
RL = [
    "A reinforcement learning agent learns a policy for Atari games from pixels with a replay buffer and a reward bonus.",
    "Offline reinforcement learning with conservative value estimates improves the policy on robot locomotion rewards.",
    "We explore sparse-reward environments with an intrinsic curiosity reward for the reinforcement learning agent.",
    "Model-based reinforcement learning plans with a learned world model to improve the policy with fewer episodes.",
    "Policy gradient methods with a learned value baseline reduce variance of the return in continuous control.",
    "Multi-agent reinforcement learning: agents learn cooperative policies from a shared team reward.",
]


def triage(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    """The installed `triage` with its own database, as a user runs it (100 columns wide)."""
    return subprocess.run([triage_command(), *args, "--db", str(db)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "100"})


def rows(result: subprocess.CompletedProcess[str]) -> list[dict]:
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture
def two_topics(tmp_path) -> tuple[Path, list[str], list[str]]:
    """A list of six abstracts about graph neural networks and six about reinforcement learning,
    mixed (file order says nothing of the topic); and the ids of each topic, in file order."""
    path = tmp_path / "two-topics.txt"
    mixed = [text for pair in zip(RL, GRAPHS) for text in pair]
    path.write_text("\n\n".join(mixed) + "\n", encoding="utf-8")
    listed = rows(triage("list", str(path), "--format", "jsonl", db=tmp_path / "probe.json"))
    ids = {row["text"]: row["id"] for row in listed}
    return path, [ids[t] for t in GRAPHS], [ids[t] for t in RL]


def test_similar_to_an_llm_compression_paper_is_llm_papers_first_never_itself(tmp_path):
    db = tmp_path / "triage.json"
    table = triage("similar", LLM_KICK, db=db)
    assert table.returncode == 0, table.stderr
    listed = [line.split()[0] for line in table.stdout.splitlines()]
    assert len(listed) == 10 and LLM_KICK not in listed  # the default -n; the seed has 19 papers
    # the LLM benchmark (KoLA), LLM prompting (BatchPrompt) and LLM agents (ToolChain*) come first
    assert set(listed[:3]) == {KOLA, BATCHPROMPT, TOOLCHAIN}
    assert "KoLA — Knowledge-oriented LLM Assessment benchmark" in table.stdout.splitlines()[0]

    top = rows(triage("similar", "105a09", "-n", "3", "--format", "jsonl", db=db))  # a prefix, options after
    assert [row["id"] for row in top] == listed[:3]
    assert {"id", "title", "text", "starred", "similarity"} <= set(top[0])
    assert top[0]["similarity"] > top[1]["similarity"] > top[2]["similarity"] > 0


def test_similar_on_the_iclr_list_finds_other_llm_compression_papers(corpora, tmp_path):
    iclr = corpora / "iclr-2024-abstracts.txt"
    top = rows(triage("similar", LLM_KICK, "--format", "jsonl", str(iclr), "-n", "5", db=tmp_path / "t.json"))
    assert LLM_KICK not in [row["id"] for row in top]
    for row in top:  # SpQR, Wanda, RIA, KPrune…: each about compressing (pruning, quantising) language models
        assert any(word in row["text"] for word in ("LLM", "language model")), row["title"]
        assert any(word in row["text"].lower() for word in ("prun", "quantiz", "compress", "spars")), row["title"]


ICLR_ORDERS = {
    # The first 20 papers `triage similar` and the For-you and suggested orders print on the ICLR list with two
    # stars and a read paper (`test_the_iclr_list_is_ranked_as_it_was`), as the features made from the search
    # index's postings gave them before they were made from the papers' own word counts (store.interest.counts).
    "similar": (
        "e13afe0859 ac0ff1327e c6ea34cbaf 85aa2bf2cb 8385f55370 87d1890b20 986d69b332 0a356447b1 0fb182e109 2692313ab0 "
        "bba5917ca6 00e0759f5e 852b9f8080 4af14f3909 fc585d6ba7 dc2723124d 6a7ad3b4ff 59e86a9095 4bf04f19c7 3cf8146c6b"
    ).split(),
    "interest": (
        "7d2710b286 f7b6bf109c dc2723124d 2639e2d6c1 088c270a0a 4bf04f19c7 55184c6e4b 025d2ecb93 6a7ad3b4ff 648b09dbe4 "
        "abb7cd7867 cd355378fa 08219c3d5e 7b5df1d58a fc585d6ba7 bba5917ca6 a356076f6f 6b2d7509f6 91f646b209 9a8ebff71b"
    ).split(),
    "suggested": (
        "dc4dda947c 79190526a9 e245d3cb47 05a3e22397 76a78bc44b 6eacbd8cda cb2237ffa9 471ed35672 97cb107e9a 1762552980 "
        "01ab240232 5abc464fa0 773ea165db 21020a7ff3 d8ef8da3ff 0558e32a9c 093f1e4ef5 144581c560 d28a08424e ff80950bec"
    ).split(),
}


def test_the_iclr_list_is_ranked_as_it_was(corpora, tmp_path):
    """What a reader of the ICLR list sees first of more like this, For you and suggested, unchanged by where the
    features' word counts come from."""
    path, db = str(corpora / "iclr-2024-papers.jsonl"), tmp_path / "triage.json"
    ids = [row["id"] for row in rows(triage("list", path, "--format", "jsonl", db=db))]
    for pid, mark in ((ids[10], "--star"), (ids[500], "--star"), (ids[20], "--read")):
        assert triage("set", pid, mark, path, db=db).returncode == 0
    listed = {sort: [row["id"] for row in rows(triage("list", path, "--sort", sort, "--format", "jsonl", db=db))]
              for sort in ("interest", "suggested")}
    similar = [row["id"] for row in rows(triage("similar", ids[10], path, "--format", "jsonl", "-n", "20", db=db))]
    assert {"similar": similar, **{sort: order[:20] for sort, order in listed.items()}} == ICLR_ORDERS
    for sort, order in listed.items():  # the table (its rows from the list's columns, no paper made) in that order too
        table = triage("list", path, "--sort", sort, db=db)
        assert table.returncode == 0 and [line.split()[0] for line in table.stdout.splitlines()] == order


def test_similar_to_an_unknown_or_ambiguous_id_is_one_line_and_exit_2(tmp_path):
    unknown = triage("similar", "zzzz", db=tmp_path / "t.json")
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert unknown.stderr == f"triage: 'zzzz' is no paper's id, id prefix or key in {SEED}\n"
    ambiguous = triage("similar", "1", db=tmp_path / "t.json")
    assert ambiguous.returncode == 2
    assert ambiguous.stderr.startswith("triage: '1' matches 2 papers") and ambiguous.stderr.count("\n") == 1


def test_three_stars_put_the_other_papers_of_their_topic_first(two_topics, tmp_path):
    path, graphs, rl = two_topics
    db = tmp_path / "triage.json"
    for pid in graphs[1::2]:  # three of the six papers about graphs
        assert triage("set", pid, "--star", str(path), db=db).returncode == 0
    listed = rows(triage("list", str(path), "--sort", "interest", "--format", "jsonl", db=db))
    order = [row["id"] for row in listed]
    assert set(order[:3]) == set(graphs[0::2])  # the unstarred graph papers, before any about RL
    assert set(order[3:9]) == set(rl) and set(order[9:]) == set(graphs[1::2])  # the marked ones last
    assert listed[0]["bucket"] != "likely skip" and listed[8]["bucket"] == "likely skip"

    suggested = [row["id"] for row in rows(triage("list", str(path), "--sort", "suggested", "--format", "jsonl", db=db))]
    assert set(suggested[:9]) == set(order[:9]) and set(suggested[9:]) == set(graphs[1::2])  # the unmarked first

    queried = rows(triage("list", str(path), "-q", "-atari", "--sort", "interest", "--format", "jsonl", db=db))
    assert [row["id"] for row in queried] == [pid for pid in order if pid != rl[0]]  # the matches, For you first


def test_no_star_lists_in_file_order_and_says_a_star_is_enough(two_topics, tmp_path):
    path, graphs, rl = two_topics
    db = tmp_path / "triage.json"
    assert triage("set", graphs[0], "--read", str(path), db=db).returncode == 0
    result = triage("list", str(path), "--sort", "interest", "--format", "jsonl", db=db)
    assert result.stderr == "triage: star a paper to get suggestions (0 starred)\n"
    listed = rows(result)
    assert [row["id"] for row in listed] == [pid for pair in zip(rl, graphs) for pid in pair]
    assert {row["id"]: row["bucket"] for row in listed} == {pid: None if pid == graphs[0] else "unsure" for pid in rl + graphs}
    table = triage("list", str(path), "--sort", "interest", db=db)
    assert table.stderr == "triage: star a paper to get suggestions (0 starred)\n"
    assert [line.split()[0] for line in table.stdout.splitlines()] == [row["id"] for row in listed]


def test_one_star_puts_the_papers_like_it_first(two_topics, tmp_path):
    path, graphs, rl = two_topics
    db = tmp_path / "triage.json"
    assert triage("set", graphs[2], "--star", str(path), db=db).returncode == 0
    result = triage("list", str(path), "--sort", "interest", "--format", "jsonl", db=db)
    assert result.stderr == ""
    order = [row["id"] for row in rows(result)]
    assert sum(pid in graphs for pid in order[:5]) >= 4 and order[-1] == graphs[2]


def test_list_in_any_other_order_does_not_load_the_interest_model(tmp_path):
    code = (
        "import sys; from tui.cli import main\n"
        f"for sort in ([], ['--sort', 'priority'], ['--sort', 'recent', '-q', 'model']):\n"
        f"    assert main(['list', {str(SEED)!r}, '--db', {str(tmp_path / 't.json')!r}, *sort]) == 0\n"
        "print(sorted(m for m in ('sklearn', 'scipy', 'store.interest.ranking') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"


def test_similar_takes_a_citation_key_before_an_id_it_equals(tmp_path):
    """A key is looked up before an id: a paper whose BibTeX key is another paper's id is the one named by it."""
    entry = "@article{{{key},\n  title = {{{title}}},\n  year = {{2024}},\n  abstract = {{{text}}}\n}}\n"
    bib = tmp_path / "keys.bib"

    def write(first_key: str) -> None:
        bib.write_text("".join(entry.format(key=key, title=text.split(":")[0][:40], text=text)
                               for key, text in zip([first_key, "second", "third", "fourth"], GRAPHS)))

    write("first")
    db = tmp_path / "triage.json"
    ids = [row["id"] for row in rows(triage("list", str(bib), "--format", "jsonl", db=db))]
    write(ids[1])  # the first paper's key is the second paper's id (the ids, hashes of the abstracts, stay)
    similar = [row["id"] for row in rows(triage("similar", ids[1], str(bib), "--format", "jsonl", db=db))]
    assert ids[0] not in similar and ids[1] in similar  # the first paper was named, not the second
    by_prefix = [row["id"] for row in rows(triage("similar", ids[1][:6], str(bib), "--format", "jsonl", db=db))]
    assert ids[1] not in by_prefix and ids[0] in by_prefix  # a prefix of the id names the second
