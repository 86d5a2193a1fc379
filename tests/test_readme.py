"""The README tells the truth about what the app offers: every sort `S` cycles through, in its order,
and every query qualifier the help lists."""
from __future__ import annotations

import re
from pathlib import Path

from store.search.query import SYNTAX
from store.search.views import SCORE_SORT, SORTS

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_the_keys_table_names_every_sort_in_the_order_S_cycles():
    [row] = [line for line in README.splitlines() if line.startswith("| `S` |")]
    named = [SORTS[sort] for sort in SORTS if sort != SCORE_SORT]
    places = [row.find(name) for name in named]
    assert -1 not in places, [name for name, place in zip(named, places) if place == -1]
    assert places == sorted(places), row


def test_every_qualifier_of_the_query_help_is_in_the_readme():
    """Each qualifier the help's query tab shows (`is:new`, `session:`, `p<=`…) is in the README too."""
    shown = {found for example, _ in SYNTAX[:-1] for found in re.findall(r"[a-z]+(?::[a-z]+|[:<>=]+)", example)}
    assert shown and not [qualifier for qualifier in sorted(shown) if qualifier not in README]
