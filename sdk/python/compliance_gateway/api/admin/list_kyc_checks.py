from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.check_list import CheckList
from ...models.error import Error
from ...models.kyc_status import KycStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: KycStatus | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    escalated: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["overdue"] = overdue

    params["escalated"] = escalated

    params["min_age_seconds"] = min_age_seconds

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/kyc/checks",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CheckList | Error | None:
    if response.status_code == 200:
        response_200 = CheckList.from_dict(response.json())

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
) -> Response[CheckList | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: KycStatus | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    escalated: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[CheckList | Error]:
    """verification checks of the environment by status

    Args:
        status (KycStatus | Unset): a verification check's status
        overdue (bool | Unset):
        escalated (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckList | Error]
    """

    kwargs = _get_kwargs(
        status=status,
        overdue=overdue,
        escalated=escalated,
        min_age_seconds=min_age_seconds,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: KycStatus | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    escalated: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> CheckList | Error | None:
    """verification checks of the environment by status

    Args:
        status (KycStatus | Unset): a verification check's status
        overdue (bool | Unset):
        escalated (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckList | Error
    """

    return sync_detailed(
        client=client,
        status=status,
        overdue=overdue,
        escalated=escalated,
        min_age_seconds=min_age_seconds,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: KycStatus | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    escalated: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[CheckList | Error]:
    """verification checks of the environment by status

    Args:
        status (KycStatus | Unset): a verification check's status
        overdue (bool | Unset):
        escalated (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckList | Error]
    """

    kwargs = _get_kwargs(
        status=status,
        overdue=overdue,
        escalated=escalated,
        min_age_seconds=min_age_seconds,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: KycStatus | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    escalated: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> CheckList | Error | None:
    """verification checks of the environment by status

    Args:
        status (KycStatus | Unset): a verification check's status
        overdue (bool | Unset):
        escalated (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckList | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            overdue=overdue,
            escalated=escalated,
            min_age_seconds=min_age_seconds,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
