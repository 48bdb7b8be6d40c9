from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.access_request_file import AccessRequestFile
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    access_request_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/access-requests/{access_request_id}".format(
            access_request_id=quote(str(access_request_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AccessRequestFile | Error | None:
    if response.status_code == 200:
        response_200 = AccessRequestFile.from_dict(response.json())

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
) -> Response[AccessRequestFile | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    access_request_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[AccessRequestFile | Error]:
    """an access request as the team releases it: the export and what is withheld, each with its basis

     Release it through its case (`POST /v1/admin/cases/{case_id}/proposal` with outcome `release`; the
    case id is the request's id).

    Args:
        access_request_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessRequestFile | Error]
    """

    kwargs = _get_kwargs(
        access_request_id=access_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    access_request_id: str,
    *,
    client: AuthenticatedClient,
) -> AccessRequestFile | Error | None:
    """an access request as the team releases it: the export and what is withheld, each with its basis

     Release it through its case (`POST /v1/admin/cases/{case_id}/proposal` with outcome `release`; the
    case id is the request's id).

    Args:
        access_request_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessRequestFile | Error
    """

    return sync_detailed(
        access_request_id=access_request_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    access_request_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[AccessRequestFile | Error]:
    """an access request as the team releases it: the export and what is withheld, each with its basis

     Release it through its case (`POST /v1/admin/cases/{case_id}/proposal` with outcome `release`; the
    case id is the request's id).

    Args:
        access_request_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessRequestFile | Error]
    """

    kwargs = _get_kwargs(
        access_request_id=access_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    access_request_id: str,
    *,
    client: AuthenticatedClient,
) -> AccessRequestFile | Error | None:
    """an access request as the team releases it: the export and what is withheld, each with its basis

     Release it through its case (`POST /v1/admin/cases/{case_id}/proposal` with outcome `release`; the
    case id is the request's id).

    Args:
        access_request_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessRequestFile | Error
    """

    return (
        await asyncio_detailed(
            access_request_id=access_request_id,
            client=client,
        )
    ).parsed
