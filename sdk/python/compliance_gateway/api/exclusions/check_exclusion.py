from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.check_result import CheckResult
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    email: str | Unset = UNSET,
    phone: str | Unset = UNSET,
    bookmark: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["email"] = email

    params["phone"] = phone

    params["bookmark"] = bookmark

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/exclusions/check",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CheckResult | Error | None:
    if response.status_code == 200:
        response_200 = CheckResult.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

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
) -> Response[CheckResult | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    email: str | Unset = UNSET,
    phone: str | Unset = UNSET,
    bookmark: str | Unset = UNSET,
) -> Response[CheckResult | Error]:
    """whether an e-mail address or phone is excluded, across operators

     A phone is read in the tenant's jurisdiction and compared as E.164; an e-mail address by its mailbox
    (see `Email`). `422 unreadable_phone` when the phone cannot be read.

    Args:
        email (str | Unset): an e-mail address; compared without case, its domain in IDNA's ASCII
            form (Unicode and punycode alike), and folded by the providers' documented alias rules:
            Gmail's dots and `+tag` dropped and googlemail.com read as gmail.com, a `+tag` dropped at
            Fastmail and Proton; any other address compared as delivered
        phone (str | Unset): a phone number of 7 to 15 digits, with the separators space ( ) . -,
            read with libphonenumber's rules and compared as E.164: international after + or 00;
            without, in the national format of the tenant's jurisdiction (GB, SE, DE, NL, CA for CA-
            ON), and as international digits in the default one, where a national number (a leading 0)
            is 422 `unreadable_phone`; a number that cannot be read is 422 `unreadable_phone`
        bookmark (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckResult | Error]
    """

    kwargs = _get_kwargs(
        email=email,
        phone=phone,
        bookmark=bookmark,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    email: str | Unset = UNSET,
    phone: str | Unset = UNSET,
    bookmark: str | Unset = UNSET,
) -> CheckResult | Error | None:
    """whether an e-mail address or phone is excluded, across operators

     A phone is read in the tenant's jurisdiction and compared as E.164; an e-mail address by its mailbox
    (see `Email`). `422 unreadable_phone` when the phone cannot be read.

    Args:
        email (str | Unset): an e-mail address; compared without case, its domain in IDNA's ASCII
            form (Unicode and punycode alike), and folded by the providers' documented alias rules:
            Gmail's dots and `+tag` dropped and googlemail.com read as gmail.com, a `+tag` dropped at
            Fastmail and Proton; any other address compared as delivered
        phone (str | Unset): a phone number of 7 to 15 digits, with the separators space ( ) . -,
            read with libphonenumber's rules and compared as E.164: international after + or 00;
            without, in the national format of the tenant's jurisdiction (GB, SE, DE, NL, CA for CA-
            ON), and as international digits in the default one, where a national number (a leading 0)
            is 422 `unreadable_phone`; a number that cannot be read is 422 `unreadable_phone`
        bookmark (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckResult | Error
    """

    return sync_detailed(
        client=client,
        email=email,
        phone=phone,
        bookmark=bookmark,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    email: str | Unset = UNSET,
    phone: str | Unset = UNSET,
    bookmark: str | Unset = UNSET,
) -> Response[CheckResult | Error]:
    """whether an e-mail address or phone is excluded, across operators

     A phone is read in the tenant's jurisdiction and compared as E.164; an e-mail address by its mailbox
    (see `Email`). `422 unreadable_phone` when the phone cannot be read.

    Args:
        email (str | Unset): an e-mail address; compared without case, its domain in IDNA's ASCII
            form (Unicode and punycode alike), and folded by the providers' documented alias rules:
            Gmail's dots and `+tag` dropped and googlemail.com read as gmail.com, a `+tag` dropped at
            Fastmail and Proton; any other address compared as delivered
        phone (str | Unset): a phone number of 7 to 15 digits, with the separators space ( ) . -,
            read with libphonenumber's rules and compared as E.164: international after + or 00;
            without, in the national format of the tenant's jurisdiction (GB, SE, DE, NL, CA for CA-
            ON), and as international digits in the default one, where a national number (a leading 0)
            is 422 `unreadable_phone`; a number that cannot be read is 422 `unreadable_phone`
        bookmark (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckResult | Error]
    """

    kwargs = _get_kwargs(
        email=email,
        phone=phone,
        bookmark=bookmark,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    email: str | Unset = UNSET,
    phone: str | Unset = UNSET,
    bookmark: str | Unset = UNSET,
) -> CheckResult | Error | None:
    """whether an e-mail address or phone is excluded, across operators

     A phone is read in the tenant's jurisdiction and compared as E.164; an e-mail address by its mailbox
    (see `Email`). `422 unreadable_phone` when the phone cannot be read.

    Args:
        email (str | Unset): an e-mail address; compared without case, its domain in IDNA's ASCII
            form (Unicode and punycode alike), and folded by the providers' documented alias rules:
            Gmail's dots and `+tag` dropped and googlemail.com read as gmail.com, a `+tag` dropped at
            Fastmail and Proton; any other address compared as delivered
        phone (str | Unset): a phone number of 7 to 15 digits, with the separators space ( ) . -,
            read with libphonenumber's rules and compared as E.164: international after + or 00;
            without, in the national format of the tenant's jurisdiction (GB, SE, DE, NL, CA for CA-
            ON), and as international digits in the default one, where a national number (a leading 0)
            is 422 `unreadable_phone`; a number that cannot be read is 422 `unreadable_phone`
        bookmark (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckResult | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            email=email,
            phone=phone,
            bookmark=bookmark,
        )
    ).parsed
