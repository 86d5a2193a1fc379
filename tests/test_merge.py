"""The merge rule (store.marks.merge) on random histories of marks made on 2–4 devices that meet at random:
it is commutative, associative and idempotent, devices that all sync twice hold the same marks, and
no note text is lost unless a user replaced it while it was shown to them."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from store.marks.merge import SCALARS, edit, merge, note_text, values

PAPERS = ("p", "q")
TAGS = ("x", "y", "z")

notes = st.tuples(st.just("note"), st.sampled_from(["", "text", "text"]))
edits = st.one_of(
    notes, notes, notes,
    st.tuples(st.just("read"), st.booleans()),
    st.tuples(st.just("starred"), st.booleans()),
    st.tuples(st.just("dismissed"), st.booleans()),
    st.tuples(st.just("priority"), st.integers(0, 5)),
    st.tuples(st.just("tag"), st.sampled_from(TAGS)),
    st.tuples(st.just("untag"), st.sampled_from(TAGS)),
)


@st.composite
def histories(draw):
    """(devices, steps): each step an edit (device, paper, field, value), a pull of one device's
    records by another, or a device's sync through the folder (it reads every device file, writes its own)."""
    devices = draw(st.integers(2, 4))
    edit = st.tuples(st.just("edit"), st.integers(0, devices - 1), st.sampled_from(PAPERS), edits)
    step = st.one_of(
        edit, edit,
        st.tuples(st.just("pull"), st.integers(0, devices - 1), st.integers(0, devices - 1)),
        st.tuples(st.just("sync"), st.integers(0, devices - 1)),
    )
    skews = draw(st.lists(st.integers(-3, 3), min_size=devices, max_size=devices))
    return devices, skews, draw(st.lists(step, min_size=4, max_size=40))


class World:
    """Devices' records (paper → record), their files in a shared folder, and every note text written."""

    def __init__(self, devices: int, skews: list[int]) -> None:
        self.held: list[dict[str, dict]] = [{} for _ in range(devices)]
        self.files: list[dict[str, dict]] = [{} for _ in range(devices)]
        self.skews = skews
        self.clock = 10
        self.written: set[str] = set()
        self.replaced_in_view: set[str] = set()
        """Note texts a user replaced while the note shown to them held them."""

    def edit(self, device: int, paper: str, change: tuple) -> None:
        self.clock += 1
        record = self.held[device].get(paper, {})
        before = values(record)
        after = dict(before, tags=list(before["tags"]))
        kind, value = change
        if kind == "note":
            value = f"[{self.clock}]" if value else ""  # every text written is unique
            self.written.add(value) if value else None
            self.replaced_in_view.update(text for text in self.written if text in before["note"])
        if kind == "tag":
            after["tags"] = [*after["tags"], value] if value not in after["tags"] else after["tags"]
        elif kind == "untag":
            after["tags"] = [tag for tag in after["tags"] if tag != value]
        else:
            after[kind] = value
        self.held[device][paper] = edit(record, before, after, float(self.clock + self.skews[device]), f"d{device}")

    def pull(self, into: int, source: int) -> None:
        for paper, record in self.held[source].items():
            self.held[into][paper] = merge(self.held[into].get(paper, {}), record)

    def sync(self, device: int) -> None:
        for other in self.files:
            for paper, record in other.items():
                self.held[device][paper] = merge(self.held[device].get(paper, {}), record)
        self.files[device] = dict(self.held[device])

    def run(self, steps: list[tuple]) -> None:
        for step in steps:
            getattr(self, step[0])(*step[1:])


def world(history) -> World:
    devices, skews, steps = history
    w = World(devices, skews)
    w.run(steps)
    return w


