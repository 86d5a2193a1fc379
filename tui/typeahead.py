"""Type-ahead: keys and pastes from the terminal applied in the order typed, each to what it was typed for.

The app hands every key and paste the terminal sends to a `TypeAhead`, which applies them one after
another, except that the next one waits:
- while a dialog is being opened (its first widget takes the focus when it has mounted);
- while a key "in flight" (any key but text typed into an input: it may move the focus, open a
  dialog or close one) has not yet been dealt with by its widget and the widget's ancestors;
- for a key for the list: while the list does not show the results of the query typed before it
  (those results would reset the cursor the key moved).
"""
from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from functools import partial

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.widgets import Input, TextArea

IN_FLIGHT_SECONDS = 30.0
"""The longest the keys typed after one wait for one widget on its way up to deal with what it had queued
before the key (a widget stuck in a handler, a bug, does not hold them for good). Counted afresh at each
widget, and generous: on a loaded machine every step is slow (up to 5 s a widget beside two busy loops on
two cores, where a bound of 1 s for the whole way sent the letter after `'` to the list, not the picker)."""


class TypeAhead:
    """The keys typed and not applied yet, and what they wait for (see the module docstring)."""

    def __init__(self, app: App, deliver: Callable[[events.Event], Awaitable[None]], query: Callable[[], Input],
                 results_pending: Callable[[], bool]) -> None:
        """`deliver` dispatches an event as the app would have without type-ahead; `query` is the filter's
        input; `results_pending()` says the list does not show the results of the query typed so far."""
        self._app = app
        self._deliver = deliver
        self._query = query
        self._results_pending = results_pending
        self._typed: deque[events.Key | events.Paste] = deque()
        """Keys and pastes not applied yet, in the order typed."""
        self._query_keys = 0
        """Keys sent to the filter's input that it has not handled yet (its value does not show them yet)."""
        self._in_flight: events.Key | None = None
        """A key that may open a dialog or move the focus until the widget it was sent to, and the bindings
        above it, have dealt with it."""
        self._give_up: asyncio.TimerHandle | None = None
        """When the keys typed after the one in flight stop waiting for it (`IN_FLIGHT_SECONDS` after it
        last got a step further)."""

    async def typed(self, event: events.Key | events.Paste) -> None:
        """A key or paste from the terminal: apply it now, or after the ones before it."""
        if isinstance(event, events.Key) and event.key == "ctrl+j":
            # A line feed is enter, as in a shell: a return typed while `triage` was starting, before
            # the terminal left line mode, reaches the app as one (the terminal turned CR into LF).
            event = events.Key("enter", "\r")
        self._typed.append(event)
        await self.apply()

    def resume(self) -> None:
        """Something a waiting key may wait for has happened (the list shows a query's results)."""
        if self._typed:
            self._app.call_later(self.apply)

    async def apply(self) -> None:
        """Apply the keys typed, in order, up to one that must wait (see `_waits`)."""
        app, query = self._app, self._query()
        while self._typed and not self._waits(query):
            event = self._typed.popleft()
            target = app.focused
            await self._deliver(event)
            if target is query:  # the input handles the key on its own queue, after this: count it until then
                self._query_keys += 1
                query.call_later(self._query_key_handled)
            if (isinstance(event, events.Key) and event.is_forwarded
                    and not (isinstance(target, (Input, TextArea)) and event.is_printable)):
                # Nothing typed after it goes anywhere until it is dealt with: it may move the focus, open a
                # dialog or close one, and the next keys are for where it leads.
                self._in_flight = event
                node = target or app.screen
                self._follow(event, [node, *node.ancestors_with_self])

    def _waits(self, query: Input) -> bool:
        """Whether the next key must wait: for a key before it to be dealt with, for a dialog just opened,
        or — a key for the list — for the list to show the results of the query as typed so far."""
        app = self._app
        if not app.screen.is_mounted:  # a dialog being opened: its first widget takes the focus when mounted
            app.screen.call_later(self.apply)  # runs once the screen has mounted
            return True
        if self._in_flight is not None:
            return True
        if app.screen is not app.default_screen or app.focused is query:
            return False
        return self._query_keys > 0 or self._results_pending()

    def _follow(self, event: events.Key, path: list[MessagePump]) -> None:
        """Follow the key in flight up `path`, its widget (twice) and the widget's ancestors up to the
        app: at each, wait until what was queued there before has been handled. The key itself bubbles
        this way, and so do the messages its binding posts (an input's Submitted, which closes the tag
        editor); when the app has had them all, the key is dealt with."""
        if event is not self._in_flight:
            return
        if self._give_up is not None:
            self._give_up.cancel()
            self._give_up = None
        while path:
            node, path = path[0], path[1:]
            if node.post_message(events.Callback(_called(self._follow, event, path))):  # False: gone (a dialog closed)
                # Never waited for for good: a widget stuck in a handler lets the keys go on. (An asyncio timer,
                # not a Textual one: that is a task of its own, ticked with a message, ~0.6 ms of every key's CPU.)
                self._give_up = asyncio.get_running_loop().call_later(IN_FLIGHT_SECONDS, self._follow, event, [])
                return
        self._in_flight = None
        self._app.call_later(self.apply)

    def _query_key_handled(self) -> None:
        self._query_keys -= 1
        self.resume()


def _called(function: Callable[..., object], *args: object) -> partial[object]:
    """`function(*args)` as a callback for `events.Callback` (what `call_later` posts), told it takes no
    more arguments: Textual would otherwise read its signature each time (a key follows ~5 of them)."""
    callback = partial(function, *args)
    callback._param_count = 0  # type: ignore[attr-defined]  # what textual._callback.count_parameters reads first
    return callback
