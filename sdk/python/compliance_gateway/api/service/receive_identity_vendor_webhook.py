from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.identity_vendor_webhook_receipt import IdentityVendorWebhookReceipt
from ...models.receive_identity_vendor_webhook_body import (
    ReceiveIdentityVendorWebhookBody,
)
from ...types import Response


def _get_kwargs(
    *,
    body: ReceiveIdentityVendorWebhookBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/vendors/sumsub/webhook",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | IdentityVendorWebhookReceipt | None:
    if response.status_code == 200:
        response_200 = IdentityVendorWebhookReceipt.from_dict(response.json())

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

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | IdentityVendorWebhookReceipt]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveIdentityVendorWebhookBody,
) -> Response[Error | IdentityVendorWebhookReceipt]:
    """a status webhook from the identity-verification vendor (Sumsub)

     Authenticated by the `X-Payload-Digest` header (hex HMAC-SHA256 or, with `X-Payload-Digest-Alg:
    HMAC_SHA512_HEX`, HMAC-SHA512 of the raw body, keyed with the webhook secret), not by a key.
    `applicantPending` submits the check named by `externalUserId` (the `kyc_check_id`);
    `applicantReviewed` GREEN approves it, RED FINAL rejects it; other types are acknowledged and
    ignored. 404 when no vendor is configured or the check is unknown; 409 `invalid_state` when the
    check has another verdict.

    Args:
        body (ReceiveIdentityVendorWebhookBody): The body of the identity vendor's webhook
            (Sumsub), as far as it is read.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IdentityVendorWebhookReceipt]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveIdentityVendorWebhookBody,
) -> Error | IdentityVendorWebhookReceipt | None:
    """a status webhook from the identity-verification vendor (Sumsub)

     Authenticated by the `X-Payload-Digest` header (hex HMAC-SHA256 or, with `X-Payload-Digest-Alg:
    HMAC_SHA512_HEX`, HMAC-SHA512 of the raw body, keyed with the webhook secret), not by a key.
    `applicantPending` submits the check named by `externalUserId` (the `kyc_check_id`);
    `applicantReviewed` GREEN approves it, RED FINAL rejects it; other types are acknowledged and
    ignored. 404 when no vendor is configured or the check is unknown; 409 `invalid_state` when the
    check has another verdict.

    Args:
        body (ReceiveIdentityVendorWebhookBody): The body of the identity vendor's webhook
            (Sumsub), as far as it is read.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IdentityVendorWebhookReceipt
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveIdentityVendorWebhookBody,
) -> Response[Error | IdentityVendorWebhookReceipt]:
    """a status webhook from the identity-verification vendor (Sumsub)

     Authenticated by the `X-Payload-Digest` header (hex HMAC-SHA256 or, with `X-Payload-Digest-Alg:
    HMAC_SHA512_HEX`, HMAC-SHA512 of the raw body, keyed with the webhook secret), not by a key.
    `applicantPending` submits the check named by `externalUserId` (the `kyc_check_id`);
    `applicantReviewed` GREEN approves it, RED FINAL rejects it; other types are acknowledged and
    ignored. 404 when no vendor is configured or the check is unknown; 409 `invalid_state` when the
    check has another verdict.

    Args:
        body (ReceiveIdentityVendorWebhookBody): The body of the identity vendor's webhook
            (Sumsub), as far as it is read.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IdentityVendorWebhookReceipt]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveIdentityVendorWebhookBody,
) -> Error | IdentityVendorWebhookReceipt | None:
    """a status webhook from the identity-verification vendor (Sumsub)

     Authenticated by the `X-Payload-Digest` header (hex HMAC-SHA256 or, with `X-Payload-Digest-Alg:
    HMAC_SHA512_HEX`, HMAC-SHA512 of the raw body, keyed with the webhook secret), not by a key.
    `applicantPending` submits the check named by `externalUserId` (the `kyc_check_id`);
    `applicantReviewed` GREEN approves it, RED FINAL rejects it; other types are acknowledged and
    ignored. 404 when no vendor is configured or the check is unknown; 409 `invalid_state` when the
    check has another verdict.

    Args:
        body (ReceiveIdentityVendorWebhookBody): The body of the identity vendor's webhook
            (Sumsub), as far as it is read.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IdentityVendorWebhookReceipt
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
