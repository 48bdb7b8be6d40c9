import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.ctr_candidates import CtrCandidates
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params["tenant_id"] = tenant_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/aml/ctr-candidates",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CtrCandidates | Error | None:
    if response.status_code == 200:
        response_200 = CtrCandidates.from_dict(response.json())

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
) -> Response[CtrCandidates | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
) -> Response[CtrCandidates | Error]:
    """CTR candidates: one per user and gaming day whose cash passed the threshold (the console exports
    them as CSV)

    Args:
        from_ (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        to (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CtrCandidates | Error]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        tenant_id=tenant_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
) -> CtrCandidates | Error | None:
    """CTR candidates: one per user and gaming day whose cash passed the threshold (the console exports
    them as CSV)

    Args:
        from_ (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        to (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CtrCandidates | Error
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        tenant_id=tenant_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
) -> Response[CtrCandidates | Error]:
    """CTR candidates: one per user and gaming day whose cash passed the threshold (the console exports
    them as CSV)

    Args:
        from_ (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        to (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CtrCandidates | Error]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        tenant_id=tenant_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
) -> CtrCandidates | Error | None:
    """CTR candidates: one per user and gaming day whose cash passed the threshold (the console exports
    them as CSV)

    Args:
        from_ (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        to (datetime.datetime | Unset): ISO 8601 UTC, such as 2026-01-31T12:00:00Z
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CtrCandidates | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            tenant_id=tenant_id,
        )
    ).parsed
