import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.search_lists_mode import SearchListsMode
from ...models.search_results import SearchResults
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    name: str,
    date_of_birth: datetime.date | Unset = UNSET,
    nationality: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: SearchListsMode | Unset = UNSET,
    min_score: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["name"] = name

    json_date_of_birth: str | Unset = UNSET
    if not isinstance(date_of_birth, Unset):
        json_date_of_birth = date_of_birth.isoformat()
    params["date_of_birth"] = json_date_of_birth

    params["nationality"] = nationality

    params["limit"] = limit

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    params["min_score"] = min_score

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/sanctions/search",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SearchResults | None:
    if response.status_code == 200:
        response_200 = SearchResults.from_dict(response.json())

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
) -> Response[Error | SearchResults]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    name: str,
    date_of_birth: datetime.date | Unset = UNSET,
    nationality: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: SearchListsMode | Unset = UNSET,
    min_score: int | Unset = UNSET,
) -> Response[Error | SearchResults]:
    """search the environment's sanctions lists

    Args:
        name (str):
        date_of_birth (datetime.date | Unset):
        nationality (str | Unset):
        limit (int | Unset):
        mode (SearchListsMode | Unset): How a search scores.
        min_score (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SearchResults]
    """

    kwargs = _get_kwargs(
        name=name,
        date_of_birth=date_of_birth,
        nationality=nationality,
        limit=limit,
        mode=mode,
        min_score=min_score,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    name: str,
    date_of_birth: datetime.date | Unset = UNSET,
    nationality: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: SearchListsMode | Unset = UNSET,
    min_score: int | Unset = UNSET,
) -> Error | SearchResults | None:
    """search the environment's sanctions lists

    Args:
        name (str):
        date_of_birth (datetime.date | Unset):
        nationality (str | Unset):
        limit (int | Unset):
        mode (SearchListsMode | Unset): How a search scores.
        min_score (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SearchResults
    """

    return sync_detailed(
        client=client,
        name=name,
        date_of_birth=date_of_birth,
        nationality=nationality,
        limit=limit,
        mode=mode,
        min_score=min_score,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    name: str,
    date_of_birth: datetime.date | Unset = UNSET,
    nationality: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: SearchListsMode | Unset = UNSET,
    min_score: int | Unset = UNSET,
) -> Response[Error | SearchResults]:
    """search the environment's sanctions lists

    Args:
        name (str):
        date_of_birth (datetime.date | Unset):
        nationality (str | Unset):
        limit (int | Unset):
        mode (SearchListsMode | Unset): How a search scores.
        min_score (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SearchResults]
    """

    kwargs = _get_kwargs(
        name=name,
        date_of_birth=date_of_birth,
        nationality=nationality,
        limit=limit,
        mode=mode,
        min_score=min_score,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    name: str,
    date_of_birth: datetime.date | Unset = UNSET,
    nationality: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: SearchListsMode | Unset = UNSET,
    min_score: int | Unset = UNSET,
) -> Error | SearchResults | None:
    """search the environment's sanctions lists

    Args:
        name (str):
        date_of_birth (datetime.date | Unset):
        nationality (str | Unset):
        limit (int | Unset):
        mode (SearchListsMode | Unset): How a search scores.
        min_score (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SearchResults
    """

    return (
        await asyncio_detailed(
            client=client,
            name=name,
            date_of_birth=date_of_birth,
            nationality=nationality,
            limit=limit,
            mode=mode,
            min_score=min_score,
        )
    ).parsed
