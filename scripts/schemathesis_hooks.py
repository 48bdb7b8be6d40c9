"""Hooks for scripts/fuzz-api.sh.

Each request's Idempotency-Key is made its own. Drawn from the schema, keys
collide across unrelated requests ("0" is hypothesis's first string), and a
collision is a replay by contract: a POST /v1/webhooks answering the original
success names a webhook an earlier scenario deleted, which the stateful phase
reports as "created resource not found". Real clients send a fresh key per
operation; replays are tested by the conformance suite. A key the schema
refuses is left as drawn, so negative cases stay negative.
"""

import itertools
import re

import schemathesis

_VALID = re.compile(r"[!-~]{1,255}")
_SEQUENCE = itertools.count(1)


@schemathesis.hook
def map_headers(context, headers):
    if not headers:
        return headers
    for name in list(headers):
        if name.lower() != "idempotency-key":
            continue
        key = headers[name]
        if isinstance(key, str) and _VALID.fullmatch(key):
            suffix = f".{next(_SEQUENCE)}"
            headers[name] = key[: 255 - len(suffix)] + suffix
    return headers
