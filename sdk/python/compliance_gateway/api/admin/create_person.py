from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_person_body import CreatePersonBody
from ...models.created_account import CreatedAccount
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: CreatePersonBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/people",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreatedAccount | Error | None:
    if response.status_code == 201:
        response_201 = CreatedAccount.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

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
) -> Response[CreatedAccount | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePersonBody,
) -> Response[CreatedAccount | Error]:
    """make a console account in the caller's environment: a one-time password (to be changed at the first
    sign-in) and a TOTP secret, shown once (none for an account of the identity provider). An admin key,
    or an admin's session. Where four-eyes applies no one makes a usable account alone: an admin's
    account starts `enable_proposed` and another admin's `POST …/enable` enables it; a key's reviewer
    starts `disabled` (two admins enable it), a key makes an admin at once only while the environment
    has fewer than two enabled admins (its founders), and any other approving role by a key is 403
    `person_required`. An `Idempotency-Key` is not kept (the answer holds secrets): a retry is 409
    `email_taken`

    Args:
        body (CreatePersonBody): `POST /v1/admin/people`: a console account made through the API,
            as
            `console-user create` makes one on the command line (the edge has none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedAccount | Error]
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
    body: CreatePersonBody,
) -> CreatedAccount | Error | None:
    """make a console account in the caller's environment: a one-time password (to be changed at the first
    sign-in) and a TOTP secret, shown once (none for an account of the identity provider). An admin key,
    or an admin's session. Where four-eyes applies no one makes a usable account alone: an admin's
    account starts `enable_proposed` and another admin's `POST …/enable` enables it; a key's reviewer
    starts `disabled` (two admins enable it), a key makes an admin at once only while the environment
    has fewer than two enabled admins (its founders), and any other approving role by a key is 403
    `person_required`. An `Idempotency-Key` is not kept (the answer holds secrets): a retry is 409
    `email_taken`

    Args:
        body (CreatePersonBody): `POST /v1/admin/people`: a console account made through the API,
            as
            `console-user create` makes one on the command line (the edge has none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedAccount | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePersonBody,
) -> Response[CreatedAccount | Error]:
    """make a console account in the caller's environment: a one-time password (to be changed at the first
    sign-in) and a TOTP secret, shown once (none for an account of the identity provider). An admin key,
    or an admin's session. Where four-eyes applies no one makes a usable account alone: an admin's
    account starts `enable_proposed` and another admin's `POST …/enable` enables it; a key's reviewer
    starts `disabled` (two admins enable it), a key makes an admin at once only while the environment
    has fewer than two enabled admins (its founders), and any other approving role by a key is 403
    `person_required`. An `Idempotency-Key` is not kept (the answer holds secrets): a retry is 409
    `email_taken`

    Args:
        body (CreatePersonBody): `POST /v1/admin/people`: a console account made through the API,
            as
            `console-user create` makes one on the command line (the edge has none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedAccount | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreatePersonBody,
) -> CreatedAccount | Error | None:
    """make a console account in the caller's environment: a one-time password (to be changed at the first
    sign-in) and a TOTP secret, shown once (none for an account of the identity provider). An admin key,
    or an admin's session. Where four-eyes applies no one makes a usable account alone: an admin's
    account starts `enable_proposed` and another admin's `POST …/enable` enables it; a key's reviewer
    starts `disabled` (two admins enable it), a key makes an admin at once only while the environment
    has fewer than two enabled admins (its founders), and any other approving role by a key is 403
    `person_required`. An `Idempotency-Key` is not kept (the answer holds secrets): a retry is 409
    `email_taken`

    Args:
        body (CreatePersonBody): `POST /v1/admin/people`: a console account made through the API,
            as
            `console-user create` makes one on the command line (the edge has none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedAccount | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
