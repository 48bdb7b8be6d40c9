from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.set_tenant_rate_limit_body import SetTenantRateLimitBody
from ...models.tenant_rate_limit import TenantRateLimit
from ...types import Response


def _get_kwargs(
    tenant_id: str,
    *,
    body: SetTenantRateLimitBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/admin/tenants/{tenant_id}/rate-limit".format(
            tenant_id=quote(str(tenant_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TenantRateLimit | None:
    if response.status_code == 200:
        response_200 = TenantRateLimit.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | TenantRateLimit]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_id: str,
    *,
    client: AuthenticatedClient,
    body: SetTenantRateLimitBody,
) -> Response[Error | TenantRateLimit]:
    """change a tenant's request rate per key and minute

     Every key of the tenant runs under the new rate from its next request. A key already refused in the
    current minute may stay refused until the minute ends (where hosts share their counts, each holds
    what it reserved of the minute).

    Args:
        tenant_id (str):
        body (SetTenantRateLimitBody): The body of `PUT /v1/admin/tenants/{tenant_id}/rate-limit`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TenantRateLimit]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_id: str,
    *,
    client: AuthenticatedClient,
    body: SetTenantRateLimitBody,
) -> Error | TenantRateLimit | None:
    """change a tenant's request rate per key and minute

     Every key of the tenant runs under the new rate from its next request. A key already refused in the
    current minute may stay refused until the minute ends (where hosts share their counts, each holds
    what it reserved of the minute).

    Args:
        tenant_id (str):
        body (SetTenantRateLimitBody): The body of `PUT /v1/admin/tenants/{tenant_id}/rate-limit`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TenantRateLimit
    """

    return sync_detailed(
        tenant_id=tenant_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    tenant_id: str,
    *,
    client: AuthenticatedClient,
    body: SetTenantRateLimitBody,
) -> Response[Error | TenantRateLimit]:
    """change a tenant's request rate per key and minute

     Every key of the tenant runs under the new rate from its next request. A key already refused in the
    current minute may stay refused until the minute ends (where hosts share their counts, each holds
    what it reserved of the minute).

    Args:
        tenant_id (str):
        body (SetTenantRateLimitBody): The body of `PUT /v1/admin/tenants/{tenant_id}/rate-limit`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TenantRateLimit]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_id: str,
    *,
    client: AuthenticatedClient,
    body: SetTenantRateLimitBody,
) -> Error | TenantRateLimit | None:
    """change a tenant's request rate per key and minute

     Every key of the tenant runs under the new rate from its next request. A key already refused in the
    current minute may stay refused until the minute ends (where hosts share their counts, each holds
    what it reserved of the minute).

    Args:
        tenant_id (str):
        body (SetTenantRateLimitBody): The body of `PUT /v1/admin/tenants/{tenant_id}/rate-limit`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TenantRateLimit
    """

    return (
        await asyncio_detailed(
            tenant_id=tenant_id,
            client=client,
            body=body,
        )
    ).parsed
