from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_case_queue_status import ListCaseQueueStatus
from ...models.list_case_queue_type import ListCaseQueueType
from ...models.queue import Queue
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    type_: ListCaseQueueType | Unset = UNSET,
    status: ListCaseQueueStatus | Unset = UNSET,
    assignee: str | Unset = UNSET,
    tag: str | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_.value

    params["type"] = json_type_

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["assignee"] = assignee

    params["tag"] = tag

    params["overdue"] = overdue

    params["min_age_seconds"] = min_age_seconds

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/cases",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Queue | None:
    if response.status_code == 200:
        response_200 = Queue.from_dict(response.json())

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
) -> Response[Error | Queue]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    type_: ListCaseQueueType | Unset = UNSET,
    status: ListCaseQueueStatus | Unset = UNSET,
    assignee: str | Unset = UNSET,
    tag: str | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[Error | Queue]:
    """the review queue: every case type, by due time

    Args:
        type_ (ListCaseQueueType | Unset): What a case asks of the team.
        status (ListCaseQueueStatus | Unset): Which state of the work the queue shows.
        assignee (str | Unset):
        tag (str | Unset):
        overdue (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Queue]
    """

    kwargs = _get_kwargs(
        type_=type_,
        status=status,
        assignee=assignee,
        tag=tag,
        overdue=overdue,
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
    type_: ListCaseQueueType | Unset = UNSET,
    status: ListCaseQueueStatus | Unset = UNSET,
    assignee: str | Unset = UNSET,
    tag: str | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Error | Queue | None:
    """the review queue: every case type, by due time

    Args:
        type_ (ListCaseQueueType | Unset): What a case asks of the team.
        status (ListCaseQueueStatus | Unset): Which state of the work the queue shows.
        assignee (str | Unset):
        tag (str | Unset):
        overdue (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Queue
    """

    return sync_detailed(
        client=client,
        type_=type_,
        status=status,
        assignee=assignee,
        tag=tag,
        overdue=overdue,
        min_age_seconds=min_age_seconds,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    type_: ListCaseQueueType | Unset = UNSET,
    status: ListCaseQueueStatus | Unset = UNSET,
    assignee: str | Unset = UNSET,
    tag: str | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[Error | Queue]:
    """the review queue: every case type, by due time

    Args:
        type_ (ListCaseQueueType | Unset): What a case asks of the team.
        status (ListCaseQueueStatus | Unset): Which state of the work the queue shows.
        assignee (str | Unset):
        tag (str | Unset):
        overdue (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Queue]
    """

    kwargs = _get_kwargs(
        type_=type_,
        status=status,
        assignee=assignee,
        tag=tag,
        overdue=overdue,
        min_age_seconds=min_age_seconds,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    type_: ListCaseQueueType | Unset = UNSET,
    status: ListCaseQueueStatus | Unset = UNSET,
    assignee: str | Unset = UNSET,
    tag: str | Unset = UNSET,
    overdue: bool | Unset = UNSET,
    min_age_seconds: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Error | Queue | None:
    """the review queue: every case type, by due time

    Args:
        type_ (ListCaseQueueType | Unset): What a case asks of the team.
        status (ListCaseQueueStatus | Unset): Which state of the work the queue shows.
        assignee (str | Unset):
        tag (str | Unset):
        overdue (bool | Unset):
        min_age_seconds (int | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Queue
    """

    return (
        await asyncio_detailed(
            client=client,
            type_=type_,
            status=status,
            assignee=assignee,
            tag=tag,
            overdue=overdue,
            min_age_seconds=min_age_seconds,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
