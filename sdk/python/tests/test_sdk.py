"""The README's walk-through through the SDK, against the native host on
loopback; webhooks received, verified and refused when tampered with; the
hand-written layer's Idempotency-Key, retries of what the gateway replays
only, typed errors and de-duplication of deliveries."""

from __future__ import annotations

import datetime
import json
import time
import unittest

import standardwebhooks

import compliance_gateway
from compliance_gateway import (
    REPLAYABLE,
    TOLERANCE_SECONDS,
    ApiError,
    Client,
    WebhookDeduplicator,
    WebhookVerificationError,
    is_replayable,
    parse_event,
    verify_webhook,
)
from compliance_gateway.api.admin import create_tenant
from compliance_gateway.api.limits import check_deposit, list_limits, set_limit
from compliance_gateway.api.sanctions import screen_user
from compliance_gateway.api.webhooks import create_webhook, rotate_webhook_secret
from compliance_gateway.models import (
    CheckDepositBody,
    CreateTenantBody,
    CreateWebhookBody,
    Currency,
    Environment,
    LimitCreatedEvent,
    LimitType,
    ScreenUserBody,
    SetLimitBody,
)

from gateway import Gateway, Receiver, Stub

gateway: Gateway


def setUpModule() -> None:
    global gateway
    gateway = Gateway()


def tearDownModule() -> None:
    gateway.stop()


def new_tenant(name: str) -> Client:
    admin = Client(base_url=gateway.base_url, api_key=gateway.admin_key)
    tenant = create_tenant.sync(client=admin, body=CreateTenantBody(name=name, environment=Environment.SANDBOX))
    return Client(base_url=gateway.base_url, api_key=tenant.api_key)


def screen(client: Client, user_id: str) -> None:
    """A limit is set for a user the tenant has screened."""
    screen_user.sync(
        client=client,
        body=ScreenUserBody(
            user_id=user_id, first_name="Ann", last_name="Lee", date_of_birth=datetime.date(1990, 4, 1),
            nationality="GB", email=f"{user_id}@example.com",
        ),
    )


class WalkThrough(unittest.TestCase):
    def test_a_tenant_screens_sets_a_limit_and_checks_a_deposit(self) -> None:
        client = new_tenant("acme")
        screening = screen_user.sync(
            client=client,
            body=ScreenUserBody(
                user_id="u-1", first_name="Ann", last_name="Lee", date_of_birth=datetime.date(1990, 4, 1),
                nationality="GB", email="ann@example.com",
            ),
        )
        self.assertEqual(str(screening.status), "clear")
        self.assertFalse(screening.transactions_held)

        limit = set_limit.sync(
            client=client,
            body=SetLimitBody(
                user_id="u-1", limit_type=LimitType.LIMIT_DAILY, amount_cents=10_000, currency=Currency.USD,
                requested_at=datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0),
            ),
        )
        self.assertEqual(str(limit.status), "active")

        refused = check_deposit.sync(client=client, body=CheckDepositBody(user_id="u-1", amount_cents=15_000, currency=Currency.USD))
        self.assertFalse(refused.allowed)
        self.assertEqual(str(refused.reason), "exceeds_limit")
        # the negative twin: a deposit within the limit is allowed
        allowed = check_deposit.sync(client=client, body=CheckDepositBody(user_id="u-1", amount_cents=5_000, currency=Currency.USD))
        self.assertTrue(allowed.allowed)

    def test_an_error_body_raises_a_typed_error(self) -> None:
        stranger = Client(base_url=gateway.base_url, api_key="acme_sk_test_not_a_key")
        with self.assertRaises(ApiError) as raised:
            list_limits.sync(client=stranger, user_id="u-1")
        self.assertEqual((raised.exception.status, raised.exception.code), (401, "invalid_credentials"))
        self.assertTrue(raised.exception.message)
        self.assertTrue(raised.exception.request_id)
        client = new_tenant("errors")
        with self.assertRaises(ApiError) as raised:
            check_deposit.sync(client=client, body=CheckDepositBody(user_id="u-1", amount_cents=-5, currency=Currency.USD))
        self.assertEqual(raised.exception.status, 400)
        self.assertTrue(raised.exception.code.startswith("invalid_"), raised.exception.code)

    def test_a_repeated_post_with_one_idempotency_key_answers_the_first_answer(self) -> None:
        client = new_tenant("idempotent")
        screen(client, "u-2")
        body = SetLimitBody(
            user_id="u-2", limit_type=LimitType.LIMIT_WEEKLY, amount_cents=20_000, currency=Currency.USD,
            requested_at=datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0),
        )
        first = set_limit.sync_detailed(client=client, body=body, idempotency_key="walk-1")
        again = set_limit.sync_detailed(client=client, body=body, idempotency_key="walk-1")
        self.assertEqual((first.status_code, again.status_code), (201, 200))
        self.assertEqual(first.parsed.limit_id, again.parsed.limit_id)
        # the same key with another body is refused...
        lower = SetLimitBody.from_dict({**body.to_dict(), "amount_cents": 15_000})
        with self.assertRaises(ApiError) as raised:
            set_limit.sync_detailed(client=client, body=lower, idempotency_key="walk-1")
        self.assertEqual((raised.exception.status, raised.exception.code), (409, "idempotency_key_reused"))
        # ...while without a key given, each call gets its own, new one
        other = set_limit.sync_detailed(client=client, body=lower)
        self.assertEqual(other.status_code, 201)
        self.assertNotEqual(other.parsed.limit_id, first.parsed.limit_id)


