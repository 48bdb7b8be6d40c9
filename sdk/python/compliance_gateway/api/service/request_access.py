from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.access_request_view import AccessRequestView
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_id: str,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/users/{user_id}/access-request".format(
            user_id=quote(str(user_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AccessRequestView | Error | None:
    if response.status_code == 200:
        response_200 = AccessRequestView.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = AccessRequestView.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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
) -> Response[AccessRequestView | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[AccessRequestView | Error]:
    """ask for everything held about a player (GDPR art. 15)

     Makes the player's access request (or answers their open one): `preparing` until the compliance team
    releases the export, `ready` with `export`, then `delivered` once the operator says so. `due_at` is
    the tenant's profile's period from now (one calendar month under the GDPR, thirty days under
    PIPEDA).

    Args:
        user_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessRequestView | Error]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> AccessRequestView | Error | None:
    """ask for everything held about a player (GDPR art. 15)

     Makes the player's access request (or answers their open one): `preparing` until the compliance team
    releases the export, `ready` with `export`, then `delivered` once the operator says so. `due_at` is
    the tenant's profile's period from now (one calendar month under the GDPR, thirty days under
    PIPEDA).

    Args:
        user_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessRequestView | Error
    """

    return sync_detailed(
        user_id=user_id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    user_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[AccessRequestView | Error]:
    """ask for everything held about a player (GDPR art. 15)

     Makes the player's access request (or answers their open one): `preparing` until the compliance team
    releases the export, `ready` with `export`, then `delivered` once the operator says so. `due_at` is
    the tenant's profile's period from now (one calendar month under the GDPR, thirty days under
    PIPEDA).

    Args:
        user_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessRequestView | Error]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> AccessRequestView | Error | None:
    """ask for everything held about a player (GDPR art. 15)

     Makes the player's access request (or answers their open one): `preparing` until the compliance team
    releases the export, `ready` with `export`, then `delivered` once the operator says so. `due_at` is
    the tenant's profile's period from now (one calendar month under the GDPR, thirty days under
    PIPEDA).

    Args:
        user_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessRequestView | Error
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
