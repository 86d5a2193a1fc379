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