class Webhooks(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.receiver = Receiver()
        client = new_tenant("hooks")
        registered = create_webhook.sync(client=client, body=CreateWebhookBody(url=cls.receiver.url))
        cls.secret = registered.secret
        screen(client, "u-3")
        set_limit.sync(
            client=client,
            body=SetLimitBody(
                user_id="u-3", limit_type=LimitType.LIMIT_MONTHLY, amount_cents=50_000, currency=Currency.USD,
                requested_at=datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0),
            ),
        )
        cls.headers, cls.body = cls.receiver.wait_for("limit.created")

    @classmethod
    def tearDownClass(cls) -> None:
        cls.receiver.stop()

    def resigned(self, seconds_off: int) -> dict[str, str]:
        """The delivery's headers signed again, correctly, at a timestamp `seconds_off` from now."""
        at = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds_off)
        signature = standardwebhooks.Webhook(self.secret).sign(self.headers["webhook-id"], at, self.body.decode())
        return {**self.headers, "webhook-timestamp": str(int(at.timestamp())), "webhook-signature": signature}

    def test_a_delivery_is_verified_and_typed(self) -> None:
        event = verify_webhook(self.secret, self.headers, self.body)
        self.assertIsInstance(event, dict)
        self.assertEqual(event["event"], "limit.created")
        self.assertEqual(event["data"]["user_id"], "u-3")
        self.assertEqual(event["event_id"], self.headers["webhook-id"])
        typed = parse_event(event)
        self.assertIsInstance(typed, LimitCreatedEvent)
        self.assertEqual(typed.data.amount_cents, 50_000)

    def test_a_wrong_signature_is_refused(self) -> None:
        other_secret = "whsec_" + "A" * 43 + "="
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(other_secret, self.headers, self.body)
        forged = {**self.headers, "webhook-signature": "v1,ZmFrZQ=="}
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.secret, forged, self.body)
        missing = {k: v for k, v in self.headers.items() if k != "webhook-signature"}
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.secret, missing, self.body)

    def test_a_timestamp_more_than_five_minutes_off_is_refused(self) -> None:
        for seconds_off in (-6 * 60, 6 * 60):
            with self.assertRaises(WebhookVerificationError, msg=f"{seconds_off} s off"):
                verify_webhook(self.secret, self.resigned(seconds_off), self.body)
        # the twin: within the tolerance, the same re-signing verifies
        self.assertEqual(verify_webhook(self.secret, self.resigned(-4 * 60), self.body)["event"], "limit.created")

    def test_a_changed_body_is_refused(self) -> None:
        changed = json.loads(self.body)
        changed["data"]["amount_cents"] = 5
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.secret, self.headers, json.dumps(changed).encode())
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.secret, self.headers, self.body + b" ")


