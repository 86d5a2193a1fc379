"""The BibTeX round trip: every field of every entry of a real `.bib` comes back out of `triage export`
as it was written (TeX, braces, corporate authors, doi, month macros), and a title from elsewhere is
braced only where a style would lower-case it wrongly."""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import bibtexparser
import pybtex.database
import pybtex.errors
from bibtexparser.middlewares import NormalizeFieldKeys, RemoveEnclosingMiddleware
from bibtexparser.model import DuplicateBlockKeyBlock, Entry
from pybtex.bibtex.utils import change_case

from store.papers.inert import inert
from tests.test_bibtex_fields import REFS

TRIAGE = str(Path(sys.executable).with_name("triage"))
MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}


def export(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed `triage export`, as a user runs it."""
    return subprocess.run([TRIAGE, "export", *args], capture_output=True, text=True)


def entries_of(text: str) -> list[Entry]:
    """Every entry of a BibTeX text, as bibtexparser reads it (field names lower-cased, values
    unenclosed), in file order, a repeated key's entry too."""
    library = bibtexparser.parse_string(text, append_middleware=[NormalizeFieldKeys()])
    entries = list(library.entries)
    for block in library.failed_blocks:
        assert isinstance(block, DuplicateBlockKeyBlock), block.error
        repeat = block.ignore_error_block
        for middleware in (RemoveEnclosingMiddleware(), NormalizeFieldKeys()):
            repeat = middleware.transform_entry(repeat, library)
        entries.append(repeat)
    return sorted(entries, key=lambda entry: entry.start_line or 0)


def resolved(text: str) -> dict:
    """The entries as BibTeX itself resolves `@string` macros and `#` (pybtex): what an unenclosed
    value means, where bibtexparser leaves `jean # " " # cesar` as it is written."""
    pybtex.errors.set_strict_mode(False)
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # (its warnings: biber-examples' repeated tmn4)
            return pybtex.database.parse_string(text, "bibtex").entries
    finally:
        pybtex.errors.set_strict_mode(True)


def pybtex_value(entry, name: str) -> str:
    if name in entry.persons:
        return " and ".join(str(person) for person in entry.persons[name])
    return entry.fields[name]


def spaced(value: object) -> str:
    return " ".join(str(value).split())


def skipped(entry: Entry, earlier: set[str]) -> str:
    """Why the reader lists no paper for `entry` (so there is none to export), or ''."""
    if "title" in entry.fields_dict or "abstract" in entry.fields_dict:
        return ""
    if entry.entry_type.lower() == "proceedings":
        # The volume of a PMLR file: no paper to triage; its venue and year are written into each
        # of its papers (booktitle, year) instead.
        return "untitled @proceedings"
    if entry.key in earlier:
        # biber-examples' second `tmn4` ("Test of duplicate skipping"): BibTeX and biber use the
        # first entry of a key; this one has no title or abstract either.
        return "untitled repeat of a key"
    return ""


def compare(path: Path, out: Path) -> tuple[int, int, list[str], list[str]]:
    """Entries and fields of `path` compared with `out`, our export of it: (entries, fields compared,
    differences, entries not exported and why)."""
    source_text = path.read_text(encoding="utf-8-sig")
    source, back = entries_of(source_text), entries_of(out.read_text(encoding="utf-8"))
    macros = resolved(source_text) if any(f.enclosing == "no-enclosing" for e in source for f in e.fields) else {}
    ours = resolved(out.read_text(encoding="utf-8")) if macros else {}
    exported = iter(back)
    fields = 0
    differences: list[str] = []
    not_exported: list[str] = []
    keys: set[str] = set()
    for entry in source:
        why = skipped(entry, keys)
        keys.add(entry.key)
        if why:
            not_exported.append(f"{entry.key}: {why}")
            continue
        twin = next(exported)
        where = f"{path.name}:{(entry.start_line or 0) + 1} {entry.key or '(no key)'}"
        # A key is the source's own; an entry with none (Citavi's `@Book{,`) gets one made up.
        if twin.key != entry.key and (entry.key or not twin.key):
            differences.append(f"{where}: key {twin.key!r}")
        if twin.entry_type.lower() != entry.entry_type.lower():
            differences.append(f"{where}: type {twin.entry_type}")
        for field in entry.fields:
            fields += 1
            mine = twin.fields_dict.get(field.key)
            if mine is None:
                differences.append(f"{where}: {field.key} missing")
                continue
            bare_month = field.key == "month" and field.enclosing == "no-enclosing" and field.value.casefold() in MONTHS
            if bare_month:  # `month = jan` is the style's month name: it must stay a macro, not become {jan}
                same = mine.enclosing == "no-enclosing" and mine.value == field.value
            elif field.enclosing == "no-enclosing" and not str(field.value).isdigit() and macros:
                # A macro or a `#` concatenation: compared as BibTeX resolves it, on both sides.
                same = spaced(pybtex_value(macros[entry.key], field.key)) == spaced(pybtex_value(ours[twin.key], field.key))
            else:
                # Control and invisible format characters never leave the reader (store.papers.boundary):
                # testjabref's U+200E marks around "COVID-19" are the only ones in the corpora.
                same = spaced(inert(str(field.value))) == spaced(mine.value)
            if not same:
                differences.append(f"{where}: {field.key} {str(field.value)[:60]!r} became {str(mine.value)[:60]!r}")
    assert next(exported, None) is None, f"{path.name}: more entries exported than read"
    return len(source), fields, differences, not_exported


def test_every_field_of_every_entry_of_the_real_bib_files_comes_back_from_triage_export(corpora, tmp_path):
    """Each file of corpora/bib through the installed `triage export --abstract`: parsed again, entry
    by entry and field by field against a parse of the file itself. Prints the counts (pytest -s)."""
    files = sorted(p for p in (corpora / "bib").rglob("*") if p.is_file())
    totals = [0, 0]
    report = []
    for path in files:
        out = tmp_path / f"{path.parent.name}-{path.stem}.bib"
        result = export(str(path), "--abstract", "-o", str(out))
        if not entries_of(path.read_text(encoding="utf-8-sig")):  # only @string / @comment blocks in it
            assert result.returncode == 2 and result.stderr.count("\n") == 1 and str(path) in result.stderr
            report.append(f"{path.relative_to(corpora / 'bib')}: 0 entries (exit 2: {result.stderr.strip()})")
            continue
        assert result.returncode == 0, result.stderr
        pybtex.database.parse_string(out.read_text(encoding="utf-8"), "bibtex")  # BibTeX's grammar, strictly: unique keys
        entries, fields, differences, not_exported = compare(path, out)
        assert differences == [], path
        totals[0] += entries
        totals[1] += fields
        report.append(f"{path.relative_to(corpora / 'bib')}: {entries} entries, {entries - len(not_exported)} "
                      f"exported, {fields} fields compared, 0 differences; not exported: {not_exported or 'none'}")
    print("\n" + "\n".join(report) + f"\ntotal: {totals[0]} entries, {totals[1]} fields")
    assert len(files) >= 20 and totals[0] > 800 and totals[1] > 7000


def exported_text(tmp_path: Path, name: str, text: str) -> str:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "out.bib"
    result = export(str(source), "-o", str(out))
    assert result.returncode == 0, result.stderr
    return out.read_text(encoding="utf-8")


def test_a_bib_file_exports_with_its_tex_braces_corporate_authors_doi_and_month_as_written(tmp_path):
    text = exported_text(tmp_path, "refs.bib", REFS)
    assert "title = {The \\LaTeX\\ Companion}" in text  # was {{The LaTeX Companion}}
    assert "author = {{IEEE Computer Society} and Goossens, Michel}" in text
    assert "doi = {http://dx.doi.org/10.1000/COMP.1993}" in text  # was dropped: it was no doi.org link
    assert "month = jan," in text  # the style's month macro, not the text {jan}
    assert "title = {{BERT}: Pre-training of Deep Bidirectional Transformers}" in text
    assert "title = {{An} amazing {title}}" in text  # its own braces, not the whole title braced again
    assert "booktitle = {Advances in Neural Information Processing Systems}" in text
    assert "eprint = {1810.04805v2}" in text and "archiveprefix = {arXiv}" in text and "primaryclass = {cs.CL}" in text
    company, person = pybtex.database.parse_string(text, "bibtex").entries["latexcompanion"].persons["author"]
    assert company.last_names == ["{IEEE Computer Society}"] and not company.first_names  # one name, not "Society, IEEE Computer"
    assert (person.last_names, person.first_names) == (["Goossens"], ["Michel"])


def test_a_title_is_braced_only_where_a_style_would_lower_case_it_wrongly(tmp_path):
    """What a BibTeX style prints (`change.case$` "t", pybtex's), for titles from a JSON list."""
    records = [
        {"title": "BERT for Bengali speech recognition with GPT-4", "abstract": "One.", "doi": "10.5555/one"},
        {"title": "PixArt-$\\alpha$: Fast Training of Diffusion Transformer", "abstract": "Two."},
        {"title": "A Unified and General Framework for Continual Learning", "abstract": "Three."},
        {"title": "Refresh Learning: A Unified Framework", "abstract": "Four."},
    ]
    text = exported_text(tmp_path, "list.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    titles = [e["title"] for e in bibtexparser.parse_string(text).entries]
    assert titles == [
        "{BERT} for {Bengali} speech recognition with {GPT-4}",
        "{PixArt-$\\alpha$}: Fast Training of Diffusion Transformer",
        "A Unified and General Framework for Continual Learning",
        "{Refresh Learning}: A Unified Framework",
    ]
    assert [change_case(title, "t") for title in titles] == [
        "{BERT} for {Bengali} speech recognition with {GPT-4}",
        "{PixArt-$\\alpha$}: Fast training of diffusion transformer",
        "A unified and general framework for continual learning",  # the title case is the style's to change
        "{Refresh Learning}: A unified framework",
    ]
    assert "doi = {10.5555/one}" in text
