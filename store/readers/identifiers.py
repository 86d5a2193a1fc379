"""A record's identifiers and keywords in the forms `Paper` keeps: a DOI bare, an arXiv id without
version or prefix, keywords as a list. Any reader may use them; each takes the value as the record
wrote it (`doi = {https://doi.org/10.1000/X}`, `eprint = {arXiv:2401.01234v2}`, a url)."""
from __future__ import annotations

import re

# A DOI: the directory indicator 10., a registrant code, a slash, then anything but spaces.
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)")
# An arXiv id: new style 2401.01234 (4 or 5 digits after the dot), or old style hep-th/9901001.
_ARXIV_ID = r"(\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_ARXIV = re.compile(rf"^(?:arxiv:)?{_ARXIV_ID}$", re.IGNORECASE)
_ARXIV_LINK = re.compile(rf"arxiv\.org/(?:abs|pdf|html)/{_ARXIV_ID}", re.IGNORECASE)
_ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.{_ARXIV_ID}$", re.IGNORECASE)
_KEYWORD_SEPARATOR = re.compile(r"\s*[,;]\s*")


def bare_doi(value: str) -> str:
    """'10.1000/xyz' from '10.1000/xyz', 'doi:10.1000/xyz' or 'https://doi.org/10.1000/xyz'; '' when
    the value holds no DOI."""
    match = _DOI.search(value.strip())
    return match.group(1).rstrip(".,;") if match else ""


def arxiv_id(value: str) -> str:
    """The arXiv id in an eprint value ('2401.01234v2', 'arXiv:hep-th/9901001'), an arxiv.org link
    ('https://arxiv.org/pdf/2401.01234v2.pdf') or an arXiv DOI ('10.48550/arXiv.2401.01234'), without
    version or prefix; '' when there is none."""
    value = value.strip()
    match = _ARXIV.match(value) or _ARXIV_LINK.search(value) or _ARXIV_DOI.match(value)
    return match.group(1) if match else ""


def keyword_list(value: str) -> tuple[str, ...]:
    """Keywords separated by commas or semicolons, each once, in order."""
    return tuple(dict.fromkeys(word for word in _KEYWORD_SEPARATOR.split(value.strip()) if word))
