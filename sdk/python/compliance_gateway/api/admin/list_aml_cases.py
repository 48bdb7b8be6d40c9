from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.aml_case_page import AmlCasePage
from ...models.error import Error
from ...models.list_aml_cases_status import ListAmlCasesStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: ListAmlCasesStatus | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["tenant_id"] = tenant_id

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/aml/cases",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AmlCasePage | Error | None:
    if response.status_code == 200:
        response_200 = AmlCasePage.from_dict(response.json())

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
) -> Response[AmlCasePage | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: ListAmlCasesStatus | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[AmlCasePage | Error]:
    """AML cases of the environment by due time: one open case per user groups its alerts

    Args:
        status (ListAmlCasesStatus | Unset): Where an AML case stands.
        tenant_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AmlCasePage | Error]
    """

    kwargs = _get_kwargs(
        status=status,
        tenant_id=tenant_id,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: ListAmlCasesStatus | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> AmlCasePage | Error | None:
    """AML cases of the environment by due time: one open case per user groups its alerts

    Args:
        status (ListAmlCasesStatus | Unset): Where an AML case stands.
        tenant_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AmlCasePage | Error
    """

    return sync_detailed(
        client=client,
        status=status,
        tenant_id=tenant_id,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: ListAmlCasesStatus | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[AmlCasePage | Error]:
    """AML cases of the environment by due time: one open case per user groups its alerts

    Args:
        status (ListAmlCasesStatus | Unset): Where an AML case stands.
        tenant_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AmlCasePage | Error]
    """

    kwargs = _get_kwargs(
        status=status,
        tenant_id=tenant_id,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: ListAmlCasesStatus | Unset = UNSET,
    tenant_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> AmlCasePage | Error | None:
    """AML cases of the environment by due time: one open case per user groups its alerts

    Args:
        status (ListAmlCasesStatus | Unset): Where an AML case stands.
        tenant_id (str | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AmlCasePage | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            tenant_id=tenant_id,
            cursor=cursor,
        )
    ).parsed
