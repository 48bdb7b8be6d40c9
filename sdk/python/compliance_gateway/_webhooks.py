"""Webhook verification, on the Standard Webhooks reference library: the
gateway signs every delivery with ``webhook-id``, ``webhook-timestamp`` and
``webhook-signature`` under the endpoint's ``whsec_`` secret. Delivery is at
least once: receivers must deduplicate by ``webhook-id``
(:class:`WebhookDeduplicator`, or a shared store)."""

from __future__ import annotations

import collections
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import standardwebhooks

from . import models

#: How far a delivery's ``webhook-timestamp`` may be from now (the library's own bound).
TOLERANCE_SECONDS = 5 * 60

#: How long a :class:`WebhookDeduplicator` remembers an id unless told otherwise:
#: longer than the gateway goes on retrying one event (about three and a half days).
DEDUPLICATION_WINDOW_SECONDS = 4 * 24 * 60 * 60


class WebhookVerificationError(Exception):
    """The delivery is not one the gateway signed with this secret: a wrong
    or missing signature, a timestamp more than five minutes off, a changed
    body, or a body that is not an event."""


def verify_webhook(secret: str, headers: Mapping[str, str], body: bytes | str) -> dict[str, Any]:
    """Verifies one delivery and returns its event as a dict (``event``,
    ``event_id``, ``timestamp``, ``data``); raises
    :class:`WebhookVerificationError` otherwise. Pass the body exactly as
    received, before any JSON parsing.

    Delivery is at least once: the same event may come again (a retry after a
    failed or slow answer, for about three and a half days, or a
    redelivery), with the same ``webhook-id`` (its ``event_id``) and a fresh
    timestamp and signature, so it verifies again. Receivers must deduplicate
    by ``webhook-id`` (:class:`WebhookDeduplicator`, or a shared store)."""
    try:
        hook = standardwebhooks.Webhook(secret)
        event = hook.verify(body, {str(k).lower(): str(v) for k, v in headers.items()})
    except standardwebhooks.WebhookVerificationError as e:
        raise WebhookVerificationError(str(e)) from e
    except Exception as e:  # a malformed secret, header or body
        raise WebhookVerificationError(f"the delivery cannot be verified: {e}") from e
    if not isinstance(event, dict) or not isinstance(event.get("event"), str) or "data" not in event:
        raise WebhookVerificationError("the body is not an event")
    return event


def _model_name(kind: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[._]", kind)) + "Event"


def parse_event(event: Mapping[str, Any]) -> Any:
    """The typed model of a verified event (such as ``models.LimitBreachAttemptEvent``),
    chosen by its ``event`` name; ``ValueError`` for a kind this SDK does not know."""
    model = getattr(models, _model_name(str(event.get("event", ""))), None)
    if model is None:
        raise ValueError(f"unknown event {event.get('event')!r}: a newer SDK may know it")
    return model.from_dict(dict(event))


class WebhookDeduplicator:
    """Deduplicates deliveries by their ``webhook-id`` (the event's
    ``event_id``, the same on every retry and redelivery of one event), in
    this process's memory::

        deliveries = WebhookDeduplicator()

        def receive(headers, body: bytes) -> int:
            event = verify_webhook(WEBHOOK_SECRET, headers, body)
            if not deliveries.first_time(event["event_id"]):
                return 200                         # handled already: acknowledge it again
            try:
                handle(event)
            except Exception:
                deliveries.forget(event["event_id"])  # so that the gateway's retry is handled
                return 500
            return 200

    An id is remembered for ``window_seconds`` after it was first seen
    (default :data:`DEDUPLICATION_WINDOW_SECONDS`, longer than the gateway's
    retries of one event; at least :data:`TOLERANCE_SECONDS`, within which a
    captured delivery still verifies), and at most ``max_ids`` ids are kept:
    past that the oldest are forgotten first, so memory stays bounded and a
    very old id may be handled again. Safe to share between threads.

    It holds one process's ids and loses them on restart: in production, with
    several receivers or restarts, record ids in a shared store instead (a
    unique key in the database the handling writes to, in the same
    transaction; or Redis ``SET id 1 NX EX 345600``).
    """

    def __init__(
        self,
        window_seconds: float = DEDUPLICATION_WINDOW_SECONDS,
        max_ids: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ):
        if not window_seconds >= TOLERANCE_SECONDS:
            raise ValueError(f"window_seconds must be at least TOLERANCE_SECONDS ({TOLERANCE_SECONDS})")
        if not (isinstance(max_ids, int) and max_ids > 0):
            raise ValueError("max_ids must be a positive integer")
        self._window = float(window_seconds)
        self._max_ids = max_ids
        self._clock = clock
        self._ids: collections.OrderedDict[str, float] = collections.OrderedDict()  # id -> when it is forgotten, oldest first
        self._lock = threading.Lock()

    def _expire(self) -> float:
        now = self._clock()
        while self._ids:
            oldest, until = next(iter(self._ids.items()))
            if until > now:
                break
            del self._ids[oldest]
        return now

    def first_time(self, webhook_id: str) -> bool:
        """True the first time ``webhook_id`` is seen within the window, and remembers it; False for a repeat."""
        if not isinstance(webhook_id, str) or not webhook_id:
            raise TypeError("a webhook-id is a non-empty string")
        with self._lock:
            now = self._expire()
            if webhook_id in self._ids:
                return False
            self._ids[webhook_id] = now + self._window
            if len(self._ids) > self._max_ids:
                self._ids.popitem(last=False)
            return True

    def seen(self, webhook_id: str) -> bool:
        """Whether ``webhook_id`` was seen within the window; remembers nothing."""
        with self._lock:
            self._expire()
            return webhook_id in self._ids

    def forget(self, webhook_id: str) -> None:
        """Forgets ``webhook_id``, so that its next delivery is handled: when handling it failed."""
        with self._lock:
            self._ids.pop(webhook_id, None)

    def __len__(self) -> int:
        """How many ids are remembered."""
        with self._lock:
            self._expire()
            return len(self._ids)
