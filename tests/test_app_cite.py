"""Copy and export from the app (Pilot): c, C (the picker), Y, x, o. The clipboard is OSC 52 here:
no X display, so pyperclip has no backend (tests/test_clipboard.py covers a real one)."""
from __future__ import annotations

import json
import threading

import bibtexparser
import pytest
from textual.widgets import Checkbox, Input, OptionList, Static

from store.papers.model import Triage
from store.cite import citations as cite
from store.cite.keys import citation_keys
from store.readers import read_path
from store.marks.db import TriageStore
from tui.app import TriageApp
from tui.screens.cite_picker import CitePicker
from tui.screens.export_dialog import ExportDialog
from tests.waits import told, until


@pytest.fixture(autouse=True)
def _no_display(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def messages(app: TriageApp) -> list[str]:
    return [n.message for n in told(app)]


async def settle(app, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_c_copies_the_bibtex_of_the_current_paper(seed_path):
    collection = read_path(seed_path)
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("j", "c")
        await settle(app, pilot)
        assert app.clipboard == cite.render([collection.papers[1]], "bibtex", citation_keys(collection.papers))
        assert "https://github.com/ajy112/HDGNN" in app.clipboard
        assert messages(app)[-1] == "BibTeX copied (OSC 52)"


async def test_C_picks_a_format_that_c_then_keeps(seed_path):
    papers = read_path(seed_path).papers
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C")  # (at once: the picker opens once the keys are assigned, which an open does behind)
        await until(pilot, lambda: isinstance(app.screen, CitePicker))
        picker = app.screen
        assert isinstance(picker, CitePicker)
        assert str(picker.query_one("#cite-preview", Static).content).startswith("@inproceedings{iclr2024")
        await pilot.press("j")  # BibTeX → plain text
        await pilot.pause()
        assert str(picker.query_one("#cite-preview", Static).content) == cite.plain(papers[0])
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.clipboard == cite.plain(papers[0]) + "\n"
        assert messages(app)[-1] == "plain text copied (OSC 52)"
        await pilot.press("j", "c")
        await settle(app, pilot)
        assert app.clipboard == cite.plain(papers[1]) + "\n", "the picked format is the new default"
        await pilot.press("C")
        await pilot.pause()
        assert app.screen.query_one(OptionList).highlighted == 1, "the picker opens on the default"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, CitePicker) and app.cite_format == "plain"


async def test_Y_copies_every_paper_shown(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("Y")
        await settle(app, pilot)
        assert app.clipboard.count("@inproceedings{") == 19
        assert messages(app)[-1] == "BibTeX of 19 papers copied (OSC 52)"


async def test_x_exports_the_papers_shown_and_never_overwrites_unasked(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    db = tmp_path / "db.json"
    store = TriageStore(db)
    store.attach(papers)
    store.put({papers[2].id: Triage(priority=1, note="Check the N:M numbers.")})
    store.close()
    target = tmp_path / "list.md"
    app = TriageApp(read_path(seed_path), db_path=str(db))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportDialog))
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ExportDialog)
        text = target.read_text(encoding="utf-8")
        assert text.startswith("# Reading list\n\n## Priority 1\n") and "  > Check the N:M numbers." in text
        assert messages(app)[-1] == f"19 papers written to {target} (markdown)"

        target.write_text("mine")
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportDialog))
        dialog = app.screen
        dialog.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog, "the dialog stays open and says why"
        assert str(dialog.query_one("#export-error", Static).content) == f"{target}: already exists: tick Overwrite to replace it"
        assert target.read_text() == "mine"
        dialog.query_one(Checkbox).value = True
        dialog.query_one(Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert target.read_text(encoding="utf-8").startswith("# Reading list")


async def test_o_on_a_paper_without_a_link_says_so(seed_path):
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert messages(app)[-1] == "This paper has no link"


async def test_the_picked_format_is_remembered_across_restarts(seed_path, tmp_path):
    papers = read_path(seed_path).papers
    db = str(tmp_path / "db.json")
    app = TriageApp(read_path(seed_path), db_path=db)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "j", "j", "enter")  # BibTeX → plain → Markdown
        await settle(app, pilot)
        assert app.clipboard == cite.markdown(papers[0]) + "\n"
    again = TriageApp(read_path(seed_path), db_path=db)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await settle(again, pilot)
        assert again.clipboard == cite.markdown(papers[0]) + "\n"
        assert messages(again)[-1] == "Markdown copied (OSC 52)"


