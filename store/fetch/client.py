"""The one polite HTTP client every source fetches through (the standard library's `urllib`).

- Pacing: at most one request every `delay` seconds, one at a time (arXiv asks for one every 3 s
  on a single connection): the client waits before a request until `delay` has passed since the
  last one ended.
- A time limit per request (`timeout`: to connect, and for the whole body), a size limit
  (`limit` bytes): a slow or endless answer is a fault, never a hang.
- Retries (`retries`) of what may pass: 429, 500, 502, 503, 504, a connection refused or cut
  mid-body, a timeout; waiting as `Retry-After` says (seconds or a date) when the server says,
  else `backoff` (by default the delay) doubled at each try. A wait asked for longer than `max_wait` is not waited.
- A User-Agent naming the program and its version.
Anything else (403, 404...) is a `FetchError` at once: one line naming the URL and the status."""
from __future__ import annotations

import email.utils
import http.client
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from importlib.metadata import version

from store.common.errors import ReadError

RETRIED = frozenset({429, 500, 502, 503, 504})
CHUNK = 1 << 16


def user_agent() -> str:
    return f"paper-triage/{version('paper-triage')} (+https://pypi.org/project/paper-triage/)"


class FetchError(ReadError):
    """A request that failed for good: `str()` is the line a user sees (the URL, then why)."""

    def __init__(self, url: str, message: str, status: int | None = None) -> None:
        super().__init__(url, message)
        self.url = url
        self.status = status


class _Passing(Exception):
    """A fault worth another try, `after` seconds later when the server said (Retry-After)."""

    def __init__(self, message: str, after: float | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.after = after
        self.status = status


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: a number of seconds or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def with_query(url: str, params: dict[str, object] | None) -> str:
    """`url` with `params` added to its query string (in the order given)."""
    if not params:
        return url
    return url + ("&" if "?" in url else "?") + urllib.parse.urlencode({k: str(v) for k, v in params.items()})


class Client:
    """See the module's docstring. One object per fetch: it remembers when its last request began."""

    def __init__(self, delay: float = 3.0, timeout: float = 60.0, retries: int = 3, backoff: float | None = None,
                 limit: int = 256 << 20, max_wait: float = 600.0) -> None:
        self.delay = delay
        self.timeout = timeout
        self.retries = retries
        self.backoff = delay if backoff is None else backoff
        self.limit = limit
        self.max_wait = max_wait
        self.requests = 0
        self._last = float("-inf")

    def _pace(self) -> None:
        wait = self._last + self.delay - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def get(self, url: str, params: dict[str, object] | None = None, headers: dict[str, str] | None = None) -> bytes:
        """The body of a GET of `url` (with `params`), after the retries the module's docstring says;
        FetchError when it cannot be had."""
        full = with_query(url, params)
        for attempt in range(self.retries + 1):
            self._pace()
            try:
                return self._once(full, headers or {})
            except _Passing as fault:
                tries = f" (after {attempt + 1} tries)" if attempt else ""
                if attempt == self.retries:
                    raise FetchError(full, fault.message + tries, fault.status) from None
                wait = fault.after if fault.after is not None else self.backoff * 2**attempt
                if wait > self.max_wait:
                    raise FetchError(full, f"{fault.message}; the server asks to wait {wait:,.0f} s: try later",
                                     fault.status) from None
                time.sleep(wait)
        raise AssertionError("unreachable")

    def _once(self, url: str, headers: dict[str, str]) -> bytes:
        request = urllib.request.Request(url, headers={"User-Agent": user_agent(), **headers})
        deadline = time.monotonic() + self.timeout
        self.requests += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return self._body(response, deadline)
        except urllib.error.HTTPError as error:
            status = f"HTTP {error.code} {error.reason}".rstrip()
            if error.code in RETRIED:
                raise _Passing(status, retry_after(error.headers.get("Retry-After")), error.code) from None
            raise FetchError(url, status + _said(error), error.code) from None
        except urllib.error.URLError as error:
            reason = error.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise _Passing(f"no answer within {self.timeout:g} s") from None
            raise _Passing(f"cannot connect ({getattr(reason, 'strerror', None) or reason})") from None
        except (TimeoutError, socket.timeout):
            raise _Passing(f"no answer within {self.timeout:g} s") from None
        except http.client.IncompleteRead as cut:
            raise _Passing(f"the connection was cut after {len(cut.partial):,} bytes") from None
        except (http.client.HTTPException, ConnectionError) as error:
            raise _Passing(f"the connection failed ({type(error).__name__})") from None
        finally:
            self._last = time.monotonic()

    def _body(self, response: http.client.HTTPResponse, deadline: float) -> bytes:
        """The whole body, bounded by `limit` and the request's deadline."""
        parts: list[bytes] = []
        size = 0
        while chunk := response.read1(CHUNK):
            size += len(chunk)
            if size > self.limit:
                raise FetchError(response.geturl(), f"the answer is larger than {self.limit >> 20} MB: not read")
            if time.monotonic() > deadline:
                raise _Passing(f"the answer took longer than {self.timeout:g} s")
            parts.append(chunk)
        if response.length:  # (what `read1` does not raise: the connection closed before the length said)
            raise _Passing(f"the connection was cut after {size:,} bytes ({response.length:,} more were due)")
        return b"".join(parts)


def _said(error: urllib.error.HTTPError) -> str:
    """What the server said with an error, as a short tail to the status line (its first 200 characters)."""
    try:
        text = error.read(4096).decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        return ""
    text = " ".join(text.split())[:200]
    return f": {text}" if text else ""
