from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.check_deposit_body import CheckDepositBody
from ...models.deposit_check import DepositCheck
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CheckDepositBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/limits/check",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DepositCheck | Error | None:
    if response.status_code == 200:
        response_200 = DepositCheck.from_dict(response.json())

        return response_200

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
) -> Response[DepositCheck | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CheckDepositBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[DepositCheck | Error]:
    """the pre-deposit gate

     When `allowed` is false, show `user_message` verbatim and reject the deposit. Deposits made in
    another currency than a limit's count against it at the environment's newest reference rates (`POST
    /v1/admin/aml/rates`) of the day, never at par: with no rate for a currency deposited, 422
    `no_reference_rate`. A check in another currency than a limit in force is 400 `currency_mismatch`.

    Args:
        idempotency_key (str | Unset):
        body (CheckDepositBody): The body of `POST /v1/limits/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DepositCheck | Error]
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
    body: CheckDepositBody,
    idempotency_key: str | Unset = UNSET,
) -> DepositCheck | Error | None:
    """the pre-deposit gate

     When `allowed` is false, show `user_message` verbatim and reject the deposit. Deposits made in
    another currency than a limit's count against it at the environment's newest reference rates (`POST
    /v1/admin/aml/rates`) of the day, never at par: with no rate for a currency deposited, 422
    `no_reference_rate`. A check in another currency than a limit in force is 400 `currency_mismatch`.

    Args:
        idempotency_key (str | Unset):
        body (CheckDepositBody): The body of `POST /v1/limits/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DepositCheck | Error
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CheckDepositBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[DepositCheck | Error]:
    """the pre-deposit gate

     When `allowed` is false, show `user_message` verbatim and reject the deposit. Deposits made in
    another currency than a limit's count against it at the environment's newest reference rates (`POST
    /v1/admin/aml/rates`) of the day, never at par: with no rate for a currency deposited, 422
    `no_reference_rate`. A check in another currency than a limit in force is 400 `currency_mismatch`.

    Args:
        idempotency_key (str | Unset):
        body (CheckDepositBody): The body of `POST /v1/limits/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DepositCheck | Error]
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
    body: CheckDepositBody,
    idempotency_key: str | Unset = UNSET,
) -> DepositCheck | Error | None:
    """the pre-deposit gate

     When `allowed` is false, show `user_message` verbatim and reject the deposit. Deposits made in
    another currency than a limit's count against it at the environment's newest reference rates (`POST
    /v1/admin/aml/rates`) of the day, never at par: with no rate for a currency deposited, 422
    `no_reference_rate`. A check in another currency than a limit in force is 400 `currency_mismatch`.

    Args:
        idempotency_key (str | Unset):
        body (CheckDepositBody): The body of `POST /v1/limits/check`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DepositCheck | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
