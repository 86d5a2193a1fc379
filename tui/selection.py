"""Selecting many papers, and acting on them at once.

Owns the selected paper ids, the visual mode's anchor (`V`: the rows between the anchor and the cursor
join the selection as the cursor moves), and how an action's target papers are chosen: the selection
when there is one, else the paper under the cursor. `SelectionActions` is a mixin of `TriageApp`: the
selection keys, and the bulk forms of the triage keys, which go through the app's `change` (one undo
step, one durable write for all the papers) and ask first above `ASK_ABOVE` papers.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from store.papers.model import Paper, Triage
from store.papers.rows import ById
from tui.screens.dialogs import Confirm, TagEditor
from tui.widgets.paper_list import PaperList

ASK_ABOVE = 50
"""A bulk action on more papers than this asks first, as `R` does."""


class Selection:
    """The selected paper ids (in the order they were selected) and, in visual mode, its anchor."""

    def __init__(self) -> None:
        self.ids: dict[str, None] = {}
        self.anchor: str | None = None
        """The paper visual mode started on (None: not in visual mode)."""
        self._before: dict[str, None] = {}
        """The selection when visual mode started: the range is added to it."""

    def __bool__(self) -> bool:
        return bool(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self.ids

    def toggle(self, paper_id: str) -> set[str]:
        """Select the paper, or take it out of the selection; the ids whose rows change."""
        if paper_id in self.ids:
            del self.ids[paper_id]
        else:
            self.ids[paper_id] = None
        return {paper_id}

    def add(self, paper_ids: Sequence[str]) -> set[str]:
        new = [pid for pid in paper_ids if pid not in self.ids]
        self.ids.update(dict.fromkeys(new))
        return set(new)

    def clear(self) -> set[str]:
        changed, self.ids, self.anchor, self._before = set(self.ids), {}, None, {}
        return changed

    def start_visual(self, paper_id: str) -> set[str]:
        self.anchor, self._before = paper_id, dict(self.ids)
        return self.add([paper_id])

    def stop_visual(self) -> None:
        self.anchor, self._before = None, {}

    def extend_to(self, papers: Sequence[Paper], rows: Callable[[str], int | None], cursor: int) -> set[str]:
        """Visual mode: the selection is what it was when `V` was pressed plus the rows from the anchor to
        the cursor. The ids whose rows change."""
        anchor = rows(self.anchor) if self.anchor is not None else None
        if anchor is None:  # the anchor's row left the list (a new query): visual mode ends
            self.stop_visual()
            return set()
        low, high = sorted((anchor, cursor))
        ids = dict(self._before)
        ids.update(dict.fromkeys(paper.id for paper in papers[low:high + 1]))
        changed = set(ids).symmetric_difference(self.ids)
        self.ids = ids
        return changed


class SelectionActions:
    """`;`, `V`, `ctrl+a`, `esc` (see TriageApp's key table), and the triage keys on many papers."""

    states: dict[str, Triage]
    papers_by_id: ById

    @property
    def selection(self) -> Selection:
        if "_selection" not in self.__dict__:
            self.__dict__["_selection"] = Selection()
        return self.__dict__["_selection"]

    def targets(self) -> list[Paper]:
        """The papers an action applies to: the selected ones (in the order selected), else the current one."""
        if self.selection.anchor is not None:  # the cursor's newest move may not have reached us yet
            self._extend_visual(self.query_one(PaperList))
        if self.selection:
            return [self.papers_by_id[pid] for pid in self.selection.ids]
        current = self.query_one(PaperList).current
        return [current] if current is not None else []

    def _selection_changed(self, paper_ids: set[str]) -> None:
        """Redraw the rows whose selection mark changed, and the header's count."""
        paper_list = self.query_one(PaperList)
        paper_list.selected = self.selection.ids
        paper_list.refresh_papers(paper_ids)
        self._show_counts()

    def action_toggle_selected(self) -> None:
        """Select the paper under the cursor, or take it out of the selection; then the next paper."""
        paper_list = self.query_one(PaperList)
        if paper_list.current is not None:
            self.selection.stop_visual()
            self._selection_changed(self.selection.toggle(paper_list.current.id))
            paper_list.cursor += 1

    def action_visual_mode(self) -> None:
        """`V`: start selecting the rows the cursor moves over; `V` again stops (the selection stays)."""
        paper = self.query_one(PaperList).current
        if self.selection.anchor is not None:
            self.selection.stop_visual()
            self._show_counts()
        elif paper is not None:
            self._selection_changed(self.selection.start_visual(paper.id))

    def follow_visual(self, paper_list: PaperList) -> None:
        """In visual mode the cursor's moves extend the selection."""
        if self.selection.anchor is not None:
            self._extend_visual(paper_list)

    def _extend_visual(self, paper_list: PaperList) -> None:
        changed = self.selection.extend_to(paper_list.papers, paper_list.index_of, paper_list.cursor)
        if changed or self.selection.anchor is None:  # None: visual mode ended, the header says so
            self._selection_changed(changed)

    def action_select_all(self) -> None:
        """Add every paper shown to the selection."""
        self.selection.stop_visual()
        self._selection_changed(self.selection.add([paper.id for paper in self.query_one(PaperList).papers]))
        self.notify(f"{len(self.selection)} papers selected", markup=False)

    def action_clear_selection(self) -> None:
        self._selection_changed(self.selection.clear())

    # --- the triage keys on the targets --------------------------------------------------------------

    def bulk(self, verb: str, mark: Callable[[Triage], Triage], papers: list[Paper] | None = None) -> None:
        """Apply `mark` to the target papers as one action (one undo step, one write): on a selection,
        ask first above ASK_ABOVE papers and say how many changed ("Starred 12 papers")."""
        papers = self.targets() if papers is None else papers
        if not papers:
            return
        new = {paper.id: mark(self.state_of(paper.id)) for paper in papers}
        if not self.selection:
            self.change(new)
            return
        changed = {pid: state for pid, state in new.items() if state != self.state_of(pid)}

        def go(yes: bool | None = True) -> None:
            if yes:
                self.change(changed)
                self.notify(f"{verb} {len(changed)} paper{'' if len(changed) == 1 else 's'}", markup=False)

        if not changed:
            self.notify(f"Nothing to change in the {len(papers)} papers selected", markup=False)
        elif len(changed) > ASK_ABOVE:
            self.push_screen(Confirm(f"{verb} {len(changed)} of the {len(papers)} papers selected?"), go)
        else:
            go()

    def toggle_mark(self, field: str, on: str, off: str) -> None:
        """Toggle a yes/no mark: set on every target unless all have it, then take it off all."""
        papers = self.targets()
        value = not all(getattr(self.state_of(paper.id), field) for paper in papers)
        self.bulk(on if value else off, lambda state: replace(state, **{field: value}), papers)

    def add_tags(self) -> None:
        """`t` on a selection: tags typed are added to each selected paper (the ones it has stay)."""
        papers = self.targets()

        def entered(tags: object) -> None:
            if tags:
                self.bulk("Tagged",
                          lambda state: replace(state, tags=tuple(dict.fromkeys((*state.tags, *tags)))), papers)

        self.push_screen(TagEditor(f"add to {len(papers)} selected papers", ()), entered)
