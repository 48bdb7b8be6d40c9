from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.alert_page import AlertPage
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    tenant_id: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    typology: str | Unset = UNSET,
    case_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["tenant_id"] = tenant_id

    params["user_id"] = user_id

    params["typology"] = typology

    params["case_id"] = case_id

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/aml/alerts",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AlertPage | Error | None:
    if response.status_code == 200:
        response_200 = AlertPage.from_dict(response.json())

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
) -> Response[AlertPage | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    tenant_id: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    typology: str | Unset = UNSET,
    case_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[AlertPage | Error]:
    """AML alerts of the environment, newest first, each with its explanation

    Args:
        tenant_id (str | Unset):
        user_id (str | Unset):
        typology (str | Unset):
        case_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AlertPage | Error]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        user_id=user_id,
        typology=typology,
        case_id=case_id,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    tenant_id: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    typology: str | Unset = UNSET,
    case_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> AlertPage | Error | None:
    """AML alerts of the environment, newest first, each with its explanation

    Args:
        tenant_id (str | Unset):
        user_id (str | Unset):
        typology (str | Unset):
        case_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AlertPage | Error
    """

    return sync_detailed(
        client=client,
        tenant_id=tenant_id,
        user_id=user_id,
        typology=typology,
        case_id=case_id,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    tenant_id: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    typology: str | Unset = UNSET,
    case_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[AlertPage | Error]:
    """AML alerts of the environment, newest first, each with its explanation

    Args:
        tenant_id (str | Unset):
        user_id (str | Unset):
        typology (str | Unset):
        case_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AlertPage | Error]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        user_id=user_id,
        typology=typology,
        case_id=case_id,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    tenant_id: str | Unset = UNSET,
    user_id: str | Unset = UNSET,
    typology: str | Unset = UNSET,
    case_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> AlertPage | Error | None:
    """AML alerts of the environment, newest first, each with its explanation

    Args:
        tenant_id (str | Unset):
        user_id (str | Unset):
        typology (str | Unset):
        case_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AlertPage | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            tenant_id=tenant_id,
            user_id=user_id,
            typology=typology,
            case_id=case_id,
            cursor=cursor,
        )
    ).parsed
