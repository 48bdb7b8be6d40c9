"""Webhook verification, on the Standard Webhooks reference library: the
gateway signs every delivery with ``webhook-id``, ``webhook-timestamp`` and
``webhook-signature`` under the endpoint's ``whsec_`` secret."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import standardwebhooks

from . import models

#: How far a delivery's ``webhook-timestamp`` may be from now (the library's own bound).
TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The delivery is not one the gateway signed with this secret: a wrong
    or missing signature, a timestamp more than five minutes off, a changed
    body, or a body that is not an event."""


def verify_webhook(secret: str, headers: Mapping[str, str], body: bytes | str) -> dict[str, Any]:
    """Verifies one delivery and returns its event as a dict (``event``,
    ``event_id``, ``timestamp``, ``data``); raises
    :class:`WebhookVerificationError` otherwise. Pass the body exactly as
    received, before any JSON parsing."""
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