async def test_o_without_a_browser_copies_the_link(seed_path, monkeypatch):
    monkeypatch.delenv("BROWSER", raising=False)
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("j", "o")
        await settle(app, pilot)
        assert app.clipboard == "https://github.com/ajy112/HDGNN"
        assert messages(app)[-1] == "No browser here: link copied (OSC 52)"


async def test_Y_after_a_filter_copies_only_the_matches_with_their_usual_keys(seed_path):
    papers = read_path(seed_path).papers
    keys = citation_keys(papers)
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"hdgnn | fairtune", "enter")
        await settle(app, pilot)
        await pilot.press("Y")
        await settle(app, pilot)
        assert messages(app)[-1] == "BibTeX of 2 papers copied (OSC 52)"
        copied = {e.key for e in bibtexparser.parse_string(app.clipboard).entries}
        assert copied == {keys[papers[1].id], keys[papers[10].id]} and "iclr2024hdgnn" in copied


async def test_Y_says_not_copied_when_the_text_is_too_long_for_the_terminal(tmp_path):
    # tmux drops an OSC 52 sequence over 1 MiB without a word: "copied" would be a lie
    long = tmp_path / "long.txt"
    long.write_text("\n\n".join(f"Paper {i} studies {'graphs and more graphs ' * 120}{i}." for i in range(400)), encoding="utf-8")
    app = TriageApp(read_path(str(long)))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "j", "j", "j", "enter")  # the abstract text becomes the default format
        await settle(app, pilot)
        assert messages(app)[-1] == "abstract text copied (OSC 52)"  # one paper's fits
        await pilot.press("Y")
        await settle(app, pilot)
        assert messages(app)[-1].startswith("Not copied: too long for the terminal's clipboard: 1.1 MB")
        assert "export the papers instead (x, or triage export)" in messages(app)[-1]
        assert app.clipboard.startswith("Paper 0 studies"), "the clipboard keeps what was copied before"


async def test_the_export_dialog_shows_the_file_it_writes_and_refuses_an_unknown_extension(tmp_path, monkeypatch, seed_path):
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportDialog))
        dialog = app.screen

        def shown(name: str) -> str:
            return str(dialog.query_one(name, Static).content)

        assert shown("#export-target") == f"writes {folder.resolve() / 'reading-list.md'} (markdown)"
        dialog.query_one(Input).value = "list.txt"
        await pilot.pause()
        assert shown("#export-target") == f"writes {folder.resolve() / 'list.txt'}"
        assert shown("#export-error") == "unknown extension .txt: name it .bib, .ris, .json, .md, .csv or .jsonl"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and list(folder.iterdir()) == [], "nothing is written as BibTeX"
        assert shown("#export-error") == "list.txt: unknown extension .txt: name it .bib, .ris, .json, .md, .csv or .jsonl"
        dialog.query_one(Input).value = "list.bib"
        await pilot.pause()
        assert shown("#export-error") == "" and shown("#export-target").endswith("list.bib (bibtex)")
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ExportDialog)
        assert (folder / "list.bib").read_text(encoding="utf-8").startswith("@inproceedings{")


