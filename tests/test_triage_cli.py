"""`triage set` and the marks in `triage list --format jsonl`, through the real command."""
from __future__ import annotations

import csv
import json
import subprocess
import sys

from store.readers import read_path


def triage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, text=True)


def test_set_by_unique_prefix_then_list_carries_the_marks(seed_path):
    papers = read_path(seed_path).papers
    target = papers[3].id
    prefix = next(target[:n] for n in range(1, 11) if sum(p.id.startswith(target[:n]) for p in papers) == 1)
    result = triage("set", prefix, "--star", "--priority", "2", "--tag", "nlp", "--tag", "later", "--note", "read §3", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "id": target, "read": False, "starred": True, "priority": 2, "dismissed": False, "note": "read §3",
        "tags": ["nlp", "later"],
    }
    assert triage("set", target, "--read", "--untag", "later").returncode == 0
    rows = {row["id"]: row for row in map(json.loads, triage("list", "--format", "jsonl").stdout.splitlines())}
    assert {k: rows[target][k] for k in ("read", "starred", "priority", "note", "tags")} == {
        "read": True, "starred": True, "priority": 2, "note": "read §3", "tags": ["nlp"],
    }
    other = rows[papers[0].id]
    assert (other["read"], other["starred"], other["priority"], other["note"], other["tags"]) == (False, False, 0, "", [])


def test_set_an_unknown_or_ambiguous_id_is_exit_2_with_a_clear_line(seed_path):
    unknown = triage("set", "zzzz", "--star")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("triage: no paper with id 'zzzz' in ") and "Traceback" not in unknown.stderr
    first = read_path(seed_path).papers[0].id
    shared = next(p for p in "0123456789abcdef" if sum(i.startswith(p) for i in (q.id for q in read_path(seed_path).papers)) > 1)
    ambiguous = triage("set", shared, "--star")
    assert ambiguous.returncode == 2 and "matches" in ambiguous.stderr
    assert triage("set", first, "--priority", "7").returncode == 2


def test_set_refuses_a_database_from_a_newer_version(tmp_path, seed_path):
    db = tmp_path / "new.json"
    db.write_text('{"schema": 99, "tables": {}}', encoding="utf-8")
    result = triage("set", read_path(seed_path).papers[0].id, "--star", "--db", str(db))
    assert result.returncode == 2
    assert "newer paper-triage" in result.stderr and str(db) in result.stderr
    assert db.read_text(encoding="utf-8") == '{"schema": 99, "tables": {}}'


def test_the_app_refuses_a_database_from_a_newer_version_before_drawing(tmp_path):
    db = tmp_path / "new.json"
    db.write_text('{"schema": 99, "tables": {}}', encoding="utf-8")
    result = triage("--db", str(db))
    assert result.returncode == 2
    assert result.stderr.startswith(f"triage: {db}: written by a newer paper-triage") and "Traceback" not in result.stderr


def test_set_dismiss_then_list_shows_it_and_undismiss_takes_it_off(seed_path, tmp_path):
    target = read_path(seed_path).papers[4].id
    marked = triage("set", target, str(seed_path), "--dismiss", "--format", "jsonl")
    assert marked.returncode == 0, marked.stderr
    assert json.loads(marked.stdout)["dismissed"] is True
    rows = {row["id"]: row for row in map(json.loads, triage("list", str(seed_path), "--format", "jsonl").stdout.splitlines())}
    assert rows[target]["dismissed"] is True and sum(row["dismissed"] for row in rows.values()) == 1
    assert triage("list", "-q", "is:dismissed").stdout.split()[0] == target
    out = tmp_path / "list.csv"
    assert triage("export", "-o", str(out)).returncode == 0
    exported = {row["id"]: row["dismissed"] for row in csv.DictReader(out.open(encoding="utf-8"))}
    assert exported[target] == "True" and list(exported.values()).count("True") == 1
    assert json.loads(triage("set", target, "--undismiss", "--format", "jsonl").stdout)["dismissed"] is False
    assert triage("list", "-q", "is:dismissed").returncode == 1


# `triage`, counting the lines it appends to the database's journal (the journal itself is folded
# into the snapshot when the command closes the database, so the file cannot tell afterwards).
SPY = """
import sys
from store.marks import journal_files
appended = []
append = journal_files.append_line
journal_files.append_line = lambda path, offset, line: (appended.append(line), append(path, offset, line))[1]
from tui.cli import main
code = main(sys.argv[1:])
print(f"journal appends: {len(appended)}", file=sys.stderr)
sys.exit(code)
"""


def triage_counting(*args: str, stdin: str) -> tuple[subprocess.CompletedProcess[str], int]:
    result = subprocess.run([sys.executable, "-c", SPY, *args], input=stdin, capture_output=True, text=True)
    *rest, last = result.stderr.splitlines() or [""]
    assert last.startswith("journal appends: "), result.stderr
    return result, int(last.split(": ")[1])


