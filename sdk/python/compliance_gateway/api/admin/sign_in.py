from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.sign_in_body import SignInBody
from ...models.sign_in_response_201 import SignInResponse201
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
) -> Error | SignInResponse201 | None:
    if response.status_code == 201:
        response_201 = SignInResponse201.from_dict(response.json())

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
) -> Response[Error | SignInResponse201]:
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
) -> Response[Error | SignInResponse201]:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SignInResponse201]
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
) -> Error | SignInResponse201 | None:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SignInResponse201
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SignInBody,
) -> Response[Error | SignInResponse201]:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SignInResponse201]
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
) -> Error | SignInResponse201 | None:
    """a member of the compliance team signs in (password and TOTP code)

    Args:
        body (SignInBody): `POST /v1/admin/sessions`: a person signs in with their e-mail address,
            password and TOTP code, and receives a session token.
            The body's schema; the handler reads it field by field, for field-precise errors.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SignInResponse201
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