async def test_o_opens_the_records_own_link_and_O_its_pdf(tmp_path, seed_path, monkeypatch):
    monkeypatch.delenv("BROWSER", raising=False)
    path = tmp_path / "papers.jsonl"
    path.write_text(json.dumps({
        "title": "Values", "abstract": "We propose Kahl. Code at https://github.com/kahl/values.",
        "url": "https://openreview.net/forum?id=kahl1", "pdf_url": "https://openreview.net/pdf?id=kahl1",
    }) + "\n", encoding="utf-8")
    app = TriageApp(read_path(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("o")
        await settle(app, pilot)
        assert app.clipboard == "https://openreview.net/forum?id=kahl1"
        await pilot.press("O")
        await settle(app, pilot)
        assert app.clipboard == "https://openreview.net/pdf?id=kahl1"
        assert messages(app)[-1] == "No browser here: link copied (OSC 52)"
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert messages(app)[-1] == "This paper has no PDF link"


async def test_the_citation_keys_wait_for_for_you_and_x_before_them_says_so(seed_path, monkeypatch):
    """An open assigns the keys behind once its first For-you ranking is over (both hold the interpreter: at 2.7M
    papers the keys made For you come 17 s after the open, 7 s now); `x` pressed before says so, has them assigned at
    once (not on the screen's thread), and its dialog opens."""
    from tui import copying
    from tui.for_you import Interest

    held, ranking = threading.Event(), Interest.rank

    def slow(self, states):
        held.wait(60)
        return ranking(self, states)

    monkeypatch.setattr(Interest, "rank", slow)
    for asked in (False, True):
        held.clear()
        app = TriageApp(read_path(seed_path))
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.read_whole)
            if asked:
                await pilot.press("x")
                await until(pilot, lambda: isinstance(app.screen, ExportDialog))
                assert copying.ASSIGNING in messages(app)
            else:
                # the open's worker that assigns them is there, waiting (for the 19 papers: a few ms of work)
                await until(pilot, lambda: any(worker.group == "citation-keys" for worker in app.workers))
                await pilot.pause()
                assert "citation_keys" not in app.__dict__
            held.set()
            await until(pilot, lambda: "citation_keys" in app.__dict__)


async def test_a_long_lists_keys_are_assigned_at_its_first_copy_and_a_quit_does_not_wait_for_them(tmp_path, monkeypatch):
    """A list of `KEYS_AT_OPEN` papers or more has no keys assigned as it opens (at 2,700,000 papers they were ~12 s of
    CPU and ~0.3 GB every open, and `q` waited for them: ~9 s); `c` assigns them, saying so, and copies; `q` while they
    are being assigned quits without waiting for them."""
    from store.cite import keys
    from tests.test_reopened_columns import abstracts
    from tui import copying

    path = tmp_path / "long.txt"
    path.write_text("SYNTH 2024\n\n" + "\n\n".join(abstracts(3000)) + "\n", encoding="utf-8")
    monkeypatch.setattr(copying, "KEYS_AT_OPEN", 1000)
    made, base = [], keys.base_key

    def slow(paper):
        made.append(paper)
        if slowly.is_set():
            threading.Event().wait(0.002)
        return base(paper)

    def assigning(papers, stop=None):
        try:
            return assign(papers, stop)
        finally:
            ended.set()

    slowly, ended, assign = threading.Event(), threading.Event(), keys.citation_keys
    monkeypatch.setattr(keys, "base_key", slow)
    monkeypatch.setattr(keys, "citation_keys", assigning)
    collection = read_path(path)
    expected = cite.render([collection.papers[1]], "bibtex", citation_keys(collection.papers))
    made.clear()
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app._noted.is_set() and not any(w.group == "citation-keys" for w in app.workers))
        await settle(app, pilot)
        assert "citation_keys" not in app.__dict__ and not made
        await pilot.press("j", "c")
        await until(pilot, lambda: app.clipboard == expected)
        assert copying.ASSIGNING in messages(app) and len(made) == 3000
    made.clear()
    slowly.set()
    ended.clear()
    app = TriageApp(read_path(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.read_whole)
        await pilot.press("j", "c")
        await until(pilot, lambda: made)
        await pilot.press("q")
    assert ended.wait(60)  # (the assigning stops: a process that quits waits for its threads)
    assert len(made) < 3000 and "citation_keys" not in app.__dict__


async def test_a_lists_keys_are_assigned_once_when_two_workers_ask_together(seed_path, monkeypatch):
    """A copy and an export asking for the keys at once (each on a worker thread) assign them once: from Python 3.12,
    `cached_property` holds no lock, and both would (at 2,700,000 papers, twice ~12 s and ~0.3 GB). The property's own
    function is called, as 3.12 calls it: 3.11's lock would hide the race."""
    from store.cite import keys
    from tui.copying import CopyActions

    assigned, held, assign = [], threading.Event(), keys.citation_keys

    def slow(papers, stop=None):
        assigned.append(papers)
        held.wait(60)
        return assign(papers, stop)

    monkeypatch.setattr(keys, "citation_keys", slow)
    app = TriageApp(read_path(seed_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.read_whole)
        found: list[dict] = []
        asking = [threading.Thread(target=lambda: found.append(CopyActions.citation_keys.func(app))) for _ in range(2)]
        for thread in asking:
            thread.start()
        await until(pilot, lambda: assigned)
        held.set()
        for thread in asking:
            thread.join(60)
        await until(pilot, lambda: "citation_keys" in app.__dict__)
        assert len(assigned) == 1 and len(found) == 2 and found[0] is found[1] is app.citation_keys
