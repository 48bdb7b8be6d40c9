from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.session_started import SessionStarted
from ...models.sign_in_body import SignInBody
from ...types import Response


def _get_kwargs(
    *,
    body: SignInBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/sessions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SessionStarted | None:
    if response.status_code == 201:
        response_201 = SessionStarted.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | SessionStarted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SignInBody,
) -> Response[Error | SessionStarted]:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionStarted]
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
    body: SignInBody,
) -> Error | SessionStarted | None:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionStarted
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SignInBody,
) -> Response[Error | SessionStarted]:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionStarted]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SignInBody,
) -> Error | SessionStarted | None:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionStarted
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
