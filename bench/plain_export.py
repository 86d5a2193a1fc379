"""A plain script writing a list's records as `triage export` does, what it is measured against (bench/scale.py):
JSON Lines records (the arXiv snapshot's or a conference's), or a bare-abstract list's paragraphs. As BibTeX (OUT.bib)
each an `@misc` with its title, authors, year, keywords, url and abstract's first words; in the other formats (by OUT's
extension: .ris, .json for CSL-JSON, .md, .csv, .jsonl) the same fields and, but in Markdown, the abstract.

    python bench/plain_export.py LIST OUT.bib
"""
from __future__ import annotations

import csv
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


def fields(record: dict) -> dict:
    """The fields every format writes, as plain values."""
    authors, keywords = record.get("authors") or "", record.get("categories") or record.get("keywords") or ""
    return {"title": " ".join(str(record.get("title", "")).split()),
            "authors": authors if isinstance(authors, list) else [name for name in authors.split(", ") if name],
            "year": (record.get("update_date") or str(record.get("year") or ""))[:4],
            "keywords": "; ".join(keywords) if isinstance(keywords, list) else keywords,
            "url": f"https://arxiv.org/abs/{record['id']}" if "id" in record else record.get("url", ""),
            "abstract": record.get("abstract", "")}


def ris(number: int, record: dict) -> str:
    values = fields(record)
    lines = [("TY", "GEN"), ("ID", f"paper{number}"), ("TI", values["title"]), *(("AU", name) for name in values["authors"]),
             ("PY", values["year"]), ("KW", values["keywords"]), ("UR", values["url"]), ("AB", " ".join(values["abstract"].split()))]
    return "".join(f"{tag}  - {value}\n" for tag, value in lines if value) + "ER  - \n\n"


def csl(number: int, record: dict) -> str:
    values = fields(record)
    item = {"id": f"paper{number}", "type": "article", "title": values["title"],
            "author": [{"literal": name} for name in values["authors"]], "issued": {"date-parts": [[values["year"]]]},
            "keyword": values["keywords"], "URL": values["url"], "abstract": values["abstract"]}
    return ("[\n" if number == 0 else ",\n") + json.dumps(item, ensure_ascii=False)


def markdown(number: int, record: dict) -> str:
    values = fields(record)
    return f"- [ ] **{values['title']}** {', '.join(values['authors'])} ({values['year']}) `paper{number}`\n"


def jsonl(number: int, record: dict) -> str:
    return json.dumps({"id": f"paper{number}", **fields(record)}, ensure_ascii=False) + "\n"


WRITERS = {".bib": bibtex, ".ris": ris, ".json": csl, ".md": markdown, ".jsonl": jsonl}


def main() -> None:
    source, target = sys.argv[1:3]
    suffix = target[target.rfind("."):]
    with open(target, "w", encoding="utf-8", newline="") as out:
        if suffix == ".csv":
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(["id", "title", "authors", "year", "keywords", "url", "text"])
            for number, record in enumerate(entries(source)):
                values = fields(record)
                writer.writerow([f"paper{number}", values["title"], "; ".join(values["authors"]), values["year"],
                                 values["keywords"], values["url"], values["abstract"]])
            return
        write = WRITERS[suffix]
        for number, record in enumerate(entries(source)):
            out.write(write(number, record))
        if suffix == ".json":
            out.write("\n]\n")


if __name__ == "__main__":
    main()
