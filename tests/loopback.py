"""A real HTTP server on loopback, started by the tests, serving each source's documented format
(the arXiv API's Atom feed and its daily RSS feed, OpenReview API v2's notes, a conference virtual
site's events JSON and abstracts sidecar, plain files) built from paper records, with the
faults a network has: queued (`Loopback.faults`, one per request) or standing (`Loopback.failing`).

Records come from ../shared/corpora (`corpus_records`) or from a small built-in sample (`sample_records`)."""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

Answer = tuple[int, dict[str, str], bytes]
FAULTS = ("429", "503", "cut", "malformed", "403", "slow", "empty")
SLOW = 5.0
"""How long a "slow" answer keeps the client waiting before its first byte (tests set a shorter --timeout)."""


def sample_records(n: int = 12) -> list[dict]:
    """`n` made-up papers (so some tests run without ../shared)."""
    words = "graph neural network diffusion model language agent kernel sparse robust federated bandit".split()
    return [{"title": f"Sample paper {i}: {words[i % len(words)]} methods",
             "abstract": f"We study {words[i % len(words)]} and {words[(i * 5 + 3) % len(words)]} in setting {i}. " * 4,
             "authors": [f"Author {i}", f"Coauthor {i % 3}"], "keywords": [words[i % len(words)]],
             "primary_area": "learning theory", "tldr": f"Point {i}.", "venue": "ICLR 2024 poster"} for i in range(n)]


def corpus_records(corpora: Path, name: str = "iclr-2024-papers.jsonl") -> list[dict]:
    return [json.loads(line) for line in (corpora / name).read_text(encoding="utf-8").split("\n") if line.strip()]


def stamped(records: list[dict], days: float = 1.5) -> list[dict]:
    """`records` with arXiv ids and submission times spread over the last `days` days, oldest first."""
    now = time.time()
    step = days * 86400 / max(1, len(records))
    return [{**r, "arxiv": f"2612.{i:05d}", "when": now - days * 86400 + i * step} for i, r in enumerate(records)]


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml(text: str) -> str:
    """`text` as XML character data (what XML 1.0 cannot hold left out, as arXiv's feed never holds it)."""
    return escape(_NOT_XML.sub("", text))


def _iso(when: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))


def atom_entry(r: dict) -> str:
    ident = r["arxiv"]
    authors = "".join(f"<author><name>{_xml(a)}</name></author>" for a in r.get("authors", []))
    cats = r.get("categories", ["cs.LG"])
    return (f"<entry><id>http://arxiv.org/abs/{ident}v1</id><updated>{_iso(r['when'])}</updated>"
            f"<published>{_iso(r['when'])}</published><title>{_xml(r['title'])}</title>"
            f"<summary>{_xml(r['abstract'])}</summary>{authors}"
            f'<link href="http://arxiv.org/abs/{ident}v1" rel="alternate" type="text/html"/>'
            f'<link title="pdf" href="http://arxiv.org/pdf/{ident}v1" rel="related" type="application/pdf"/>'
            f'<arxiv:primary_category term="{cats[0]}" scheme="http://arxiv.org/schemas/atom"/>'
            + "".join(f'<category term="{c}" scheme="http://arxiv.org/schemas/atom"/>' for c in cats) + "</entry>")


def atom_feed(entries: list[dict], total: int, start: int, size: int) -> bytes:
    """A page of the arXiv API's answer, as its user manual shows it."""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
            'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
            '  <id>https://arxiv.org/api/test</id><title>arXiv Query: test</title>'
            f"<updated>{_iso(time.time())}</updated>\n"
            f"  <opensearch:itemsPerPage>{size}</opensearch:itemsPerPage>"
            f"<opensearch:totalResults>{total}</opensearch:totalResults>"
            f"<opensearch:startIndex>{start}</opensearch:startIndex>\n  "
            + "\n  ".join(atom_entry(e) for e in entries) + "\n</feed>\n").encode()


