"""Type-ahead: keys and pastes from the terminal applied in the order typed, each to what it was typed for.

The app hands every key and paste the terminal sends to a `TypeAhead`, which applies them one after
another, except that the next one waits:
- while a dialog is being opened (its first widget takes the focus when it has mounted);
- while a key "in flight" (any key but text typed into an input: it may move the focus, open a
  dialog or close one) has not yet been dealt with by its widget and the widget's ancestors;
- for a key for the list: while the list does not show the results of the query typed before it
  (those results would reset the cursor the key moved); but `/`, whose keys after it edit the query
  (a query restored at the open is then never searched: it waits for the list's engine, and is
  replaced before that).
Except `q` while those results wait for the list's engine (minutes while a long list is read and its engine built):
the keys for the list before it are given up (`given_up`: the app says so on stderr) and `q` quits at once, when each
of them would have left the focus on the list or its detail pane, where `q` quits (`STAYS`). (Once the engine is
there, a query's results take a moment, and `q` waits for the keys before it.)
"""
from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from functools import partial

from textual import events
from textual.app import App
from textual.binding import ActiveBinding
from textual.message_pump import MessagePump
from textual.widgets import Input, TextArea

IN_FLIGHT_SECONDS = 30.0
"""The longest the keys typed after one wait for one widget on its way up to deal with what it had queued
before the key (a widget stuck in a handler, a bug, does not hold them for good). Counted afresh at each
widget, and generous: on a loaded machine every step is slow (up to 5 s a widget beside two busy loops on
two cores, where a bound of 1 s for the whole way sent the letter after `'` to the list, not the picker)."""
QUIT = "quit"
FILTER = "focus_filter"
STAYS = frozenset({
    "cursor_down", "cursor_up", "first", "last", "page_down", "page_up", "focus_detail", "focus_papers", "scroll_detail",
    "read_next", "toggle_read", "toggle_star", "dismiss", "priority", "next_unread", "previous_unread", "undo", "redo",
    "toggle_selected", "visual_mode", "select_all", "clear_selection", "clear_query", "leave_similar", "hide_hint",
    "cycle_view", "cycle_sort", "more_like_this", "split", "list_alone",
})
"""The actions of keys for the list that open no dialog and move the focus into no input: a `q` typed after them still
quits, so it need not wait for them (see the module docstring)."""


class TypeAhead:
    """The keys typed and not applied yet, and what they wait for (see the module docstring)."""

    def __init__(self, app: App, deliver: Callable[[events.Event], Awaitable[None]], query: Callable[[], Input],
                 results_pending: Callable[[], bool], indexing: Callable[[], bool]) -> None:
        """`deliver` dispatches an event as the app would have without type-ahead; `query` is the filter's
        input; `results_pending()` says the list does not show the results of the query typed so far;
        `indexing()` that they wait for the list's engine."""
        self._app = app
        self._deliver = deliver
        self._query = query
        self._results_pending = results_pending
        self._indexing = indexing
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
        self.given_up = 0
        """How many keys for the list a `q` typed after them did not wait for (see the module docstring)."""

    async def typed(self, event: events.Key | events.Paste) -> None:
        """A key or paste from the terminal: apply it now, or after the ones before it."""
        if isinstance(event, events.Key) and event.key == "ctrl+j":
            # A line feed is enter, as in a shell: a return typed while `triage` was starting, before
            # the terminal left line mode, reaches the app as one (the terminal turned CR into LF).
            event = events.Key("enter", "\r")
        self._typed.append(event)
        await self.apply()

    @property
    def holding(self) -> bool:
        """Whether keys typed are not applied yet, or not yet handled by the filter's input they were sent to."""
        return bool(self._typed) or self._query_keys > 0

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
        if self._query_keys > 0:
            return True
        if not self._results_pending():
            return False
        if _action(app.screen.active_bindings, self._typed[0]) == FILTER:  # (the keys after it edit the query: no result waited for)
            return False
        return not (self._indexing() and self._quits_first())

    def _quits_first(self) -> bool:
        """Whether the keys waiting for a query's results end with one that quits, each before it for the list and
        leaving the focus there (`STAYS`, or bound to nothing): then those are given up, and it goes first."""
        bindings = self._app.screen.active_bindings
        actions = [_action(bindings, key) for key in self._typed]
        if QUIT not in actions:
            return False
        ahead = actions.index(QUIT)
        if not all(action is None or action in STAYS for action in actions[:ahead]):
            return False
        self.given_up += ahead
        for _ in range(ahead):
            self._typed.popleft()
        return True

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


def _action(bindings: Mapping[str, ActiveBinding], event: events.Key | events.Paste) -> str | None:
    """The name of the action `event` is bound to in `bindings` (None: a key bound to nothing; '' for a paste)."""
    if isinstance(event, events.Paste):
        return ""
    bound = bindings.get(event.key)
    return bound.binding.action.split("(", 1)[0] if bound is not None else None


def _called(function: Callable[..., object], *args: object) -> partial[object]:
    """`function(*args)` as a callback for `events.Callback` (what `call_later` posts), told it takes no
    more arguments: Textual would otherwise read its signature each time (a key follows ~5 of them)."""
    callback = partial(function, *args)
    callback._param_count = 0  # type: ignore[attr-defined]  # what textual._callback.count_parameters reads first
    return callback
