from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.screen_user_body import ScreenUserBody
from ...models.screening import Screening
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: ScreenUserBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sanctions/screen",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Screening | None:
    if response.status_code == 200:
        response_200 = Screening.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Screening.from_dict(response.json())

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
) -> Response[Error | Screening]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ScreenUserBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Screening]:
    """screen a signup against the sanctions lists

     A hit does not block signup: the user's transactions are held until review. `409 already_screened`
    when the user was screened with other details. `422 unreadable_name` when a name has letters of
    which none can be read (a name in another script is transliterated, screened, and a match on it
    flagged for the team to check against the document). Production answers `503 vendor_unavailable`
    with no list loaded.

    Args:
        idempotency_key (str | Unset):
        body (ScreenUserBody): The body of `POST /v1/sanctions/screen`: who signed up.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Screening]
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
    body: ScreenUserBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | Screening | None:
    """screen a signup against the sanctions lists

     A hit does not block signup: the user's transactions are held until review. `409 already_screened`
    when the user was screened with other details. `422 unreadable_name` when a name has letters of
    which none can be read (a name in another script is transliterated, screened, and a match on it
    flagged for the team to check against the document). Production answers `503 vendor_unavailable`
    with no list loaded.

    Args:
        idempotency_key (str | Unset):
        body (ScreenUserBody): The body of `POST /v1/sanctions/screen`: who signed up.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Screening
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ScreenUserBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Screening]:
    """screen a signup against the sanctions lists

     A hit does not block signup: the user's transactions are held until review. `409 already_screened`
    when the user was screened with other details. `422 unreadable_name` when a name has letters of
    which none can be read (a name in another script is transliterated, screened, and a match on it
    flagged for the team to check against the document). Production answers `503 vendor_unavailable`
    with no list loaded.

    Args:
        idempotency_key (str | Unset):
        body (ScreenUserBody): The body of `POST /v1/sanctions/screen`: who signed up.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Screening]
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
    body: ScreenUserBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | Screening | None:
    """screen a signup against the sanctions lists

     A hit does not block signup: the user's transactions are held until review. `409 already_screened`
    when the user was screened with other details. `422 unreadable_name` when a name has letters of
    which none can be read (a name in another script is transliterated, screened, and a match on it
    flagged for the team to check against the document). Production answers `503 vendor_unavailable`
    with no list loaded.

    Args:
        idempotency_key (str | Unset):
        body (ScreenUserBody): The body of `POST /v1/sanctions/screen`: who signed up.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Screening
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
