"""A plain script writing a list's records as BibTeX, what `triage export --format bibtex` is measured against
(bench/scale.py): JSON Lines records (the arXiv snapshot's or a conference's), or a bare-abstract list's
paragraphs, each an `@misc` with its title, authors, year, keywords, url and abstract's first words.

    python bench/plain_export.py LIST OUT.bib
"""
from __future__ import annotations

import json
import sys


def entries(path: str):
    with open(path, encoding="utf-8") as source:
        if path.endswith(".jsonl"):
            for line in source:
                if line.strip():
                    yield json.loads(line)
        else:
            for paragraph in source.read().split("\n\n")[1:]:
                if paragraph.strip():
                    yield {"title": " ".join(paragraph.split()[:10]), "abstract": paragraph}


def bibtex(number: int, record: dict) -> str:
    def braced(value: object) -> str:
        text = " ".join(str(value).split())
        return "{" + text.replace("\\", "\\textbackslash{}").replace("{", "\\{").replace("}", "\\}") + "}"

    authors = record.get("authors") or ""
    authors = " and ".join(authors) if isinstance(authors, list) else authors.replace(", ", " and ")
    year = (record.get("update_date") or str(record.get("year") or ""))[:4]
    fields = {"title": record.get("title", ""), "author": authors, "year": year,
              "keywords": record.get("categories") or record.get("keywords") or "",
              "url": f"https://arxiv.org/abs/{record['id']}" if "id" in record else record.get("url", "")}
    body = ",\n".join(f"  {key} = {braced(value)}" for key, value in fields.items() if value)
    return f"@misc{{paper{number},\n{body}\n}}\n\n"


def main() -> None:
    source, target = sys.argv[1:3]
    with open(target, "w", encoding="utf-8") as out:
        for number, record in enumerate(entries(source)):
            out.write(bibtex(number, record))


if __name__ == "__main__":
    main()
