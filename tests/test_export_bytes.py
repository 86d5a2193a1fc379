"""The export's bytes stay what they were when its speed was worked on (issue 34): every format of the ICLR list and
of the BibTeX files in ../shared/corpora/bib, compared by SHA-256 with what main wrote before (commit 8a64d02).

An intended change of an export's output changes a digest here: print the new ones with
`python tests/test_export_bytes.py` and say in the commit why the bytes changed."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from store.cite import export
from store.cite.keys import citation_keys
from store.papers.model import Triage
from store.readers import read_path

CASES = [("bibtex", False), ("bibtex", True), ("ris", False), ("csl-json", False), ("markdown", False), ("csv", False),
         ("jsonl", False)]
DIGESTS = {
    "iclr bibtex": "d5235abaaf466fec0ff65072fb9abdcce37e5f143a81c68e226cb49f37eb0a7e",
    "iclr bibtex --abstract": "135a0443ad72b9d5d351bc8962900d4659d0d2cbe190aa0e450d20d3f756f3b0",
    "iclr ris": "789f7b82b80b9a903df4ed794aa62e1c7e40e844ed5fd5dca2248350cdabef6b",
    "iclr csl-json": "df37a622121bf61fe03e057eb3020da10716d88efd2446814fe0c885740ed567",
    "iclr markdown": "242031404b6afe5a9dd0955f31907a890d6b6880f2cccb1cc2b6412da0a005fe",
    "iclr csv": "325c039d7f4808730a9aa27b0af49aa803a03301e87a42eb2e6dbde740b3b0fb",
    "iclr jsonl": "6e95848f6f3f33ceb899cf563f5f7c798e01bc8751a2dc953a5e9fda683e9462",
    "bib bibtex": "7551ccdd8f12cc2aea4d6a08119617db377d0224cff2db1696e3e7b332ca9146",
    "bib bibtex --abstract": "74118be85b5fa645e9c896e1b0ab56bda536faa00ab116717613a95dfbcb5e0c",
    "bib ris": "88e04ab390f23aee9c76400e49cfa6533db05fae85879ee20ffbf0fd35a31d2e",
    "bib csl-json": "83d4d53ddb7c0fdb3782890cee327310dd72598e3fdc02a6d23bb1420f740c6d",
    "bib markdown": "70ce304b9523d8855d91b3f3a0bfb2dd0c817beb5cf3c6264ba4fbca24096c85",
    "bib csv": "e1aaadcff43d28f714b05a13c397508f7a4526141a85fffb67ac9e4d67cb3ac3",
    "bib jsonl": "af23632b85248120a2df8145da4b59ce518a6c0782dbf315806229a675b84a51",
}


def _files(corpora: Path) -> dict[str, list[Path]]:
    return {"iclr": [corpora / "iclr-2024-papers.jsonl"], "bib": sorted((corpora / "bib").rglob("*.bib"))}


def _outputs(paths: list[Path], fmt: str, abstract: bool) -> str:
    """Each file's papers in `fmt`, one after the other, every seventh with marks."""
    texts = []
    for path in paths:
        try:
            papers = read_path(path).papers
        except Exception:  # a file with no entries (bibtexparser's own test files have some)
            continue
        states = {p.id: Triage(read=i % 3 == 0, starred=i % 5 == 0, priority=i % 4, note=f"n{i}", tags=("t",))
                  for i, p in enumerate(papers[::7])}
        texts.append(export.render(papers, fmt, states, citation_keys(papers), abstract))
    return "".join(texts)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("corpus", ["iclr", "bib"])
def test_export_bytes_are_unchanged(corpora, corpus):
    for fmt, abstract in CASES:
        name = f"{corpus} {fmt}{' --abstract' if abstract else ''}"
        assert _digest(_outputs(_files(corpora)[corpus], fmt, abstract)) == DIGESTS[name], f"{name} changed"


if __name__ == "__main__":
    for corpus, paths in _files(Path(__file__).resolve().parents[2] / "shared" / "corpora").items():
        for fmt, abstract in CASES:
            print(f'    "{corpus} {fmt}{" --abstract" if abstract else ""}": "{_digest(_outputs(paths, fmt, abstract))}",')
