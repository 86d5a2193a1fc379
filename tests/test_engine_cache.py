"""A list's search engine folder in the cache: opened again, it finds exactly what a fresh build finds; a changed
list or a damaged folder means it is built again (never stale results; a cache that cannot be written:
tests/test_engine_fallback.py); folders unused for long are removed with the other old entries."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from store.common.files import Abandoned
from store.papers.model import Triage
from store.readers import cache, engine_cache, quick, read_path
from store.readers.engine_cache import engine_for
from store.search.engine import Engine
from tests.conftest import SEED, damaged
from tests.tmux import triage_command
from tui.loading import head_of

EXTRA = [  # beyond ASCII, so the vocabulary is more than ASCII words
    "Un café — crème of graph neural networks, and a cafe\u0301 with a combining accent.",
    "привет: 深度学习 for graph recovery. Code: github.com/example/privet.",
    "Uneven  spacing,\tand a tab: a phrase  that Is   uneven in its display text.",  # literal matching evens it out
]
QUERIES = [
    "graph neural", "difusion recovry", "contrast", "hdg", "self-supervised", "LLM", "Llm", "language !llm",
    '"Knowledge-Intensive Compressed"', '"language models"', '"graph neural"', "'github", "'GitHub",
    "hdgnn | fairtune", "has:code", "-has:code learning", "venue:iclr year:2024", "year<2024", "is:read",
    "-is:read graph", "is:starred | is:read", "p<=2", "p:0 language", "has:note", "tag:todo", "café",
    "cafe\u0301", "深度学习", "привет", "", "!graph",
    '"that is uneven"', '"spacing, and"',
]


@pytest.fixture
def states():
    papers = read_path(SEED).papers
    return {
        papers[0].id: Triage(read=True, priority=2, tags=("todo",)),
        papers[3].id: Triage(starred=True, priority=1, note="compare"),
        papers[7].id: Triage(read=True),
    }


@pytest.fixture
def long_list(tmp_path) -> Path:
    """A copy of the seed with three more abstracts."""
    path = tmp_path / "list.txt"
    path.write_text(SEED.read_text(encoding="utf-8").rstrip() + "\n\n" + "\n\n".join(EXTRA) + "\n", encoding="utf-8")
    return path


def engine_folders() -> list[Path]:
    return sorted(Path(os.environ["TRIAGE_CACHE"]).glob("*" + cache.ENGINE_SUFFIX))


def results(engine: Engine, states) -> list[list[tuple]]:
    """Everything a search shows, for each of QUERIES: ids in order, scores, matched spans."""
    return [[(hit.paper_id, hit.score, hit.title_spans, hit.text_spans) for hit in engine.search(query, states)]
            for query in QUERIES]


def test_an_engine_opened_again_finds_exactly_what_a_fresh_one_finds(long_list, states):
    collection = read_path(long_list)
    first = engine_for(collection)
    assert first.built and first.note is None and len(engine_folders()) == 1
    again = engine_for(read_path(long_list))  # (the papers from the parse cache now)
    assert not again.built and again.note is None
    assert results(again.engine, states) == results(first.engine, states) == results(Engine.of(collection.papers), states)


def test_an_engine_built_again_for_a_reopened_list_keeps_none_of_its_papers_made(long_list, states):
    """A reopened list whose folder is gone (damaged, or its code changed) is indexed again from its parse entry without
    keeping its papers made (at 2,700,000 papers they would be GBs): each chunk made for the build is let go after it."""
    first = engine_for(read_path(long_list))
    for folder in engine_folders():
        shutil.rmtree(folder)
    reopened = read_path(long_list)
    again = engine_for(reopened)
    assert again.built and not any(reopened.papers._made)  # (no chunk of papers kept)
    assert results(again.engine, states) == results(first.engine, states)


def test_a_changed_list_is_indexed_again(long_list, states):
    engine_for(read_path(long_list))
    long_list.write_text(long_list.read_text(encoding="utf-8") + "\nA zanzibarite abstract about nothing else.\n",
                         encoding="utf-8")
    changed = engine_for(read_path(long_list))
    assert changed.built and [hit.paper.text for hit in changed.engine.search("zanzibarite")] == \
        ["A zanzibarite abstract about nothing else."]
    assert len(engine_folders()) == 1  # (in place of the old one)


def test_folders_unused_for_long_are_removed_with_the_old_entries_never_through_a_link(long_list, tmp_path):
    folder = Path(os.environ["TRIAGE_CACHE"])
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("not the cache's")
    month_ago = time.time() - (cache.KEEP_DAYS + 1) * 86400
    (folder / "old.engine").mkdir()
    (folder / "old.engine" / "meta.json").write_text("{}")
    (folder / "linked.engine").symlink_to(elsewhere)
    for name in ("old.parse", "old.ids", "kept.txt"):
        (folder / name).write_bytes(b"x")
    for name in ("old.parse", "old.ids", "old.engine/meta.json", "old.engine", "kept.txt"):
        os.utime(folder / name, (month_ago, month_ago))
    os.utime(folder / "linked.engine", (month_ago, month_ago), follow_symlinks=False)
    read_path(long_list)
    engine_for(read_path(long_list))
    cache.settle()
    assert not any((folder / name).exists() for name in ("old.parse", "old.ids", "old.engine"))
    assert not (folder / "linked.engine").is_symlink() and (elsewhere / "keep.txt").read_text() == "not the cache's"
    assert (folder / "kept.txt").exists() and len(engine_folders()) == 1


def test_the_cli_query_runs_on_the_engine_kept(long_list):
    """`triage list -q` twice: the second run opens the folder (it cannot build one) and prints the same rows."""
    run = ("import sys; from store.search.engine import engine\n"
           "if sys.argv[1] == 'cached': engine.build = lambda *args: sys.exit('built again')\n"
           "from tui.cli import main; sys.exit(main(sys.argv[2:]))")
    args = ["list", str(long_list), "-q", "graph | 'github", "--format", "jsonl"]
    first = subprocess.run([sys.executable, "-c", run, "build", *args], capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", run, "cached", *args], capture_output=True, text=True, check=True)
    assert second.stdout == first.stdout and first.stdout.count("\n") == 7


async def test_the_app_searches_a_list_on_its_engine_kept_and_says_when_one_was_damaged(long_list, monkeypatch):
    from store.search.engine import engine
    from tests.waits import until
    from tui.app import TriageApp
    from tui.widgets.paper_list import PaperList

    engine_for(read_path(long_list))
    cache.settle()
    with monkeypatch.context() as patch:
        patch.setattr(engine, "build", lambda *args: pytest.fail("the engine was built again"))
        app = TriageApp(read_path(long_list))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("slash", *"difusion recovry")
            await until(pilot, lambda: [paper.title[:4] for paper in app.query_one(PaperList).papers] == ["CDRL"])
    for path in engine_folders()[0].rglob("*"):  # every file of the folder cut short
        if path.is_file() and path.stat().st_size > 8:
            damaged(path, path.read_bytes()[: path.stat().st_size // 2])
    app = TriageApp(read_path(long_list))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "rebuilt" in str(app.query_one("#status-notice").content))
        # (the query of the last session, restored, answered by the engine built again)
        await until(pilot, lambda: [paper.title[:4] for paper in app.query_one(PaperList).papers] == ["CDRL"])


async def test_a_reopened_list_opens_its_engine_beside_its_read_and_builds_a_damaged_one_again_saying_so(long_list, monkeypatch):
    """A reopened long list (its parse cached) has its engine's folder opened while it is read, not after: the read is
    made to wait until the folder is open, and the engine searched is that one, never built again. When the folder
    opened so is found damaged, the engine is built again once the list is read, and the header says so."""
    import tui.loading
    from store.search.engine import engine
    from tests.waits import until
    from tui.app import TriageApp
    from tui.widgets.paper_list import PaperList

    monkeypatch.setattr(quick, "CACHED_STREAM_FROM", 0)  # (it opens from its head, as a long list does)
    engine_for(read_path(long_list))
    cache.settle()
    opened, read_paths, ahead = [], tui.loading.read_paths, engine_cache.ahead
    beside = threading.Event()

    def opening(files):
        opened.append(ahead(files))
        beside.set()
        return opened[-1]

    def read_once_opened(files):
        assert beside.wait(60), "the engine's folder is opened only after the read"
        return read_paths(files)

    monkeypatch.setattr(engine_cache, "ahead", opening)  # (tui.loading imports it when the folder is opened)
    monkeypatch.setattr(tui.loading, "read_paths", read_once_opened)

    async def reopened(said: str, typed: str = "") -> None:
        beside.clear()
        app = TriageApp(head_of([str(long_list)]), files=[str(long_list)])
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("slash", *typed)  # (the next open restores it)
            await until(pilot, lambda: [paper.title[:4] for paper in app.query_one(PaperList).papers] == ["CDRL"])
            assert str(app.query_one("#status-notice").content).strip() == said

    with monkeypatch.context() as patch:
        patch.setattr(engine, "build", lambda *args: pytest.fail("the engine was built again"))
        await reopened("", "difusion recovry")
    assert opened[-1] is not None
    for path in engine_folders()[0].rglob("*"):  # every file of the folder cut short
        if path.is_file() and path.stat().st_size > 8:
            damaged(path, path.read_bytes()[: path.stat().st_size // 2])
    await reopened("search index rebuilt (damaged)")
    assert opened[-1] is None  # (found damaged beside the read)


def test_a_build_left_by_a_quit_is_removed_once_its_process_is_gone(long_list):
    """`q` never waits for an engine's build: the folder it was building in is left, and removed by the next clean-up
    once its process has ended (a live one's is kept: another window may be building the same list)."""
    folder = Path(os.environ["TRIAGE_CACHE"])
    folder.mkdir()
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    dead, live = (folder / f"{'a' * 32}.engine.building-{int(ended.stdout)}", folder / f"{'b' * 32}.engine.old-{os.getppid()}")
    for left in (dead, live):
        left.mkdir()
        (left / "meta.json").write_text("{}")
    read_path(long_list)
    cache.settle()
    assert not dead.exists() and (live / "meta.json").exists()


def test_a_build_asked_to_stop_stops_and_leaves_the_folder_there_as_it_was(long_list, states):
    """A quit stops a build (`stop` set): it raises `Abandoned` at once, leaves its half-built folder to the clean-up
    above, and the folder of the list is as it was: the next open opens it, or builds one whole."""
    collection = read_path(long_list)
    stop = threading.Event()
    stop.set()
    with pytest.raises(Abandoned):
        engine_for(collection, stop)
    assert not engine_folders()
    assert list(Path(os.environ["TRIAGE_CACHE"]).glob(f"*.engine.building-{os.getpid()}"))
    engine, built, note = engine_for(collection)
    assert built and note is None and results(engine, states) == results(Engine.of(collection.papers), states)


def test_the_command_line_checks_a_reopened_lists_folder_while_it_reads_the_list(long_list):
    """The real `triage list -q` of a reopened list opens its engine's folder while the list is read (its CRCs summed
    beside the read): an intact folder is searched as it is, not built again; one with a byte changed in place in its
    largest file (its size the same) is damage, built again (said on stderr), and the answer is the same."""
    args = [triage_command(), "list", str(long_list), "-q", "graph | 'github", "--format", "jsonl"]
    first = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True).stdout
    manifest = engine_folders()[0] / "manifest.json"
    sealed = manifest.read_bytes()
    again = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True)
    assert again.stdout == first and "rebuilt" not in again.stderr and manifest.read_bytes() == sealed
    largest = max((p for p in manifest.parent.iterdir() if p != manifest), key=lambda p: p.stat().st_size)
    data = bytearray(largest.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged(largest, bytes(data))
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == first and manifest.read_bytes() != sealed
    assert done.stderr.strip().splitlines()[-1] == "triage: search index rebuilt (damaged)"


@pytest.mark.parametrize("planted", ["fifo", "link", "huge", "file as fifo", "folder as link"])
def test_a_fifo_a_link_or_a_huge_file_in_the_folder_is_damage_never_read_or_followed(long_list, tmp_path, planted):
    """The real `triage list -q` with a FIFO, a link to a file of the user's or a 2 GB file in place of the engine's
    manifest (or a FIFO in place of one of its files, or the folder a link to one of the user's): the folder is
    damaged, built again (said on stderr), the answer the same, nothing hangs and the user's files stay as they were."""
    args = [triage_command(), "list", str(long_list), "-q", "graph | 'github", "--format", "jsonl"]
    before = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True).stdout
    folder = engine_folders()[0]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("the user's own")
    manifest = folder / "manifest.json"
    if planted == "folder as link":
        shutil.rmtree(folder)
        folder.symlink_to(mine)
    elif planted == "file as fifo":
        segment = max((p for p in folder.iterdir() if p.suffix == ".idx"), key=lambda p: p.stat().st_size)
        segment.unlink()
        os.mkfifo(segment)
    else:
        manifest.unlink()
        if planted == "fifo":
            os.mkfifo(manifest)
        elif planted == "link":
            manifest.symlink_to(mine / "notes.txt")
        else:
            with manifest.open("wb") as huge:
                huge.truncate(2 << 30)
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == before
    assert done.stderr.strip().splitlines()[-1] == "triage: search index rebuilt (damaged)"
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and (mine / "notes.txt").read_text() == "the user's own"
