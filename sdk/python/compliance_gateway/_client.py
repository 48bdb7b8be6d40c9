"""The hand-written layer over the generated client: a client made from a
base URL and a key; retries of 429 and 503 honouring ``Retry-After`` for the
operations the gateway replays only (``_replayable.py``, generated from the
OpenAPI document: GET, HEAD, OPTIONS, PUT, DELETE, and each POST that takes an
``Idempotency-Key``, which such a POST always carries); and the error body
raised as :class:`ApiError`."""

from __future__ import annotations

import asyncio
import email.utils
import time
import uuid
from typing import Any

import httpx

from ._replayable import PATHS, REPLAYABLE
from .client import AuthenticatedClient

RETRIED_STATUSES = frozenset({429, 503})
# requests that may be sent twice without doing twice what they ask, by their method alone
# (scripts/sdk-replayable.py lists their operations in REPLAYABLE with the POSTs that take a key)
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
_REPLAYABLE = frozenset(REPLAYABLE)
_TEMPLATES = tuple((path, tuple(path.split("/")[1:])) for path in PATHS)


def _templates_of(path: str) -> list[str]:
    """The document's templates a concrete path resolves to, as the gateway's
    router resolves it: the matching template with the most fixed segments
    (``/v1/limits/check`` over ``/v1/limits/{limit_id}``), a ``{param}``
    matching one non-empty segment, one trailing slash ignored. More than one
    on a tie, none for a path the document does not have."""
    trimmed = path[:-1] if len(path) > 1 and path.endswith("/") else path
    if not trimmed.startswith("/"):
        return []
    segments = trimmed.split("/")[1:]
    if "" in segments:
        return []
    best: list[str] = []
    best_fixed = -1
    for template, parts in _TEMPLATES:
        if len(parts) != len(segments):
            continue
        fixed = [part for part in parts if not part.startswith("{")]
        if any(not part.startswith("{") and part != segment for part, segment in zip(parts, segments)):
            continue
        if len(fixed) > best_fixed:
            best, best_fixed = [], len(fixed)
        if len(fixed) == best_fixed:
            best.append(template)
    return best


def is_replayable(method: str, path: str) -> bool:
    """Whether the gateway replays this request, so that it may be sent again:
    its method and concrete path (such as ``/v1/webhooks/wh_1/rotate-secret``,
    below the base URL, without the query) resolve to an operation of
    ``REPLAYABLE``. A path the document does not have is not replayable."""
    templates = _templates_of(path)
    return bool(templates) and all((method.upper(), template) in _REPLAYABLE for template in templates)


