"""LaTeX as Unicode text: a short segment of an abstract (`$\\geq 50$`, `\\textbf{x}`, `{\\"o}`), a BibTeX field.

Rendered by pylatexenc with our macros (`\\texttt`, `\\LaTeX`, operators such as `\\log` spaced as
words), imported on the first segment it is needed for and each result cached; a segment it would read as what it
holds (`$K=1$`, `\\textbf{21.512}`, `$\\mathrm{CSVRG}$`: a third of an abstract list's, ~200 µs each) is read
without it. A segment pylatexenc cannot render (it logs a warning and gives what it has, `$\\frac$` as `%s/%s`) is
shown as written, and its warning never reaches the terminal (`_refused`). Finding the segments in an abstract, and the styles they give, is `store.papers.text`'s.
"""
from __future__ import annotations

import logging
import re
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


# What pylatexenc reads as written: ASCII letters, digits and punctuation, spaces between, but no character it reads
# otherwise (braces, `\\ $ % & ~`, and the ligatures `--`, `''`, backquotes); a math segment of it, or it as the
# argument of a style that leaves letters as they are (so no `\\mathbf`: 𝐀). Checked against pylatexenc's reading
# of every segment of the corpora's lists and of random ones (tests/test_text.py).
_AS_WRITTEN = r"(?! )(?:[A-Za-z0-9!\"#()*+,./:;<=>?@\[\]^_|]|'(?!')|-(?!-)| )+(?<! )"
_STYLES = "textbf|textit|textsc|textrm|textnormal|texttt|text|emph|underline|mathrm|mathtt|boldsymbol|bm|operatorname"
_READ_AS_WRITTEN = re.compile(rf"\$(?P<math>{_AS_WRITTEN})\$|(?P<dollar>\$?)\\(?:{_STYLES})\{{(?P<argument>{_AS_WRITTEN})\}}(?P=dollar)")


@lru_cache(maxsize=65536)
def latex(segment: str) -> str:
    """A short LaTeX segment (`$\\geq 50$`, `\\textbf{x}`, `{\\"o}`) as Unicode text; never raises."""
    plain = _READ_AS_WRITTEN.fullmatch(segment)
    if plain:
        return plain["math"] if plain["math"] is not None else plain["argument"]
    return rendered(segment)


def rendered(segment: str) -> str:
    """`latex(segment)` as pylatexenc renders it."""
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
