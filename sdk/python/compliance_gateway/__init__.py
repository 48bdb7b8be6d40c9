"""The Compliance Gateway's Python SDK.

``compliance_gateway.api`` and ``compliance_gateway.models`` are generated
from the gateway's OpenAPI document (``scripts/sdk.sh generate``), and so is
``_replayable.py``: the operations the gateway replays, which alone the client
retries on 429 and 503. This module, ``_client.py`` and ``_webhooks.py`` are
written by hand.

    from compliance_gateway import Client
    from compliance_gateway.api.limits import check_deposit
    from compliance_gateway.models import CheckDepositBody

    client = Client(base_url="http://127.0.0.1:8080", api_key="acme_sk_test_...")
    answer = check_deposit.sync(client=client, body=CheckDepositBody(user_id="u-1", amount_cents=15000, currency="USD"))
"""

from ._client import ApiError, Client, is_replayable
from ._replayable import REPLAYABLE
from ._webhooks import (
    DEDUPLICATION_WINDOW_SECONDS,
    TOLERANCE_SECONDS,
    WebhookDeduplicator,
    WebhookVerificationError,
    parse_event,
    verify_webhook,
)

__all__ = [
    "ApiError",
    "Client",
    "DEDUPLICATION_WINDOW_SECONDS",
    "REPLAYABLE",
    "TOLERANCE_SECONDS",
    "WebhookDeduplicator",
    "WebhookVerificationError",
    "is_replayable",
    "parse_event",
    "verify_webhook",
]
__version__ = "1.0.0"