def arxiv_api(records: list[dict], cap: int = 2000) -> Callable[[str, dict[str, str], dict[str, str]], Answer]:
    """The arXiv API's /api/query over `records` (stamped): categories and submittedDate range of
    search_query, sortBy=submittedDate ascending, start, max_results (at most `cap` a page, as arXiv
    gives fewer than asked for a large page)."""
    def answer(path: str, q: dict[str, str], _headers: dict[str, str]) -> Answer:
        query = q.get("search_query", "")
        cats = set(re.findall(r"cat:([\w.\-]+)", query))
        lo, hi = re.search(r"submittedDate:\[(\d{12}) TO (\d{12})\]", query).groups()
        chosen = [r for r in records if set(r.get("categories", ["cs.LG"])) & cats
                  and lo <= time.strftime("%Y%m%d%H%M", time.gmtime(r["when"])) <= hi]
        chosen.sort(key=lambda r: r["when"])
        start, size = int(q.get("start", 0)), min(cap, int(q.get("max_results", 10)))
        return 200, {"Content-Type": "application/atom+xml"}, atom_feed(chosen[start:start + size], len(chosen), start, size)

    return answer


def openreview_notes(records: list[dict], venue: str) -> list[dict]:
    """`records` as OpenReview API v2 notes of `venue` (content values wrapped as {"value": ...})."""
    notes = []
    for i, r in enumerate(records):
        content = {"title": r["title"], "abstract": r["abstract"], "authors": r.get("authors", []),
                   "keywords": r.get("keywords", []), "primary_area": r.get("primary_area", ""), "TL;DR": r.get("tldr", ""),
                   "venue": r.get("venue", ""), "venueid": venue, "pdf": f"/pdf/{i:040x}.pdf"}
        notes.append({"id": f"note{i:06d}", "forum": f"note{i:06d}", "number": i + 1, "cdate": 1700000000000 + i * 1000,
                      "tcdate": 1700000000000 + i * 1000, "invitations": [f"{venue}/-/Submission"],
                      "content": {k: {"value": v} for k, v in content.items()}})
    return notes


def openreview_api(notes: list[dict], token: str | None = None) -> Callable[[str, dict[str, str], dict[str, str]], Answer]:
    """OpenReview API v2's GET /notes by content.venueid, limit, offset and mintcdate; with `token`, an
    anonymous request gets the 403 challenge."""
    def answer(path: str, q: dict[str, str], headers: dict[str, str]) -> Answer:
        if token and headers.get("authorization") != f"Bearer {token}":
            return 403, {"Content-Type": "application/json"}, json.dumps(
                {"name": "ChallengeRequiredError", "message": "Please complete the challenge", "status": 403}).encode()
        venue = q.get("content.venueid")
        since = int(q.get("mintcdate", 0))
        chosen = [n for n in notes if n["content"]["venueid"]["value"] == venue and n["tcdate"] >= since]
        offset, limit = int(q.get("offset", 0)), int(q.get("limit", 1000))
        return 200, {"Content-Type": "application/json"}, json.dumps(
            {"notes": chosen[offset:offset + limit], "count": len(chosen)}).encode()

    return answer


ANNOUNCED = ("new", "cross", "replace", "replace-cross")


