from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.own_alert_page import OwnAlertPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    user_id: str,
    typology: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["user_id"] = user_id

    params["typology"] = typology

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/aml/alerts",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | OwnAlertPage | None:
    if response.status_code == 200:
        response_200 = OwnAlertPage.from_dict(response.json())

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
) -> Response[Error | OwnAlertPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    user_id: str,
    typology: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[Error | OwnAlertPage]:
    """AML alerts of one of the tenant's users, newest first

     For the operator's compliance staff only: nothing of an alert may reach the player.

    Args:
        user_id (str):
        typology (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OwnAlertPage]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        typology=typology,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    user_id: str,
    typology: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Error | OwnAlertPage | None:
    """AML alerts of one of the tenant's users, newest first

     For the operator's compliance staff only: nothing of an alert may reach the player.

    Args:
        user_id (str):
        typology (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OwnAlertPage
    """

    return sync_detailed(
        client=client,
        user_id=user_id,
        typology=typology,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    user_id: str,
    typology: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[Error | OwnAlertPage]:
    """AML alerts of one of the tenant's users, newest first

     For the operator's compliance staff only: nothing of an alert may reach the player.

    Args:
        user_id (str):
        typology (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OwnAlertPage]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        typology=typology,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    user_id: str,
    typology: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Error | OwnAlertPage | None:
    """AML alerts of one of the tenant's users, newest first

     For the operator's compliance staff only: nothing of an alert may reach the player.

    Args:
        user_id (str):
        typology (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OwnAlertPage
    """

    return (
        await asyncio_detailed(
            client=client,
            user_id=user_id,
            typology=typology,
            cursor=cursor,
        )
    ).parsed
