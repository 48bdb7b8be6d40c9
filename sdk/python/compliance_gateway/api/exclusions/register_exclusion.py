from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.exclusion_registered import ExclusionRegistered
from ...models.register_exclusion_body import RegisterExclusionBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: RegisterExclusionBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/exclusions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ExclusionRegistered | None:
    if response.status_code == 200:
        response_200 = ExclusionRegistered.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = ExclusionRegistered.from_dict(response.json())

        return response_201

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
) -> Response[Error | ExclusionRegistered]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RegisterExclusionBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | ExclusionRegistered]:
    """register a self-exclusion

     At least one of `email` and `phone` is required. Every operator of the environment is told by
    webhook.

    Args:
        idempotency_key (str | Unset):
        body (RegisterExclusionBody): at least one of email and phone

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExclusionRegistered]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: RegisterExclusionBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | ExclusionRegistered | None:
    """register a self-exclusion

     At least one of `email` and `phone` is required. Every operator of the environment is told by
    webhook.

    Args:
        idempotency_key (str | Unset):
        body (RegisterExclusionBody): at least one of email and phone

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExclusionRegistered
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RegisterExclusionBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | ExclusionRegistered]:
    """register a self-exclusion

     At least one of `email` and `phone` is required. Every operator of the environment is told by
    webhook.

    Args:
        idempotency_key (str | Unset):
        body (RegisterExclusionBody): at least one of email and phone

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExclusionRegistered]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RegisterExclusionBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | ExclusionRegistered | None:
    """register a self-exclusion

     At least one of `email` and `phone` is required. Every operator of the environment is told by
    webhook.

    Args:
        idempotency_key (str | Unset):
        body (RegisterExclusionBody): at least one of email and phone

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExclusionRegistered
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