def rss_feed(records: list[dict], categories: list[str]) -> bytes:
    """The arXiv announcement feed of `categories` (rss.arxiv.org/rss/A+B) over `records` (stamped), as
    arXiv serves it: RSS 2.0, each item's announce type in `arxiv:announce_type` and its description
    (`arXiv:ID Announce Type: new Abstract: ...`), the ids in `guid`, authors in one `dc:creator`;
    `records` without an "announce" key cycle through `ANNOUNCED`."""
    day = time.strftime("%a, %d %b %Y 00:00:00 -0500", time.gmtime())
    items = []
    for i, r in enumerate(records):
        kind, ident = r.get("announce", ANNOUNCED[i % len(ANNOUNCED)]), r["arxiv"]
        version = "v2" if kind.startswith("replace") else "v1"
        cats = r.get("categories", categories[:1])
        items.append(
            f"<item><title>{_xml(r['title'])}</title><link>https://arxiv.org/abs/{ident}</link>"
            f"<description>arXiv:{ident}{version} Announce Type: {kind} \nAbstract: {_xml(r['abstract'])}</description>"
            f'<guid isPermaLink="false">oai:arXiv.org:{ident}{version}</guid>'
            + "".join(f"<category>{c}</category>" for c in cats)
            + f"<pubDate>{day}</pubDate><arxiv:announce_type>{kind}</arxiv:announce_type>"
            f"<dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>"
            f"<dc:creator>{_xml(', '.join(r.get('authors', [])))}</dc:creator></item>")
    joined = "+".join(categories)
    return ('<?xml version=\'1.0\' encoding=\'UTF-8\'?>\n<rss xmlns:arxiv="http://arxiv.org/schemas/atom" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" '
            'xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">\n  <channel>'
            f"<title>{joined} updates on arXiv.org</title><link>http://rss.arxiv.org/rss/{joined}</link>"
            f"<description>{joined} updates on the arXiv.org e-print archive.</description>"
            f"<language>en-us</language><lastBuildDate>{day}</lastBuildDate><pubDate>{day}</pubDate>"
            "<skipDays><day>Saturday</day><day>Sunday</day></skipDays>\n    "
            + "\n    ".join(items) + "\n  </channel>\n</rss>\n").encode()


def arxiv_rss(records: list[dict]) -> Callable[[str, dict[str, str], dict[str, str]], Answer]:
    """rss.arxiv.org's /rss/CAT+CAT: the day's announcements of those categories among `records`."""
    def answer(path: str, _q: dict[str, str], _headers: dict[str, str]) -> Answer:
        cats = path.rpartition("/")[2].split("+")
        chosen = [r for r in records if set(r.get("categories", ["cs.LG"])) & set(cats)]
        return 200, {"Content-Type": "application/rss+xml"}, rss_feed(chosen, cats)

    return answer


