"""SIGKILL the installed `triage` in tmux right after a mark is shown saved, restart it, count lost marks.

    python bench/faults.py [--trials 200]

Each trial opens the app on the bundled list, checks that every row shows the marks shown saved
before the last kill, toggles one paper's star, waits until its row shows it saved (no `…` in the
first column, no "saving…" in the header) and kills the process with SIGKILL (see tests/faults.py).
Prints trials, failed trials (a restart unlike what was shown saved), marks lost, and the time taken.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.faults import kill_trials  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        tally = kill_trials(Path(folder) / "triage.json", args.trials)
        seconds = time.perf_counter() - start
    print(f"{'trials':>8} {'failed':>8} {'lost':>8} {'seconds':>9} {'s/trial':>8}")
    print(f"{tally.trials:>8} {tally.failures:>8} {tally.lost:>8} {seconds:>9.1f} {seconds / max(tally.trials, 1):>8.2f}")


if __name__ == "__main__":
    main()
