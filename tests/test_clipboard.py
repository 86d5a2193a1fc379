"""Copying through a real pyperclip backend: xclip on an Xvfb display (skipped when either is missing;
.ci/run installs both)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from store.cite import citations as cite
from store.cite.keys import citation_keys
from store.readers import read_path
from tests.waits import told, until
from tui import clipboard
from tui.app import TriageApp


@pytest.fixture(scope="module")
def x_display():
    """A private Xvfb server; its display name."""
    if not (shutil.which("Xvfb") and shutil.which("xclip")):
        pytest.skip("Xvfb and xclip are not installed (apt-get install xvfb xclip)")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp"], pass_fds=[write],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()
    if not number:
        server.kill()
        pytest.fail("Xvfb did not start")
    yield f":{number}"
    server.terminate()
    server.wait()


@pytest.fixture
def on_display(x_display, monkeypatch):
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", x_display)
    return x_display


def x_clipboard() -> str:
    return subprocess.run(["xclip", "-selection", "clipboard", "-o"], capture_output=True, text=True, check=True).stdout


def test_system_copy_uses_xclip_and_reads_it_back(on_display):
    text = "Ünïcode & {braces} — 50%\n"
    assert clipboard.system_copy(text) == "xclip"
    assert x_clipboard() == text


def test_a_display_that_is_gone_falls_back_to_osc52(monkeypatch, x_display):
    """xclip fails silently when the X server is unreachable: the read-back catches it."""
    monkeypatch.setenv("DISPLAY", ":4099")
    sent = []
    assert clipboard.copy("text", sent.append) == clipboard.OSC52 and sent == ["text"]


def test_cite_copy_on_the_command_line_fills_the_x_clipboard(on_display, seed_path):
    paper = read_path(seed_path).papers[1]
    result = subprocess.run([sys.executable, "-m", "tui", "cite", paper.id, "--copy"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "BibTeX copied (xclip)"
    assert x_clipboard() == result.stdout


async def test_c_in_the_app_fills_the_x_clipboard(on_display, seed_path):
    collection = read_path(seed_path)
    app = TriageApp(collection)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("j", "c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert x_clipboard() == cite.render([collection.papers[1]], "bibtex", citation_keys(collection.papers))
        await until(pilot, lambda: bool(told(app)) and told(app)[-1].message == "BibTeX copied (xclip)")
