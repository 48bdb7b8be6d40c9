from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.set_tenant_registers_body import SetTenantRegistersBody
from ...models.tenant_registers import TenantRegisters
from ...types import Response


def _get_kwargs(
    tenant_id: str,
    *,
    body: SetTenantRegistersBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/admin/tenants/{tenant_id}/registers".format(
            tenant_id=quote(str(tenant_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TenantRegisters | None:
    if response.status_code == 200:
        response_200 = TenantRegisters.from_dict(response.json())

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
) -> Response[Error | TenantRegisters]:
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
    body: SetTenantRegistersBody,
) -> Response[Error | TenantRegisters]:
    """set the national exclusion registers a tenant is bound to consult

     Replaces the tenant's whole set; `{"registers": []}` clears it. Credentials are sealed at rest and
    never answered back.

    Args:
        tenant_id (str):
        body (SetTenantRegistersBody): The body of `PUT /v1/admin/tenants/{tenant_id}/registers`:
            the whole set, replacing the one before.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TenantRegisters]
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
    body: SetTenantRegistersBody,
) -> Error | TenantRegisters | None:
    """set the national exclusion registers a tenant is bound to consult

     Replaces the tenant's whole set; `{"registers": []}` clears it. Credentials are sealed at rest and
    never answered back.

    Args:
        tenant_id (str):
        body (SetTenantRegistersBody): The body of `PUT /v1/admin/tenants/{tenant_id}/registers`:
            the whole set, replacing the one before.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TenantRegisters
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
    body: SetTenantRegistersBody,
) -> Response[Error | TenantRegisters]:
    """set the national exclusion registers a tenant is bound to consult

     Replaces the tenant's whole set; `{"registers": []}` clears it. Credentials are sealed at rest and
    never answered back.

    Args:
        tenant_id (str):
        body (SetTenantRegistersBody): The body of `PUT /v1/admin/tenants/{tenant_id}/registers`:
            the whole set, replacing the one before.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TenantRegisters]
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
    body: SetTenantRegistersBody,
) -> Error | TenantRegisters | None:
    """set the national exclusion registers a tenant is bound to consult

     Replaces the tenant's whole set; `{"registers": []}` clears it. Credentials are sealed at rest and
    never answered back.

    Args:
        tenant_id (str):
        body (SetTenantRegistersBody): The body of `PUT /v1/admin/tenants/{tenant_id}/registers`:
            the whole set, replacing the one before.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TenantRegisters
    """

    return (
        await asyncio_detailed(
            tenant_id=tenant_id,
            client=client,
            body=body,
        )
    ).parsed