class Retries(unittest.TestCase):
    def test_a_post_gets_an_idempotency_key_kept_across_its_retry(self) -> None:
        stub = Stub([(503, {"retry-after": "1"}), (200, {})])
        try:
            client = self.enterContext(Client(base_url=stub.base_url, api_key="k"))
            started = time.monotonic()
            response = client.get_httpx_client().post("/v1/limits/check", json={})
            self.assertEqual(response.status_code, 200)
            self.assertGreaterEqual(time.monotonic() - started, 0.9, "Retry-After was not honoured")
            keys = [headers.get("idempotency-key") for _, headers in stub.requests]
            self.assertEqual(len(keys), 2)
            self.assertTrue(keys[0])
            self.assertEqual(keys[0], keys[1])
            self.assertEqual(stub.requests[0][1]["authorization"], "Bearer k")
        finally:
            stub.stop()

    def test_a_post_the_gateway_does_not_replay_is_sent_once_without_a_key_and_its_503_raised(self) -> None:
        calls = [
            ("/v1/webhooks/wh_1/rotate-secret", lambda client: rotate_webhook_secret.sync("wh_1", client=client)),
            (
                "/v1/admin/tenants",
                lambda client: create_tenant.sync(client=client, body=CreateTenantBody(name="acme", environment=Environment.SANDBOX)),
            ),
        ]
        for path, call in calls:
            with self.subTest(path=path):
                stub = Stub([(503, {"retry-after": "0"}), (200, {})])
                try:
                    with self.assertRaises(ApiError) as raised:
                        call(self.enterContext(Client(base_url=stub.base_url, api_key="k")))
                    self.assertEqual((raised.exception.status, raised.exception.retry_after), (503, 0))
                    self.assertEqual(stub.paths, [path], "retried")
                    self.assertNotIn("idempotency-key", stub.requests[0][1], "a key the gateway ignores")
                finally:
                    stub.stop()

    def test_the_twin_a_post_the_gateway_replays_is_retried_with_the_same_key(self) -> None:
        stub = Stub([(503, {"retry-after": "0"}), (200, {})])
        try:
            client = self.enterContext(Client(base_url=stub.base_url, api_key="k"))
            response = client.get_httpx_client().post("/v1/limits/commit", json={})
            self.assertEqual(response.status_code, 200)
            self.assertEqual(stub.paths, ["/v1/limits/commit", "/v1/limits/commit"])
            keys = [headers.get("idempotency-key") for _, headers in stub.requests]
            self.assertTrue(keys[0])
            self.assertEqual(keys[0], keys[1])
        finally:
            stub.stop()

    def test_below_a_base_url_with_a_path_the_path_is_matched_from_the_apis_root(self) -> None:
        stub = Stub([(503, {"retry-after": "0"}), (200, {}), (503, {"retry-after": "0"}), (200, {})])
        try:
            client = self.enterContext(Client(base_url=f"{stub.base_url}/gateway/", api_key="k")).get_httpx_client()
            self.assertEqual(client.post("/v1/limits/commit", json={}).status_code, 200)
            self.assertEqual(stub.paths, ["/gateway/v1/limits/commit", "/gateway/v1/limits/commit"])
            # the twin: a POST that is not replayed, with a key the call gives, is sent once with it
            with self.assertRaises(ApiError):
                client.post("/v1/webhooks", json={}, headers={"Idempotency-Key": "mine"})
            self.assertEqual(len(stub.requests), 3)
            self.assertEqual(stub.requests[2][1]["idempotency-key"], "mine")
        finally:
            stub.stop()

    def test_the_table_holds_the_operations_the_gateway_replays_and_only_those(self) -> None:
        self.assertIn(("POST", "/v1/limits/commit"), REPLAYABLE)
        self.assertIn(("GET", "/v1/health"), REPLAYABLE)
        self.assertIn(("DELETE", "/v1/webhooks/{webhook_id}"), REPLAYABLE)
        self.assertNotIn(("POST", "/v1/webhooks/{webhook_id}/rotate-secret"), REPLAYABLE)
        self.assertNotIn(("POST", "/v1/admin/tenants"), REPLAYABLE)
        self.assertNotIn(("POST", "/v1/webhooks"), REPLAYABLE)
        # concrete paths resolve to their templates as the gateway's router does
        self.assertTrue(is_replayable("POST", "/v1/limits/commit"))
        self.assertTrue(is_replayable("POST", "/v1/limits/check/"), "one trailing slash is ignored")
        self.assertTrue(is_replayable("DELETE", "/v1/limits/lim_1"))
        self.assertTrue(is_replayable("post", "/v1/webhooks/wh_1/enable"))
        self.assertTrue(is_replayable("POST", "/v1/webhooks/deliveries/d_1/redeliver"))
        self.assertFalse(is_replayable("POST", "/v1/webhooks/wh_1/rotate-secret"))
        self.assertFalse(is_replayable("POST", "/v1/webhooks/wh_1/rotate-secret/x"), "a {param} is one segment")
        self.assertFalse(is_replayable("POST", "/v1/webhooks//enable"), "a {param} is not empty")
        self.assertFalse(is_replayable("POST", "/v1/limits/lim_1"), "the path's template has no POST")
        self.assertFalse(is_replayable("GET", "/v1/no-such-path"), "a path the document does not have")

    def test_a_get_is_retried_after_429(self) -> None:
        stub = Stub([(429, {"retry-after": "0"}), (429, {"retry-after": "0"}), (200, {})])
        try:
            response = self.enterContext(Client(base_url=stub.base_url, api_key="k")).get_httpx_client().get("/v1/health")
            self.assertEqual(response.status_code, 200)
            self.assertEqual(len(stub.requests), 3)
            self.assertNotIn("idempotency-key", stub.requests[0][1], "only a POST carries a key")
        finally:
            stub.stop()

    def test_a_request_that_is_not_idempotent_is_not_retried(self) -> None:
        stub = Stub([(503, {"retry-after": "0"}), (200, {})])
        try:
            with self.assertRaises(ApiError) as raised:
                self.enterContext(Client(base_url=stub.base_url, api_key="k")).get_httpx_client().patch("/v1/anything", json={})
            self.assertEqual((raised.exception.status, raised.exception.code), (503, "rate_limited"))
            self.assertEqual(len(stub.requests), 1)
        finally:
            stub.stop()

    def test_retries_stop_when_the_wait_is_too_long_or_they_run_out(self) -> None:
        stub = Stub([(429, {"retry-after": "3600"}), (200, {})])
        try:
            with self.assertRaises(ApiError) as raised:
                self.enterContext(Client(base_url=stub.base_url, api_key="k", max_retry_wait=5)).get_httpx_client().get("/v1/health")
            self.assertEqual(raised.exception.retry_after, 3600)
            self.assertEqual(len(stub.requests), 1)
        finally:
            stub.stop()
        stub = Stub([(503, {"retry-after": "0"})])
        try:
            with self.assertRaises(ApiError):
                self.enterContext(Client(base_url=stub.base_url, api_key="k", retries=2)).get_httpx_client().get("/v1/health")
            self.assertEqual(len(stub.requests), 3)
        finally:
            stub.stop()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class WebhookDeduplication(unittest.TestCase):
    def test_a_repeated_webhook_id_is_seen_another_is_not(self) -> None:
        deliveries = WebhookDeduplicator()
        self.assertFalse(deliveries.seen("msg_1"))
        self.assertTrue(deliveries.first_time("msg_1"))
        self.assertFalse(deliveries.first_time("msg_1"), "a repeat")
        self.assertTrue(deliveries.seen("msg_1"))
        # the twin: another id is a first time
        self.assertFalse(deliveries.seen("msg_2"), "seen remembers nothing")
        self.assertTrue(deliveries.first_time("msg_2"))
        # a failed handling forgets the id, so its retry is handled
        deliveries.forget("msg_1")
        self.assertTrue(deliveries.first_time("msg_1"))
        with self.assertRaises(TypeError):
            deliveries.first_time(None)  # type: ignore[arg-type]

    def test_an_id_is_forgotten_once_its_window_has_passed_not_before(self) -> None:
        clock = Clock()
        deliveries = WebhookDeduplicator(window_seconds=600, clock=clock)
        deliveries.first_time("msg_1")
        clock.now = 599
        self.assertFalse(deliveries.first_time("msg_1"), "within the window")
        deliveries.first_time("msg_2")
        clock.now = 600
        self.assertEqual(len(deliveries), 1, "msg_1's window has passed, msg_2's has not")
        self.assertTrue(deliveries.seen("msg_2"))
        self.assertTrue(deliveries.first_time("msg_1"))
        with self.assertRaises(ValueError):
            WebhookDeduplicator(window_seconds=TOLERANCE_SECONDS - 1)

    def test_memory_stays_bounded_past_max_ids_the_oldest_are_forgotten_first(self) -> None:
        deliveries = WebhookDeduplicator(max_ids=3, clock=Clock())
        for webhook_id in "abcde":
            self.assertTrue(deliveries.first_time(webhook_id))
        self.assertEqual(len(deliveries), 3)
        self.assertEqual([deliveries.seen(webhook_id) for webhook_id in "abcde"], [False, False, True, True, True])


class Package(unittest.TestCase):
    def test_the_interface(self) -> None:
        self.assertTrue(callable(compliance_gateway.Client))
        self.assertTrue(issubclass(compliance_gateway.WebhookVerificationError, Exception))
        with self.assertRaises(ValueError):
            parse_event({"event": "no.such_event", "data": {}})


if __name__ == "__main__":
    unittest.main()
