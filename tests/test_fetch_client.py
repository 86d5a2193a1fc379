"""The polite client (store.fetch.client) against a real HTTP server on loopback: pacing, the
User-Agent, retries honouring Retry-After on 429/503, a body cut mid-way, a slow answer, a 403,
no server at all."""
from __future__ import annotations

import socket
import time
from importlib.metadata import version

import pytest

from tests.loopback import serving

BODY = b"x" * 200_000


def plain(path, q, headers):
    return 200, {"Content-Type": "text/plain"}, BODY


def stamping():
    """A route answering `plain`, and the times its requests came."""
    stamps = []

    def stamped(path, q, headers):
        stamps.append(time.monotonic())
        return plain(path, q, headers)

    return stamped, stamps


def client(**kwargs):
    from store.fetch.client import Client

    return Client(**{"delay": 0.0, "timeout": 10.0, "retries": 2, "backoff": 0.01, **kwargs})


def test_user_agent_names_the_program_and_its_version():
    with serving({"/f": plain}) as server:
        assert client().get(server.url + "/f", {"a": "b c"}) == BODY
    path, q, headers = server.requests[0]
    assert q == {"a": "b c"}
    assert headers["user-agent"].startswith(f"paper-triage/{version('paper-triage')}")


def test_requests_are_paced_one_every_delay_seconds():
    stamped, stamps = stamping()
    with serving({"/f": stamped}) as server:
        polite = client(delay=0.4)
        for _ in range(3):
            polite.get(server.url + "/f")
    assert all(b - a >= 0.39 for a, b in zip(stamps, stamps[1:])), stamps


@pytest.mark.parametrize("fault", ["429", "503", "cut"])
def test_a_passing_fault_is_retried_until_the_whole_body_comes(fault):
    with serving({"/f": plain}) as server:
        server.faults.append(fault)
        assert client().get(server.url + "/f") == BODY
    assert len(server.requests) == 2


def test_retry_after_is_honoured():
    stamped, stamps = stamping()
    with serving({"/f": stamped}) as server:
        server.faults.append("429")  # Retry-After: 1
        client().get(server.url + "/f")
    assert stamps[1] - stamps[0] >= 0.99


def test_a_lasting_503_is_one_error_naming_the_url_and_status_after_the_retries():
    from store.fetch.client import FetchError

    with serving({"/f": plain}) as server:
        server.failing = lambda q: "503"
        with pytest.raises(FetchError) as error:
            client(retries=2).get(server.url + "/f", {"page": 3})
    assert len(server.requests) == 3
    assert str(error.value) == f"{server.url}/f?page=3: HTTP 503 Service Unavailable (after 3 tries)"


def test_a_403_is_not_retried_and_says_what_the_server_said():
    from store.fetch.client import FetchError

    with serving({"/f": plain}) as server:
        server.faults.append("403")
        with pytest.raises(FetchError) as error:
            client().get(server.url + "/f")
    assert len(server.requests) == 1
    assert error.value.status == 403
    assert "HTTP 403 Forbidden: {\"name\": \"ChallengeRequiredError\"}" in str(error.value)


def test_a_slow_answer_times_out():
    from store.fetch.client import FetchError

    with serving({"/f": plain}) as server:
        server.faults.append("slow")
        with pytest.raises(FetchError, match="no answer within 0.3 s"):
            client(timeout=0.3, retries=0).get(server.url + "/f")


def test_no_server_is_one_error_saying_it_cannot_connect():
    from store.fetch.client import FetchError

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FetchError, match=r"^http://127.0.0.1:\d+/f: cannot connect \(Connection refused\)"):
        client(retries=1).get(f"http://127.0.0.1:{port}/f")


def test_a_larger_answer_than_the_limit_is_refused():
    from store.fetch.client import FetchError

    with serving({"/f": plain}) as server, pytest.raises(FetchError, match="larger than"):
        client(limit=100_000).get(server.url + "/f")
