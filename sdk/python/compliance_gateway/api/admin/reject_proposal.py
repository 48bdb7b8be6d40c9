from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.case_action import CaseAction
from ...models.error import Error
from ...models.reject_proposal_body import RejectProposalBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    case_id: str,
    *,
    body: RejectProposalBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/cases/{case_id}/proposal/reject".format(
            case_id=quote(str(case_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CaseAction | Error | None:
    if response.status_code == 200:
        response_200 = CaseAction.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

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
) -> Response[CaseAction | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    case_id: str,
    *,
    client: AuthenticatedClient,
    body: RejectProposalBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[CaseAction | Error]:
    """reject the pending proposal; the case stays open

     The body names the proposal the person read: if another one is pending, or none, the answer is 409
    `stale_proposal`.

    Args:
        case_id (str):
        idempotency_key (str | Unset):
        body (RejectProposalBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CaseAction | Error]
    """

    kwargs = _get_kwargs(
        case_id=case_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    case_id: str,
    *,
    client: AuthenticatedClient,
    body: RejectProposalBody,
    idempotency_key: str | Unset = UNSET,
) -> CaseAction | Error | None:
    """reject the pending proposal; the case stays open

     The body names the proposal the person read: if another one is pending, or none, the answer is 409
    `stale_proposal`.

    Args:
        case_id (str):
        idempotency_key (str | Unset):
        body (RejectProposalBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CaseAction | Error
    """

    return sync_detailed(
        case_id=case_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    case_id: str,
    *,
    client: AuthenticatedClient,
    body: RejectProposalBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[CaseAction | Error]:
    """reject the pending proposal; the case stays open

     The body names the proposal the person read: if another one is pending, or none, the answer is 409
    `stale_proposal`.

    Args:
        case_id (str):
        idempotency_key (str | Unset):
        body (RejectProposalBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CaseAction | Error]
    """

    kwargs = _get_kwargs(
        case_id=case_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    case_id: str,
    *,
    client: AuthenticatedClient,
    body: RejectProposalBody,
    idempotency_key: str | Unset = UNSET,
) -> CaseAction | Error | None:
    """reject the pending proposal; the case stays open

     The body names the proposal the person read: if another one is pending, or none, the answer is 409
    `stale_proposal`.

    Args:
        case_id (str):
        idempotency_key (str | Unset):
        body (RejectProposalBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CaseAction | Error
    """

    return (
        await asyncio_detailed(
            case_id=case_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