@settings(max_examples=300, deadline=None)
@given(histories(), st.sampled_from(PAPERS))
def test_the_merge_is_commutative_associative_and_idempotent(history, paper):
    w = world(history)
    records = [held.get(paper, {}) for held in w.held] + [{}]
    a, b, c = records[0], records[1], records[2 % len(records)]
    assert merge(a, b) == merge(b, a)
    assert merge(merge(a, b), c) == merge(a, merge(b, c))
    assert merge(a, a) == a and merge(merge(a, b), b) == merge(a, b)
    assert values(merge(a, b)) == values(merge(b, a))


@settings(max_examples=300, deadline=None)
@given(histories())
def test_after_every_device_syncs_twice_they_all_hold_the_same_marks(history):
    w = world(history)
    for _ in range(2):
        for device in range(len(w.held)):
            w.sync(device)
    first = w.held[0]
    for held in w.held[1:]:
        assert held == first
        assert {p: values(r) for p, r in held.items()} == {p: values(r) for p, r in first.items()}


@settings(max_examples=300, deadline=None)
@given(histories())
def test_no_note_text_is_lost_unless_a_user_replaced_it_in_view(history):
    w = world(history)
    for _ in range(2):
        for device in range(len(w.held)):
            w.sync(device)
    shown = " ".join(values(record)["note"] for record in w.held[0].values())
    for text in w.written - w.replaced_in_view:
        assert text in shown


def test_two_notes_changed_apart_are_both_kept_the_later_first_and_marked():
    laptop = edit({}, values({}), dict(values({}), note="read §3 again"), 100.0, "laptop")
    desk = edit({}, values({}), dict(values({}), note="cite in intro"), 200.0, "desk")
    note = values(merge(laptop, desk))["note"]
    assert note.startswith("cite in intro\n\n──── also kept: the note as device laptop had it at 1970-01-01 00:01 UTC")
    assert note.endswith("\nread §3 again")
    # Edited afterwards (the user saw both): the new text replaces both, everywhere it goes.
    seen = merge(laptop, desk)
    again = edit(seen, values(seen), dict(values(seen), note="cite in intro; §3"), 300.0, "desk")
    assert values(merge(again, laptop))["note"] == values(merge(laptop, again))["note"] == "cite in intro; §3"


def test_the_later_change_of_each_field_wins_and_a_tie_is_decided_the_same_everywhere():
    blank = values({})
    a = edit({}, blank, dict(blank, starred=True, priority=2), 100.0, "a")
    b = edit({}, blank, dict(blank, priority=4, read=True), 150.0, "b")
    merged = values(merge(a, b))
    assert (merged["starred"], merged["priority"], merged["read"]) == (True, 4, True)
    tie_a = edit({}, blank, dict(blank, priority=1), 100.0, "a")
    tie_b = edit({}, blank, dict(blank, priority=3), 100.0, "b")
    assert values(merge(tie_a, tie_b))["priority"] == values(merge(tie_b, tie_a))["priority"] == 3


def test_a_tag_removed_later_stays_removed_and_one_added_later_comes_back():
    blank = values({})
    tagged = edit({}, blank, dict(blank, tags=["x", "y"]), 100.0, "a")
    untagged = edit(tagged, values(tagged), dict(values(tagged), tags=["y"]), 200.0, "b")
    assert values(merge(tagged, untagged))["tags"] == ["y"]
    readded = edit(untagged, values(untagged), dict(values(untagged), tags=["y", "x"]), 300.0, "a")
    assert values(merge(tagged, readded))["tags"] == values(merge(readded, tagged))["tags"] == ["y", "x"]


def test_a_change_made_here_wins_over_a_field_dated_ahead_by_another_clock():
    blank = values({})
    ahead = edit({}, blank, dict(blank, starred=True), 5000.0, "fast-clock")
    mine = edit(ahead, values(ahead), dict(values(ahead), starred=False), 1000.0, "here")
    assert values(merge(ahead, mine))["starred"] is False
    assert all(name in SCALARS for name in ("read", "starred", "priority", "dismissed"))
    assert note_text([]) == ""
