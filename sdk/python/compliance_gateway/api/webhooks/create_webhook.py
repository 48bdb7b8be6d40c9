from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_webhook_body import CreateWebhookBody
from ...models.error import Error
from ...models.webhook_registered import WebhookRegistered
from ...types import Response


def _get_kwargs(
    *,
    body: CreateWebhookBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookRegistered | None:
    if response.status_code == 201:
        response_201 = WebhookRegistered.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

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
) -> Response[Error | WebhookRegistered]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,
) -> Response[Error | WebhookRegistered]:
    """register a webhook endpoint

     `400 invalid_url` for a non-https URL or, in production, one that resolves to a non-public address.
    The secret is shown once; an `Idempotency-Key` is not kept (the answer holds the secret, which is
    stored only sealed): a retry registers another endpoint.

    Args:
        body (CreateWebhookBody): The body of `POST /v1/webhooks`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookRegistered]
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
    client: AuthenticatedClient,
    body: CreateWebhookBody,
) -> Error | WebhookRegistered | None:
    """register a webhook endpoint

     `400 invalid_url` for a non-https URL or, in production, one that resolves to a non-public address.
    The secret is shown once; an `Idempotency-Key` is not kept (the answer holds the secret, which is
    stored only sealed): a retry registers another endpoint.

    Args:
        body (CreateWebhookBody): The body of `POST /v1/webhooks`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookRegistered
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,
) -> Response[Error | WebhookRegistered]:
    """register a webhook endpoint

     `400 invalid_url` for a non-https URL or, in production, one that resolves to a non-public address.
    The secret is shown once; an `Idempotency-Key` is not kept (the answer holds the secret, which is
    stored only sealed): a retry registers another endpoint.

    Args:
        body (CreateWebhookBody): The body of `POST /v1/webhooks`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookRegistered]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,
) -> Error | WebhookRegistered | None:
    """register a webhook endpoint

     `400 invalid_url` for a non-https URL or, in production, one that resolves to a non-public address.
    The secret is shown once; an `Idempotency-Key` is not kept (the answer holds the secret, which is
    stored only sealed): a retry registers another endpoint.

    Args:
        body (CreateWebhookBody): The body of `POST /v1/webhooks`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookRegistered
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
