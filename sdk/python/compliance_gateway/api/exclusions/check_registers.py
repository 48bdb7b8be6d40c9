from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.check_registers_body import CheckRegistersBody
from ...models.error import Error
from ...models.register_check import RegisterCheck
from ...types import Response


def _get_kwargs(
    *,
    body: CheckRegistersBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/exclusions/check",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RegisterCheck | None:
    if response.status_code == 200:
        response_200 = RegisterCheck.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

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
) -> Response[Error | RegisterCheck]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CheckRegistersBody,
) -> Response[Error | RegisterCheck]:
    """check a player against the shared register and the national registers the tenant is bound to consult

     Every register configured for the purpose is asked at once, within one budget of 2 seconds; one that
    does not answer usably in time is `unavailable`, which excludes unless its `on_outage` is
    `allow_flagged`. A personnummer, BSN or CPR that fails its check is `422 invalid_field` and no
    register is asked.

    Args:
        body (CheckRegistersBody): The body of `POST /v1/exclusions/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RegisterCheck]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CheckRegistersBody,
) -> Error | RegisterCheck | None:
    """check a player against the shared register and the national registers the tenant is bound to consult

     Every register configured for the purpose is asked at once, within one budget of 2 seconds; one that
    does not answer usably in time is `unavailable`, which excludes unless its `on_outage` is
    `allow_flagged`. A personnummer, BSN or CPR that fails its check is `422 invalid_field` and no
    register is asked.

    Args:
        body (CheckRegistersBody): The body of `POST /v1/exclusions/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RegisterCheck
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CheckRegistersBody,
) -> Response[Error | RegisterCheck]:
    """check a player against the shared register and the national registers the tenant is bound to consult

     Every register configured for the purpose is asked at once, within one budget of 2 seconds; one that
    does not answer usably in time is `unavailable`, which excludes unless its `on_outage` is
    `allow_flagged`. A personnummer, BSN or CPR that fails its check is `422 invalid_field` and no
    register is asked.

    Args:
        body (CheckRegistersBody): The body of `POST /v1/exclusions/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RegisterCheck]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CheckRegistersBody,
) -> Error | RegisterCheck | None:
    """check a player against the shared register and the national registers the tenant is bound to consult

     Every register configured for the purpose is asked at once, within one budget of 2 seconds; one that
    does not answer usably in time is `unavailable`, which excludes unless its `on_outage` is
    `allow_flagged`. A personnummer, BSN or CPR that fails its check is `422 invalid_field` and no
    register is asked.

    Args:
        body (CheckRegistersBody): The body of `POST /v1/exclusions/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RegisterCheck
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