def listed(query: str, *files: str) -> list[str]:
    """The ids `triage list -q query FILES` prints (the table's first column)."""
    return [line.split()[0] for line in triage("list", "-q", query, *files).stdout.splitlines()]


def test_set_dash_marks_each_paper_listed_on_stdin_in_one_journal_write(seed_path):
    """`triage list -q graph | triage set - --star`, from the table and from jsonl."""
    table = triage("list", "-q", "graph").stdout
    graph = [line.split()[0] for line in table.splitlines()]
    assert len(graph) == 2
    result, appends = triage_counting("set", "-", str(seed_path), "--star", "--tag", "graph", "--format", "jsonl", stdin=table)
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == graph
    assert all(json.loads(line)["starred"] and json.loads(line)["tags"] == ["graph"] for line in result.stdout.splitlines())
    assert appends == 1
    assert sorted(listed("is:starred")) == sorted(graph)
    jsonl = triage("list", "-q", "is:starred", "--format", "jsonl").stdout
    result, appends = triage_counting("set", "-", "--dismiss", "--unstar", stdin=jsonl + "\n")
    assert result.returncode == 0 and appends == 1 and len(result.stdout.splitlines()) == len(graph)
    assert listed("is:starred") == []
    assert sorted(listed("is:dismissed")) == sorted(graph)


def test_set_dash_with_an_unknown_id_writes_nothing_and_an_empty_stdin_is_exit_1(seed_path, tmp_path):
    db = tmp_path / "db.json"
    papers = read_path(seed_path).papers
    assert triage("set", papers[0].id, "--read", "--db", str(db)).returncode == 0
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.name.startswith("db.json")}
    ids = f"{papers[1].id}\nzzzz0000  Some title\n{papers[2].id}\nqqqq\n"
    result, appends = triage_counting("set", "-", "--star", "--db", str(db), stdin=ids)
    assert result.returncode == 2 and result.stdout == "" and appends == 0
    assert result.stderr.startswith("triage: no paper with ids 'zzzz0000', 'qqqq' in ") and "Traceback" not in result.stderr
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.name.startswith("db.json")} == before
    empty = subprocess.run([sys.executable, "-m", "tui", "set", "-", "--star", "--db", str(db)], input="\n\n",
                           capture_output=True, text=True)
    assert (empty.returncode, empty.stderr) == (1, "triage: no ids on standard input\n")
    broken = subprocess.run([sys.executable, "-m", "tui", "set", "-", "--star"], input=f"{papers[1].id}\n{{not json\n",
                            capture_output=True, text=True)
    assert (broken.returncode, broken.stderr) == (2, "triage: standard input:2: not a JSON row of `triage list --format jsonl`\n")


def test_set_dash_on_the_iclr_list_marks_its_matches_in_one_write(corpora):
    """The 2,260-paper list: the papers about graphs dismissed as one journal line, then every paper read as one."""
    corpus = str(corpora / "iclr-2024-abstracts.txt")
    jsonl = triage("list", "-q", "graph", corpus, "--format", "jsonl").stdout
    graph = [json.loads(line)["id"] for line in jsonl.splitlines()]
    assert len(graph) > 100
    result, appends = triage_counting("set", "-", corpus, "--dismiss", stdin=jsonl)
    assert (result.returncode, appends, len(result.stdout.splitlines())) == (0, 1, len(graph))
    assert sorted(listed("is:dismissed", corpus)) == sorted(graph)
    result, appends = triage_counting("set", "-", corpus, "--read", stdin=triage("list", corpus).stdout)
    assert (result.returncode, appends, len(result.stdout.splitlines())) == (0, 1, 2260)


def test_list_shows_the_marks_and_titles_as_the_app_does_and_set_says_what_it_marked_in_a_line(tmp_path):
    path = tmp_path / "papers.jsonl"
    rows = [{"title": "Nearly $d$-Linear Convergence Bounds", "abstract": "We bound the convergence of diffusion models."},
            {"title": "A Second Paper", "abstract": "Another abstract about graphs."}]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    first, second = read_path(path).papers
    marked = triage("set", first.id[:6], str(path), "--star", "--priority", "2", "--tag", "nlp")
    assert marked.returncode == 0, marked.stderr
    [line] = marked.stdout.splitlines()
    assert line.startswith(f"{first.id}  •★2  Nearly d-Linear Conv") and line.endswith("  (unread; starred; priority 2; tags: nlp)")
    assert triage("set", second.id, str(path), "--dismiss").stdout.startswith(f"{second.id}  ✗    A Second Paper  (not for me)")
    table = triage("list", str(path)).stdout.splitlines()
    assert [(line[:10], line[12:15], line[17:].split("  ")[0]) for line in table] == [
        (first.id, "•★2", "Nearly d-Linear Convergence Bounds"), (second.id, "✗  ", "A Second Paper")]
