"""Settings beside the marks: the theme and each source file's session survive a restart, and are not marks."""
from __future__ import annotations

from store.papers.model import Triage
from store.marks.db import TriageStore


def test_a_setting_survives_reopening_and_is_not_a_mark(tmp_path):
    path = tmp_path / "triage.json"
    store = TriageStore(path)
    assert store.setting("theme") == {}
    store.put_setting("theme", {"name": "nord"})
    store.put_setting("session /papers/a.txt", {"cursor": "abc", "query": "diffusion", "view": "unread", "sort": "priority"})
    store.put({"abc": Triage(starred=True)})
    store.close()

    again = TriageStore(path)
    assert again.setting("theme") == {"name": "nord"}
    assert again.setting("session /papers/a.txt")["query"] == "diffusion"
    assert again.ids() == ["abc"]
    again.close()


def test_a_second_process_sees_the_latest_setting(tmp_path):
    path = tmp_path / "triage.json"
    first, second = TriageStore(path), TriageStore(path)
    first.put_setting("theme", {"name": "nord"})
    second.put_setting("theme", {"name": "gruvbox"})
    assert first.setting("theme") == {"name": "gruvbox"}
    assert first.external_changes() == {}
    first.close()
    second.close()


def test_an_unchanged_setting_writes_nothing(tmp_path):
    path = tmp_path / "triage.json"
    store = TriageStore(path)
    store.put_setting("theme", {"name": "nord"})
    size = sum(f.stat().st_size for f in tmp_path.iterdir())
    store.put_setting("theme", {"name": "nord"})
    assert sum(f.stat().st_size for f in tmp_path.iterdir()) == size
    store.close()
