"""`store` works without a screen: none of its modules imports textual, rich or tui."""
from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import store

MODULES = ["store"] + [m.name for m in pkgutil.walk_packages(store.__path__, "store.")]


@pytest.mark.parametrize("module", MODULES)
def test_store_module_imports_no_ui(module):
    code = f"import sys, {module}; print(sorted({{m.split('.')[0] for m in sys.modules}} & {{'textual', 'rich', 'tui'}}))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_app_imports_before_its_first_frame_nothing_that_frame_does_not_draw():
    """The search engine, the For-you ranking, citations and fetching are imported when first used (by the work
    behind the list, a mark, a copy, `F`), not with the app: numpy, tantivy and rapidfuzz, scipy and scikit-learn,
    bibtexparser and the HTTP client were ~0.2 s of CPU before every first frame."""
    late = {"numpy", "tantivy", "rapidfuzz", "scipy", "sklearn", "bibtexparser", "http"}
    code = f"import sys, tui.app; print(sorted({{m.split('.')[0] for m in sys.modules}} & {late!r}))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
