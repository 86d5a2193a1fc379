"""Display text: what a reader sees of an abstract's markup, and what search runs over."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from store.papers.inert import inert
from store.papers.text import display


def styled(text):
    shown = display(text)
    return shown.plain, [(shown.plain[s.start : s.end], s.kind, s.url) for s in shown.spans]


def test_latex_math_and_escapes_read_as_unicode():
    assert display(r"pruned LLMs even at $\geq 50$\% sparsity").plain == "pruned LLMs even at ≥ 50% sparsity"
    assert display(r"CNNs require $\tilde{O}(k+d)$ samples, \emph{not} $\Omega(kd)$").plain == (
        "CNNs require Õ(k+d) samples, not Ω(kd)"
    )
    assert display(r"$\texttt{NAISR}$: shapes, Rockl{\"o}v and {B}ayesian \& co").plain == (
        "NAISR: shapes, Rocklöv and Bayesian & co"
    )


def test_latex_pylatexenc_cannot_render_is_shown_as_written_and_never_printed(capfd):
    # pylatexenc gives `%s/%s` for a \frac without its arguments, and logs a warning to stderr: the app's terminal
    assert display(r"a ratio $\frac$ of $\frac{1}{2}$").plain == r"a ratio $\frac$ of 1/2"
    assert capfd.readouterr().err == ""


def test_markdown_bold_italic_code_become_spans_without_markers():
    plain, spans = styled("We introduce **K**nowledge-**I**ntensive **C**ompressed LLM **(LLM-KICK)**, *training-free* `x=1`")
    assert plain == "We introduce Knowledge-Intensive Compressed LLM (LLM-KICK), training-free x=1"
    assert ("K", "bold", "") in spans and ("(LLM-KICK)", "bold", "") in spans
    assert ("training-free", "italic", "") in spans and ("x=1", "code", "") in spans


def test_latex_styles_become_spans():
    _, spans = styled(r"we present $\textbf{Matcher}$ and \textbf{FROSTER} and {\em DistillSpec} in \texttt{jax}")
    assert ("Matcher", "math", "") in spans
    assert ("FROSTER", "bold", "") in spans and ("DistillSpec", "italic", "") in spans and ("jax", "code", "") in spans


def test_an_asterisk_inside_a_name_is_not_markup():
    assert display("we propose ToolChain*, an efficient A$^*$ search").plain == "we propose ToolChain*, an efficient A^* search"


def test_links_with_and_without_scheme_exclude_trailing_punctuation():
    plain, spans = styled("Code: github.com/microsoft/BatchPrompt. See https://x.org/a_(b)), [the repo](https://a.b/c) or www.site.org.")
    assert plain == "Code: github.com/microsoft/BatchPrompt. See https://x.org/a_(b)), the repo or www.site.org."
    assert [s for s in spans if s[1] == "link"] == [
        ("github.com/microsoft/BatchPrompt", "link", "https://github.com/microsoft/BatchPrompt"),
        ("https://x.org/a_(b)", "link", "https://x.org/a_(b)"),
        ("the repo", "link", "https://a.b/c"),
        ("www.site.org", "link", "https://www.site.org"),
    ]
    assert display("at https://github.com/ajy112/HDGNN. Again: https://github.com/ajy112/HDGNN").links == (
        "https://github.com/ajy112/HDGNN",)


def test_square_brackets_and_escape_sequences_stay_inert():
    assert display("[@click=app.quit] and [b]bold[/b] [1]").plain == "[@click=app.quit] and [b]bold[/b] [1]"
    assert display("\x1b[31mred\x1b[0m\x07 text\u200b\u202e!").plain == "red text!"
    assert inert("a\tb\nc\x1b]8;;http://x\x07d") == "a\tb\ncd"


def test_no_printable_character_is_one_inert_removes():
    """`inert` returns a text Python calls printable as it is, unread: that holds for every character there is."""
    printable = "".join(char for char in map(chr, range(0x110000)) if char.isprintable())
    assert inert(printable + "\x00") == printable  # (the NUL: read, not returned at once)


def test_unclosed_markup_is_left_as_text():
    for text in ["**unclosed", "$unclosed math", "*unclosed", "`unclosed", "[unclosed](", "{unclosed", "costs $5 and $10"]:
        assert display(text).plain == text
    assert "unclosed" in display(r"\textbf{unclosed").plain


def test_inline_html_becomes_the_same_spans_as_markdown():
    plain, spans = styled("We study <em>in situ</em> and <i>ex vivo</i> with <b>FairTune</b>, <strong>fast</strong> "
                          "<code>x=1</code> and <a href=\"https://a.org/p?x=1&amp;y=2\">the <i>code</i></a>.")
    assert plain == "We study in situ and ex vivo with FairTune, fast x=1 and the code."
    assert spans == [("in situ", "italic", ""), ("ex vivo", "italic", ""), ("FairTune", "bold", ""), ("fast", "bold", ""),
                     ("x=1", "code", ""), ("the code", "link", "https://a.org/p?x=1&y=2"), ("code", "italic", "")]
    assert styled("<EM>in situ</EM>")[1] == styled("*in situ*")[1] and styled("<b>x y</b>")[1] == styled("**x y**")[1]


def test_html_sub_sup_breaks_paragraphs_and_entities():
    assert display("H<sub>2</sub>O at 10<sup>-3</sup>, x<sup>n+1</sup>, the 5<sup>th</sup> run, a<sub>ij</sub>").plain == (
        "H₂O at 10⁻³, xⁿ⁺¹, the 5th run, aᵢⱼ")
    assert display("<p>First part.</p><p>Second,<br>third<br/> and <BR />fourth.</p>").plain == (
        "First part. Second, third and fourth.")
    assert display("Q&amp;A &lt;b&gt; it&#39;s &#x2014; &mdash;&nbsp;done &copy;").plain == "Q&A <b> it's — — done ©"


def test_text_that_only_looks_like_html_stays_as_written():
    for text in ["a < b and c > d", "x<y and y>z", "the <unk> token", "List<int> and Map<K, V>", "R&D, AT&T; Q&A",
                 "&unknown; and & alone", "<b> unclosed bold", "<https://github.com/a/b>", "$a<b$ and $c>d$"]:
        shown = display(text)
        assert shown.plain == text.replace("$", "") or shown.plain == text
        assert not [s for s in shown.spans if s.kind != "link" and s.kind != "math"]
    assert display("<https://github.com/a/b>").links == ("https://github.com/a/b",)


def test_html_never_becomes_terminal_markup_or_escapes():
    plain, spans = styled("<b>[@click=app.quit]x[/]</b> &#27;[31mred &#8238;evil&#x7f; &#42;not italic&#42; &lt;i&gt;")
    assert plain == "[@click=app.quit]x[/] [31mred evil *not italic* <i>"
    assert spans == [("[@click=app.quit]x[/]", "bold", "")]
    assert inert(plain) == plain


PIECES = ["<b>", "</b>", "<i>", "</I>", "<sub>", "</sub>", "<sup>", "</sup>", "<br>", "<p>", "</p>", '<a href="https://x.org/a">',
          "</a>", "&amp;", "&lt;", "&#27;", "&#x202e;", "&nbsp;", "&bogus;", "<", ">", "&", "*", "**", "$", "`", "[", "]",
          "(https://y.org)", "{", "}", "\\", "\x1b[31m", "word", " ", "2", "x", "\n", "github.com/a/b"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_any_mix_of_html_and_markup_gives_inert_text_and_spans_inside_it(text):
    shown = display(text)
    assert inert(shown.plain) == shown.plain and "\t" not in shown.plain
    assert all(0 <= span.start < span.end <= len(shown.plain) for span in shown.spans)


# (ligatures, spaces and the characters pylatexenc reads otherwise come often)
_SEGMENT = st.text(st.sampled_from("aZ0  ''--`!#^_|(.;<{}\\$%&~é"), min_size=1, max_size=10)
_FORMS = ["$%s$", "\\textbf{%s}", "$\\mathrm{%s}$", "\\emph{%s}$", "$\\mathbf{%s}$", "\\textsf{%s}", "$\\text{%s}$"]


@settings(max_examples=400)
@given(_SEGMENT, st.sampled_from(_FORMS))
def test_plain_math_and_styled_words_read_as_pylatexenc_reads_them(content, form):
    # `$K=1$`, `\textbf{21.512}` are read without pylatexenc (~200 µs a segment): as it reads them
    from store.papers.latex import latex, rendered

    segment = form.replace("%s", content)
    assert latex(segment) == rendered(segment)
