from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.kyc_token import KycToken
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kyc_check_id: str,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/kyc/{kyc_check_id}/token".format(
            kyc_check_id=quote(str(kyc_check_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | KycToken | None:
    if response.status_code == 200:
        response_200 = KycToken.from_dict(response.json())

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
) -> Response[Error | KycToken]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kyc_check_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | KycToken]:
    """a fresh vendor token for a check that is not final (the user opens or resumes the vendor flow)

     A check that has not started starts (`in_progress`, event `kyc.started`); an unfinished flow's 7-day
    abandonment counts from now. A final check is 409 `invalid_state`; a check abandoned for 7 days
    expires instead. 503 `vendor_unavailable` when the vendor cannot issue a token.

    Args:
        kyc_check_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | KycToken]
    """

    kwargs = _get_kwargs(
        kyc_check_id=kyc_check_id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kyc_check_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Error | KycToken | None:
    """a fresh vendor token for a check that is not final (the user opens or resumes the vendor flow)

     A check that has not started starts (`in_progress`, event `kyc.started`); an unfinished flow's 7-day
    abandonment counts from now. A final check is 409 `invalid_state`; a check abandoned for 7 days
    expires instead. 503 `vendor_unavailable` when the vendor cannot issue a token.

    Args:
        kyc_check_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | KycToken
    """

    return sync_detailed(
        kyc_check_id=kyc_check_id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    kyc_check_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | KycToken]:
    """a fresh vendor token for a check that is not final (the user opens or resumes the vendor flow)

     A check that has not started starts (`in_progress`, event `kyc.started`); an unfinished flow's 7-day
    abandonment counts from now. A final check is 409 `invalid_state`; a check abandoned for 7 days
    expires instead. 503 `vendor_unavailable` when the vendor cannot issue a token.

    Args:
        kyc_check_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | KycToken]
    """

    kwargs = _get_kwargs(
        kyc_check_id=kyc_check_id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kyc_check_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Error | KycToken | None:
    """a fresh vendor token for a check that is not final (the user opens or resumes the vendor flow)

     A check that has not started starts (`in_progress`, event `kyc.started`); an unfinished flow's 7-day
    abandonment counts from now. A final check is 409 `invalid_state`; a check abandoned for 7 days
    expires instead. 503 `vendor_unavailable` when the vendor cannot issue a token.

    Args:
        kyc_check_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | KycToken
    """

    return (
        await asyncio_detailed(
            kyc_check_id=kyc_check_id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