def conference_events(records: list[dict], name: str = "iclr", year: int = 2024, inline: bool = False,
                      orals: tuple[int, ...] = ()) -> tuple[dict, dict[str, str]]:
    """`records` as a conference virtual site's `/static/virtual/data/NAME-YEAR-orals-posters.json` (a
    `{"count", "next", "previous", "results"}` page of events: name, authors as objects, eventtype,
    decision, session, starttime/endtime with the venue's offset, room_name, poster_position...) and its
    sidecar `NAME-YEAR-abstracts.json` ({event id: abstract}); `inline`: the abstracts in the events too.
    Six poster sessions over three days, the records dealt round them (the file is not in time order); the
    records at `orals` also have an oral talk (`Oral 1A` at 10:00 on the first day), listed first, each
    event naming the other in `related_events_ids`, as the site does."""
    zone = timezone(timedelta(hours=2))
    events, abstracts = [], {}
    for i, r in enumerate(records):
        ident, session = 19000 + i, i % 6
        start = datetime(year, 5, 7 + session // 2, 10 if session % 2 == 0 else 16, 30, tzinfo=zone)
        track = (r.get("venue", "").split() or ["poster"])[-1].lower()
        events.append({
            "id": ident, "uid": f"{ident:032x}", "name": r["title"],
            "authors": [{"id": 900 + k, "fullname": a, "url": f"https://{name}.cc/virtual/{year}/author/{900 + k}",
                         "institution": "Somewhere"} for k, a in enumerate(r.get("authors", []))],
            "abstract": r["abstract"] if inline else "", "eventmedia": [{"id": 1, "modified": "2024-04-01T00:00:00",
            "display_section": 1, "type": "URL", "name": "OpenReview", "visible": True, "uri": r.get("url", "")}],
            "sourceid": ident - 10000, "sourceurl": f"https://openreview.net/group?id={name.upper()}.cc/{year}/Conference",
            "decision": f"Accept ({track})", "session": f"Poster Session {session + 1}", "cluster": None,
            "topic": r.get("primary_area"), "keywords": r.get("keywords", []), "paper_url": r.get("url"),
            "paper_pdf_url": r.get("pdf_url"), "room_name": "Halle B", "related_events": [], "related_events_ids": [],
            "starttime": start.isoformat(), "endtime": (start + timedelta(hours=2)).isoformat(), "eventtype": "Poster",
            "virtualsite_url": f"/virtual/{year}/poster/{ident}", "poster_position": f"#{i % 300 + 1}"})
        abstracts[str(ident)] = r["abstract"]
    talks = []
    for k, i in enumerate(orals):
        poster, start = events[i], datetime(year, 5, 7, 10, 0, tzinfo=zone) + timedelta(minutes=15 * k)
        talk = {**poster, "id": 18000 + i, "eventtype": "Oral", "decision": "Accept (oral)", "session": "Oral 1A",
                "starttime": start.isoformat(), "endtime": (start + timedelta(minutes=15)).isoformat(),
                "room_name": "Halle A", "poster_position": None, "virtualsite_url": f"/virtual/{year}/oral/{18000 + i}",
                "related_events_ids": [poster["id"]]}
        poster.update(decision="Accept (oral)", related_events_ids=[talk["id"]])
        talks.append(talk)
        abstracts[str(talk["id"])] = records[i]["abstract"]
    events = talks + events
    return {"count": len(events), "next": None, "previous": None, "results": events}, abstracts


def conference_site(payload: dict, abstracts: dict[str, str] | None, name: str = "iclr",
                    year: int = 2024) -> dict[str, Callable[[str, dict[str, str], dict[str, str]], Answer]]:
    """The routes of a virtual site serving `payload` (and `abstracts`, when the year has a sidecar)."""
    def serve(body: object) -> Callable[[str, dict[str, str], dict[str, str]], Answer]:
        return lambda p, q, h: (200, {"Content-Type": "application/json"}, json.dumps(body).encode())

    base = f"/static/virtual/data/{name}-{year}"
    routes = {f"{base}-orals-posters.json": serve(payload)}
    if abstracts is not None:
        routes[f"{base}-abstracts.json"] = serve(abstracts)
    return routes


@dataclass
class Loopback:
    """The server's state: routes by path, faults to apply, the requests it saw."""

    routes: dict[str, Callable[[str, dict[str, str], dict[str, str]], Answer]]
    faults: deque[str] = field(default_factory=deque)
    """One fault per request, taken in turn, before the routes answer."""
    failing: Callable[[dict[str, str]], str | None] = lambda q: None
    """A fault for every request whose query this says (a standing outage from some page on)."""
    requests: list[tuple[str, dict[str, str], dict[str, str]]] = field(default_factory=list)
    url: str = ""

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        split = urlsplit(handler.path)
        q = {k: v[-1] for k, v in parse_qs(split.query).items()}
        headers = {k.lower(): v for k, v in handler.headers.items()}
        self.requests.append((split.path, q, headers))
        fault = self.faults.popleft() if self.faults else self.failing(q)
        route = self.routes.get(split.path)
        status, extra, body = route(split.path, q, headers) if route else (404, {}, b"no such page")
        if fault == "429":
            status, extra, body = 429, {"Retry-After": "1"}, b"slow down"
        elif fault == "503":
            status, extra, body = 503, {}, b"busy"
        elif fault == "403":
            status, extra, body = 403, {}, b'{"name": "ChallengeRequiredError"}'
        elif fault == "malformed":
            body = body[: len(body) // 2] + b"<<\x00{"
        elif fault == "empty":
            body = b""
        elif fault == "slow":
            time.sleep(SLOW)
        handler.send_response(status)
        for key, value in extra.items():
            handler.send_header(key, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        if fault == "cut":
            handler.wfile.write(body[: len(body) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            return
        handler.wfile.write(body)


@contextmanager
def serving(routes: dict[str, Callable[[str, dict[str, str], dict[str, str]], Answer]]) -> Iterator[Loopback]:
    """A `Loopback` serving `routes` on 127.0.0.1 (a port of its own) in a thread, until the block ends."""
    state = Loopback(routes)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            state.answer(self)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def today() -> str:
    """The day a fetch that just ran names its list by (UTC), asked when a test looks for it, not when the tests were
    collected (a run across midnight failed so)."""
    return time.strftime("%Y-%m-%d", time.gmtime())
