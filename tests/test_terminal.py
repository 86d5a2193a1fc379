"""The installed `triage` in a real 120x40 terminal (tmux)."""
from __future__ import annotations

import pytest

from store.readers import read_path
from tests.tmux import Tmux, triage_command


@pytest.fixture
def terminal(tmp_path):
    term = Tmux(f"{triage_command()} --db {tmp_path / 'db.json'}")
    yield term
    term.kill()


def detail_text(screen: str) -> str:
    """The words of the right-hand pane, joined (less its scrollbar): what a reader sees of the abstract."""
    right = [line.split("▕", 1)[1].rstrip(" ▁▂▃▄▅▆▇█") for line in screen.splitlines() if "▕" in line]
    return " ".join(" ".join(right).split())


def test_list_and_full_abstract_then_j_then_q(terminal, seed_path):
    papers = read_path(seed_path).papers
    first = " ".join(papers[0].plain.split()[:150])  # the pane holds half the width: a long abstract scrolls
    terminal.wait_for(lambda s: first in detail_text(s) and "ICLR 2024" in s)
    second = " ".join(papers[1].plain.split())
    terminal.send("j")
    terminal.wait_for(lambda s: second in detail_text(s))
    terminal.quit()
