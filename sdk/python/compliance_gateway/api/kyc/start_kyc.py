from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.start_kyc_body import StartKycBody
from ...models.withdrawal_answer import WithdrawalAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: StartKycBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/kyc/start",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WithdrawalAnswer | None:
    if response.status_code == 200:
        response_200 = WithdrawalAnswer.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = WithdrawalAnswer.from_dict(response.json())

        return response_201

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
) -> Response[Error | WithdrawalAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: StartKycBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WithdrawalAnswer]:
    """ask for a withdrawal; starts verification when it exceeds the verified tier

     A retry never counts a withdrawal twice. Send the operator's `withdrawal_id` (a repeat with the same
    user, amount and currency answers the original; the same id for another withdrawal is 409
    `withdrawal_id_reused`) or an `Idempotency-Key`. With neither, a request of the same user, amount
    and currency within 10 minutes of a withdrawal released at once (also sent with neither), with
    nothing else done for the user since, is taken for a blind retry of it and answers it again: send a
    `withdrawal_id` to make two equal withdrawals. The tier ceilings are amounts in the jurisdiction
    profile's currency: a withdrawal in another has its lifetime total converted at the environment's
    newest reference rates (`POST /v1/admin/aml/rates`) of the day; with no rate, 422
    `no_reference_rate`. In production, 503 `vendor_unavailable` when the identity vendor cannot issue a
    token (retry after `Retry-After`), and 503 `tier_not_verifiable` when the tier the withdrawal needs
    has no verification level configured (no lower tier's level verifies it).

    Args:
        idempotency_key (str | Unset):
        body (StartKycBody): A withdrawal request as the operator sent it (the body of `POST
            /v1/kyc/start`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WithdrawalAnswer]
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
    body: StartKycBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | WithdrawalAnswer | None:
    """ask for a withdrawal; starts verification when it exceeds the verified tier

     A retry never counts a withdrawal twice. Send the operator's `withdrawal_id` (a repeat with the same
    user, amount and currency answers the original; the same id for another withdrawal is 409
    `withdrawal_id_reused`) or an `Idempotency-Key`. With neither, a request of the same user, amount
    and currency within 10 minutes of a withdrawal released at once (also sent with neither), with
    nothing else done for the user since, is taken for a blind retry of it and answers it again: send a
    `withdrawal_id` to make two equal withdrawals. The tier ceilings are amounts in the jurisdiction
    profile's currency: a withdrawal in another has its lifetime total converted at the environment's
    newest reference rates (`POST /v1/admin/aml/rates`) of the day; with no rate, 422
    `no_reference_rate`. In production, 503 `vendor_unavailable` when the identity vendor cannot issue a
    token (retry after `Retry-After`), and 503 `tier_not_verifiable` when the tier the withdrawal needs
    has no verification level configured (no lower tier's level verifies it).

    Args:
        idempotency_key (str | Unset):
        body (StartKycBody): A withdrawal request as the operator sent it (the body of `POST
            /v1/kyc/start`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WithdrawalAnswer
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: StartKycBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WithdrawalAnswer]:
    """ask for a withdrawal; starts verification when it exceeds the verified tier

     A retry never counts a withdrawal twice. Send the operator's `withdrawal_id` (a repeat with the same
    user, amount and currency answers the original; the same id for another withdrawal is 409
    `withdrawal_id_reused`) or an `Idempotency-Key`. With neither, a request of the same user, amount
    and currency within 10 minutes of a withdrawal released at once (also sent with neither), with
    nothing else done for the user since, is taken for a blind retry of it and answers it again: send a
    `withdrawal_id` to make two equal withdrawals. The tier ceilings are amounts in the jurisdiction
    profile's currency: a withdrawal in another has its lifetime total converted at the environment's
    newest reference rates (`POST /v1/admin/aml/rates`) of the day; with no rate, 422
    `no_reference_rate`. In production, 503 `vendor_unavailable` when the identity vendor cannot issue a
    token (retry after `Retry-After`), and 503 `tier_not_verifiable` when the tier the withdrawal needs
    has no verification level configured (no lower tier's level verifies it).

    Args:
        idempotency_key (str | Unset):
        body (StartKycBody): A withdrawal request as the operator sent it (the body of `POST
            /v1/kyc/start`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WithdrawalAnswer]
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
    body: StartKycBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | WithdrawalAnswer | None:
    """ask for a withdrawal; starts verification when it exceeds the verified tier

     A retry never counts a withdrawal twice. Send the operator's `withdrawal_id` (a repeat with the same
    user, amount and currency answers the original; the same id for another withdrawal is 409
    `withdrawal_id_reused`) or an `Idempotency-Key`. With neither, a request of the same user, amount
    and currency within 10 minutes of a withdrawal released at once (also sent with neither), with
    nothing else done for the user since, is taken for a blind retry of it and answers it again: send a
    `withdrawal_id` to make two equal withdrawals. The tier ceilings are amounts in the jurisdiction
    profile's currency: a withdrawal in another has its lifetime total converted at the environment's
    newest reference rates (`POST /v1/admin/aml/rates`) of the day; with no rate, 422
    `no_reference_rate`. In production, 503 `vendor_unavailable` when the identity vendor cannot issue a
    token (retry after `Retry-After`), and 503 `tier_not_verifiable` when the tier the withdrawal needs
    has no verification level configured (no lower tier's level verifies it).

    Args:
        idempotency_key (str | Unset):
        body (StartKycBody): A withdrawal request as the operator sent it (the body of `POST
            /v1/kyc/start`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WithdrawalAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
