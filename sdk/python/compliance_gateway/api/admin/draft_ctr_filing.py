from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.draft_ctr_filing_body import DraftCtrFilingBody
from ...models.error import Error
from ...models.filing_draft import FilingDraft
from ...types import UNSET, Response, Unset


def _get_kwargs(
    alert_id: str,
    *,
    body: DraftCtrFilingBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/aml/ctr-candidates/{alert_id}/filings".format(
            alert_id=quote(str(alert_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | FilingDraft | None:
    if response.status_code == 200:
        response_200 = FilingDraft.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = FilingDraft.from_dict(response.json())

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
) -> Response[Error | FilingDraft]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    alert_id: str,
    *,
    client: AuthenticatedClient,
    body: DraftCtrFilingBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | FilingDraft]:
    """draft a FinCEN CTR for a CTR candidate's gaming day, with its validation report

    Args:
        alert_id (str):
        idempotency_key (str | Unset):
        body (DraftCtrFilingBody): The body of a filing request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FilingDraft]
    """

    kwargs = _get_kwargs(
        alert_id=alert_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    alert_id: str,
    *,
    client: AuthenticatedClient,
    body: DraftCtrFilingBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | FilingDraft | None:
    """draft a FinCEN CTR for a CTR candidate's gaming day, with its validation report

    Args:
        alert_id (str):
        idempotency_key (str | Unset):
        body (DraftCtrFilingBody): The body of a filing request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FilingDraft
    """

    return sync_detailed(
        alert_id=alert_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    alert_id: str,
    *,
    client: AuthenticatedClient,
    body: DraftCtrFilingBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | FilingDraft]:
    """draft a FinCEN CTR for a CTR candidate's gaming day, with its validation report

    Args:
        alert_id (str):
        idempotency_key (str | Unset):
        body (DraftCtrFilingBody): The body of a filing request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FilingDraft]
    """

    kwargs = _get_kwargs(
        alert_id=alert_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    alert_id: str,
    *,
    client: AuthenticatedClient,
    body: DraftCtrFilingBody,
    idempotency_key: str | Unset = UNSET,
) -> Error | FilingDraft | None:
    """draft a FinCEN CTR for a CTR candidate's gaming day, with its validation report

    Args:
        alert_id (str):
        idempotency_key (str | Unset):
        body (DraftCtrFilingBody): The body of a filing request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FilingDraft
    """

    return (
        await asyncio_detailed(
            alert_id=alert_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