class ApiError(Exception):
    """The API's error body (``{error, message, request_id}``) as an exception:
    ``code`` is the stable ``error`` code, ``status`` the HTTP status."""

    def __init__(self, status: int, code: str, message: str, request_id: str | None = None, retry_after: float | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after


def _retry_after(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds: delta-seconds or an HTTP date."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _error_of(response: httpx.Response) -> ApiError:
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        return ApiError(response.status_code, body["error"], str(body.get("message", "")), body.get("request_id"), _retry_after(response))
    # not the API's error body (a proxy's page, say): still an ApiError, never a bare HTTP error
    text = response.text[:200] if response.content else response.reason_phrase
    return ApiError(response.status_code, f"http_{response.status_code}", text, response.headers.get("x-request-id"), _retry_after(response))


class _Policy:
    def __init__(self, retries: int, max_retry_wait: float, base_path: str):
        self.retries = retries
        self.max_retry_wait = max_retry_wait
        # the base URL's path, without its trailing slashes: "" for none
        self.base_path = base_path.rstrip("/")

    def prepare(self, request: httpx.Request) -> bool:
        """Says whether the request may be retried: whether the gateway replays it.
        Adds an Idempotency-Key to a replayable POST that has none, and to no other."""
        path = request.url.raw_path.split(b"?", 1)[0].decode("ascii")
        if self.base_path and path.startswith(self.base_path + "/"):
            path = path[len(self.base_path) :]
        retryable = is_replayable(request.method, path)
        # A replayable POST is one that takes an Idempotency-Key: with it, a repeat answers the first answer.
        if retryable and request.method not in IDEMPOTENT_METHODS and "idempotency-key" not in request.headers:
            request.headers["Idempotency-Key"] = str(uuid.uuid4())
        return retryable

    def wait(self, response: httpx.Response, attempt: int, retryable: bool) -> float | None:
        """How long to wait before trying again, or None to give the answer."""
        if not retryable or response.status_code not in RETRIED_STATUSES or attempt >= self.retries:
            return None
        wait = _retry_after(response)
        if wait is None:
            wait = min(0.5 * 2**attempt, self.max_retry_wait)
        return wait if wait <= self.max_retry_wait else None


class _Transport(httpx.BaseTransport):
    def __init__(self, inner: httpx.BaseTransport, policy: _Policy):
        self.inner = inner
        self.policy = policy

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        retryable = self.policy.prepare(request)
        attempt = 0
        while True:
            response = self.inner.handle_request(request)
            wait = self.policy.wait(response, attempt, retryable)
            if wait is None:
                return response
            response.close()
            time.sleep(wait)
            attempt += 1

    def close(self) -> None:
        self.inner.close()


class _AsyncTransport(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport, policy: _Policy):
        self.inner = inner
        self.policy = policy

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        retryable = self.policy.prepare(request)
        attempt = 0
        while True:
            response = await self.inner.handle_async_request(request)
            wait = self.policy.wait(response, attempt, retryable)
            if wait is None:
                return response
            await response.aclose()
            await asyncio.sleep(wait)
            attempt += 1

    async def aclose(self) -> None:
        await self.inner.aclose()


def _raise_for_error(response: httpx.Response) -> None:
    if response.status_code >= 400:
        response.read()
        raise _error_of(response)


async def _araise_for_error(response: httpx.Response) -> None:
    if response.status_code >= 400:
        await response.aread()
        raise _error_of(response)


class Client(AuthenticatedClient):
    """A client of the Compliance Gateway: pass it as ``client=`` to any operation
    of ``compliance_gateway.api``.

    A 429 or 503 answer is retried, up to ``retries`` times after the
    ``Retry-After`` it gives (at most ``max_retry_wait`` seconds), only for an
    operation the gateway replays (:func:`is_replayable`, ``REPLAYABLE``): a
    GET, HEAD, OPTIONS, PUT or DELETE, or a POST whose operation takes an
    ``Idempotency-Key``. Such a POST carries one (a fresh UUID unless the call
    gives ``idempotency_key=``), the same on every retry, so a repeat answers
    the first answer. Any other POST (``create_webhook``,
    ``rotate_webhook_secret``, ``create_tenant``, ``create_key``, ...) is done
    again when repeated: it is never retried, its 429 or 503 raises
    :class:`ApiError` at once (with ``retry_after``), and it gets no
    ``Idempotency-Key``, since the gateway ignores one there (a key the call
    sends in its headers is sent as given, and protects nothing). An answer
    with the error body raises :class:`ApiError`.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        retries: int = 3,
        max_retry_wait: float = 60.0,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
        **kwargs: Any,
    ):
        token = kwargs.pop("token", api_key)
        if not token:
            raise ValueError("api_key is required")
        kwargs.setdefault("timeout", httpx.Timeout(timeout))
        super().__init__(base_url=base_url.rstrip("/"), token=token, **kwargs)
        policy = _Policy(retries, max_retry_wait, httpx.URL(self._base_url).raw_path.split(b"?", 1)[0].decode("ascii"))
        headers = {**self._headers, self.auth_header_name: f"{self.prefix} {self.token}" if self.prefix else self.token}
        common: dict[str, Any] = dict(
            base_url=self._base_url,
            cookies=self._cookies,
            headers=headers,
            timeout=self._timeout,
            verify=self._verify_ssl,
            follow_redirects=self._follow_redirects,
        )
        self.set_httpx_client(
            httpx.Client(
                transport=_Transport(transport or httpx.HTTPTransport(verify=self._verify_ssl), policy),
                event_hooks={"response": [_raise_for_error]},
                **common,
            )
        )
        self.set_async_httpx_client(
            httpx.AsyncClient(
                transport=_AsyncTransport(async_transport or httpx.AsyncHTTPTransport(verify=self._verify_ssl), policy),
                event_hooks={"response": [_araise_for_error]},
                **common,
            )
        )
