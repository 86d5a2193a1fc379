"""LaTeX as Unicode text: a short segment of an abstract (`$\\geq 50$`, `\\textbf{x}`, `{\\"o}`), a BibTeX field.

Rendered by pylatexenc with our macros (`\\texttt`, `\\LaTeX`, operators such as `\\log` spaced as
words), imported on the first segment only and each result cached. A segment pylatexenc cannot render (it logs
a warning and gives what it has, `$\\frac$` as `%s/%s`) is shown as written, and its warning never reaches the
terminal (`_refused`). Finding the segments in an abstract, and the styles they give, is `store.papers.text`'s.
"""
from __future__ import annotations

import logging
from functools import cache, lru_cache
from typing import Any

from store.papers.inert import inert

_OPERATORS = ("log", "ln", "exp", "sin", "cos", "tan", "min", "max", "arg", "sup", "inf", "lim", "det", "dim", "Pr")


class _Refused(Exception):
    """pylatexenc warned of a segment: its text is not to be shown."""


def _refused(record: logging.LogRecord) -> bool:
    """A filter on pylatexenc's loggers: a warning of theirs (a macro of malformed arguments, an unknown node) ends
    the rendering of the segment (`latex` then shows it as written) rather than going to stderr, which in the app is
    the terminal the screen is drawn on (and a worker process's, too)."""
    raise _Refused(record.getMessage())


@cache
def _converter() -> tuple[Any, Any]:
    """pylatexenc's converter with our macros, and the context its parser reads, made on the first
    LaTeX segment: a list without LaTeX (and a cached one) never imports pylatexenc (~40 ms)."""
    from pylatexenc import latexwalker
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    for name in ("pylatexenc.latexwalker", "pylatexenc.latex2text"):
        logging.getLogger(name).addFilter(_refused)
    context = get_default_latex_context_db()
    context.add_context_category(
        "paper-triage",
        prepend=True,
        macros=[
            MacroTextSpec("texttt", simplify_repl="%(1)s"),
            MacroTextSpec("mathtt", simplify_repl="%(1)s"),
            MacroTextSpec("LaTeX", simplify_repl="LaTeX"),
            MacroTextSpec("TeX", simplify_repl="TeX"),
            *(MacroTextSpec(name, simplify_repl=" " + name) for name in _OPERATORS),
        ],
    )
    converter = LatexNodes2Text(latex_context=context, math_mode="text", strict_latex_spaces="based-on-source")
    # What the parser knows of macros. Without it, every parse builds pylatexenc's default again
    # (most of the cost of a short segment); the parser only reads it.
    return converter, latexwalker.get_default_latex_context_db()


@lru_cache(maxsize=65536)
def latex(segment: str) -> str:
    """A short LaTeX segment (`$\\geq 50$`, `\\textbf{x}`, `{\\"o}`) as Unicode text; never raises."""
    converter, parsing = _converter()
    try:
        return converter.latex_to_text(segment, latex_context=parsing)
    except Exception:  # pylatexenc on malformed input (raising, or warning: `_refused`): show the source rather than fail
        return segment


def latex_text(value: str) -> str:
    """A BibTeX field value (title, author, venue) as one line of Unicode text."""
    if "\\" in value or "{" in value or "$" in value or "~" in value:
        value = latex(value)
    return " ".join(inert(value).split())
