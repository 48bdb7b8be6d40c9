"""The hand-written layer over the generated client: a client made from a
base URL and a key, an ``Idempotency-Key`` on every POST, retries of 429 and
503 honouring ``Retry-After`` for idempotent requests only, and the error
body raised as :class:`ApiError`."""

from __future__ import annotations

import asyncio
import email.utils
import time
import uuid
from typing import Any

import httpx

from .client import AuthenticatedClient

RETRIED_STATUSES = frozenset({429, 503})
# requests that may be sent twice without doing twice what they ask
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


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


def _prepare(request: httpx.Request) -> bool:
    """Adds an Idempotency-Key to a POST that has none; says whether the request may be retried."""
    if request.method == "POST" and "idempotency-key" not in request.headers:
        request.headers["Idempotency-Key"] = str(uuid.uuid4())
    # A POST with an Idempotency-Key is idempotent: a repeat answers the first answer.
    return request.method in IDEMPOTENT_METHODS or (request.method == "POST" and "idempotency-key" in request.headers)


class _Policy:
    def __init__(self, retries: int, max_retry_wait: float):
        self.retries = retries
        self.max_retry_wait = max_retry_wait

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
        retryable = _prepare(request)
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
        retryable = _prepare(request)
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

    Every POST carries an ``Idempotency-Key`` (a fresh UUID unless the call
    gives one). A 429 or 503 answer to an idempotent request (GET, PUT,
    DELETE, or a POST with its key) is retried up to ``retries`` times after
    the ``Retry-After`` it gives (at most ``max_retry_wait`` seconds). An
    answer with the error body raises :class:`ApiError`.
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
        policy = _Policy(retries, max_retry_wait)
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
