// The README's walk-through through the SDK, against the native host on
// loopback; webhooks received, verified and refused when tampered with; the
// hand-written layer's Idempotency-Key, retries of what the gateway replays
// only, typed errors and de-duplication of deliveries.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Webhook } from "standardwebhooks";

import {
  ApiError,
  createClient,
  isReplayable,
  REPLAYABLE,
  TOLERANCE_SECONDS,
  verifyWebhook,
  WebhookDeduplicator,
  WebhookVerificationError,
} from "@compliance-gateway/sdk";
import { startGateway, startReceiver, startStub } from "./gateway.js";

let gateway;
before(async () => {
  gateway = await startGateway();
});
after(async () => {
  await gateway?.stop();
});

async function newTenant(name) {
  const admin = createClient({ baseUrl: gateway.baseUrl, apiKey: gateway.adminKey });
  const { data } = await admin.POST("/v1/admin/tenants", { body: { name, environment: "sandbox" } });
  return createClient({ baseUrl: gateway.baseUrl, apiKey: data.api_key });
}

async function screen(client, userId) {
  const { data } = await client.POST("/v1/sanctions/screen", {
    body: { user_id: userId, first_name: "Ann", last_name: "Lee", date_of_birth: "1990-04-01", nationality: "GB", email: `${userId}@example.com` },
  });
  return data;
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");

describe("walk-through", () => {
  test("a tenant screens, sets a limit and checks a deposit", async () => {
    const client = await newTenant("acme");
    const screening = await screen(client, "u-1");
    assert.equal(screening.status, "clear");
    assert.equal(screening.transactions_held, false);
    const { data: limit } = await client.POST("/v1/limits", {
      body: { user_id: "u-1", limit_type: "limit_daily", amount_cents: 10_000, currency: "USD", requested_at: now() },
    });
    assert.equal(limit.status, "active");
    const { data: refused } = await client.POST("/v1/limits/check", { body: { user_id: "u-1", amount_cents: 15_000, currency: "USD" } });
    assert.equal(refused.allowed, false);
    assert.equal(refused.reason, "exceeds_limit");
    // the negative twin: a deposit within the limit is allowed
    const { data: allowed } = await client.POST("/v1/limits/check", { body: { user_id: "u-1", amount_cents: 5_000, currency: "USD" } });
    assert.equal(allowed.allowed, true);
  });

  test("an error body throws a typed error", async () => {
    const stranger = createClient({ baseUrl: gateway.baseUrl, apiKey: "acme_sk_test_not_a_key" });
    await assert.rejects(stranger.GET("/v1/limits", { params: { query: { user_id: "u-1" } } }), (e) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 401);
      assert.equal(e.code, "invalid_credentials");
      assert.ok(e.message && e.requestId);
      return true;
    });
    const client = await newTenant("errors");
    await assert.rejects(client.POST("/v1/limits/check", { body: { user_id: "u-1", amount_cents: -5, currency: "USD" } }), (e) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 400);
      assert.match(e.code, /^invalid_/);
      return true;
    });
  });

  test("a repeated POST with one Idempotency-Key answers the first answer", async () => {
    const client = await newTenant("idempotent");
    await screen(client, "u-2");
    const body = { user_id: "u-2", limit_type: "limit_weekly", amount_cents: 20_000, currency: "USD", requested_at: now() };
    const key = { "Idempotency-Key": "walk-1" };
    const first = await client.POST("/v1/limits", { body, headers: key });
    const again = await client.POST("/v1/limits", { body, headers: key });
    assert.deepEqual([first.response.status, again.response.status], [201, 200]);
    assert.equal(first.data.limit_id, again.data.limit_id);
    const lower = { ...body, amount_cents: 15_000 };
    await assert.rejects(client.POST("/v1/limits", { body: lower, headers: key }), (e) => e instanceof ApiError && e.status === 409 && e.code === "idempotency_key_reused");
    // without a key given, each call gets its own, new one
    const other = await client.POST("/v1/limits", { body: lower });
    assert.equal(other.response.status, 201);
    assert.notEqual(other.data.limit_id, first.data.limit_id);
  });
});

describe("webhooks", () => {
  let receiver, secret, delivery;
  before(async () => {
    receiver = await startReceiver();
    const client = await newTenant("hooks");
    const { data } = await client.POST("/v1/webhooks", { body: { url: receiver.url } });
    secret = data.secret;
    await screen(client, "u-3");
    await client.POST("/v1/limits", { body: { user_id: "u-3", limit_type: "limit_monthly", amount_cents: 50_000, currency: "USD", requested_at: now() } });
    delivery = await receiver.waitFor("limit.created");
  });
  after(async () => {
    await receiver?.stop();
  });

  /** The delivery's headers signed again, correctly, at a timestamp `secondsOff` from now. */
  function resigned(secondsOff) {
    const at = new Date(Date.now() + secondsOff * 1000);
    const signature = new Webhook(secret).sign(delivery.headers["webhook-id"], at, delivery.body.toString());
    return { ...delivery.headers, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
  }

  test("a delivery is verified and typed", () => {
    const event = verifyWebhook(secret, delivery.headers, delivery.body);
    assert.equal(event.event, "limit.created");
    assert.equal(event.data.user_id, "u-3");
    assert.equal(event.data.amount_cents, 50_000);
    assert.equal(event.event_id, delivery.headers["webhook-id"]);
    // a fetch Headers object and a string body do as well
    assert.equal(verifyWebhook(secret, new Headers(delivery.headers), delivery.body.toString()).event, "limit.created");
  });

  test("a wrong signature is refused", () => {
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    assert.throws(() => verifyWebhook(otherSecret, delivery.headers, delivery.body), WebhookVerificationError);
    assert.throws(() => verifyWebhook(secret, { ...delivery.headers, "webhook-signature": "v1,ZmFrZQ==" }, delivery.body), WebhookVerificationError);
    const { "webhook-signature": _, ...unsigned } = delivery.headers;
    assert.throws(() => verifyWebhook(secret, unsigned, delivery.body), WebhookVerificationError);
  });

  test("a timestamp more than five minutes off is refused", () => {
    for (const secondsOff of [-6 * 60, 6 * 60]) {
      assert.throws(() => verifyWebhook(secret, resigned(secondsOff), delivery.body), WebhookVerificationError, `${secondsOff} s off`);
    }
    // the twin: within the tolerance, the same re-signing verifies
    assert.equal(verifyWebhook(secret, resigned(-4 * 60), delivery.body).event, "limit.created");
  });

  test("a changed body is refused", () => {
    const changed = JSON.parse(delivery.body);
    changed.data.amount_cents = 5;
    assert.throws(() => verifyWebhook(secret, delivery.headers, JSON.stringify(changed)), WebhookVerificationError);
    assert.throws(() => verifyWebhook(secret, delivery.headers, `${delivery.body} `), WebhookVerificationError);
  });
});

describe("retries", () => {
  test("a POST gets an Idempotency-Key, kept across its retry after Retry-After", async () => {
    const stub = await startStub([[503, { "retry-after": "1" }], [200, {}]]);
    try {
      const started = Date.now();
      const { response } = await createClient({ baseUrl: stub.baseUrl, apiKey: "k" }).POST("/v1/limits/check", { body: {} });
      assert.equal(response.status, 200);
      assert.ok(Date.now() - started >= 900, "Retry-After was not honoured");
      const keys = stub.requests.map((r) => r.headers["idempotency-key"]);
      assert.equal(keys.length, 2);
      assert.ok(keys[0]);
      assert.equal(keys[0], keys[1]);
      assert.equal(stub.requests[0].headers.authorization, "Bearer k");
    } finally {
      await stub.stop();
    }
  });

  test("a POST the gateway does not replay is sent once, without a key, and its 503 thrown at once", async () => {
    const calls = [
      ["/v1/webhooks/wh_1/rotate-secret", (client) => client.POST("/v1/webhooks/{webhook_id}/rotate-secret", { params: { path: { webhook_id: "wh_1" } } })],
      ["/v1/admin/tenants", (client) => client.POST("/v1/admin/tenants", { body: { name: "acme", environment: "sandbox" } })],
    ];
    for (const [path, call] of calls) {
      const stub = await startStub([[503, { "retry-after": "0" }], [200, {}]]);
      try {
        await assert.rejects(call(createClient({ baseUrl: stub.baseUrl, apiKey: "k" })), (e) => e instanceof ApiError && e.status === 503 && e.retryAfter === 0, path);
        assert.equal(stub.requests.length, 1, `${path} was retried`);
        assert.equal(stub.requests[0].url, path);
        assert.equal(stub.requests[0].headers["idempotency-key"], undefined, `${path} got a key the gateway ignores`);
      } finally {
        await stub.stop();
      }
    }
  });

  test("the twin: a POST the gateway replays is retried with the same key", async () => {
    const stub = await startStub([[503, { "retry-after": "0" }], [200, {}]]);
    try {
      const { response } = await createClient({ baseUrl: stub.baseUrl, apiKey: "k" }).POST("/v1/limits/commit", {
        body: { user_id: "u-1", amount_cents: 500, currency: "USD", transaction_id: "tx-1" },
      });
      assert.equal(response.status, 200);
      assert.deepEqual(stub.requests.map((r) => r.url), ["/v1/limits/commit", "/v1/limits/commit"]);
      const keys = stub.requests.map((r) => r.headers["idempotency-key"]);
      assert.ok(keys[0]);
      assert.equal(keys[0], keys[1]);
    } finally {
      await stub.stop();
    }
  });

  test("below a base URL with a path, the path is matched from the API's root", async () => {
    const stub = await startStub([[503, { "retry-after": "0" }], [200, {}], [503, { "retry-after": "0" }], [200, {}]]);
    try {
      const client = createClient({ baseUrl: `${stub.baseUrl}/gateway/`, apiKey: "k" });
      await client.POST("/v1/limits/commit", { body: { user_id: "u-1", amount_cents: 500, currency: "USD", transaction_id: "tx-1" } });
      assert.deepEqual(stub.requests.map((r) => r.url), ["/gateway/v1/limits/commit", "/gateway/v1/limits/commit"]);
      // the twin: a POST that is not replayed, with a key the call gives, is sent once with it
      await assert.rejects(
        client.POST("/v1/webhooks", { body: { url: "https://example.com/hooks" }, headers: { "Idempotency-Key": "mine" } }),
        (e) => e instanceof ApiError && e.status === 503,
      );
      assert.equal(stub.requests.length, 3);
      assert.equal(stub.requests[2].headers["idempotency-key"], "mine");
    } finally {
      await stub.stop();
    }
  });

  test("the table holds the operations the gateway replays, and only those", () => {
    const has = (method, path) => REPLAYABLE.some(([m, p]) => m === method && p === path);
    assert.ok(has("POST", "/v1/limits/commit"));
    assert.ok(has("GET", "/v1/health"));
    assert.ok(has("DELETE", "/v1/webhooks/{webhook_id}"));
    assert.ok(!has("POST", "/v1/webhooks/{webhook_id}/rotate-secret"));
    assert.ok(!has("POST", "/v1/admin/tenants"));
    assert.ok(!has("POST", "/v1/webhooks"));
    // concrete paths resolve to their templates as the gateway's router does
    assert.equal(isReplayable("POST", "/v1/limits/commit"), true);
    assert.equal(isReplayable("POST", "/v1/limits/check/"), true, "one trailing slash is ignored");
    assert.equal(isReplayable("DELETE", "/v1/limits/lim_1"), true);
    assert.equal(isReplayable("post", "/v1/webhooks/wh_1/enable"), true);
    assert.equal(isReplayable("POST", "/v1/webhooks/deliveries/d_1/redeliver"), true);
    assert.equal(isReplayable("POST", "/v1/webhooks/wh_1/rotate-secret"), false);
    assert.equal(isReplayable("POST", "/v1/webhooks/wh_1/rotate-secret/x"), false, "a {param} is one segment");
    assert.equal(isReplayable("POST", "/v1/webhooks//enable"), false, "a {param} is not empty");
    assert.equal(isReplayable("POST", "/v1/limits/lim_1"), false, "the path's template has no POST");
    assert.equal(isReplayable("GET", "/v1/no-such-path"), false, "a path the document does not have");
  });

  test("a GET is retried after 429", async () => {
    const stub = await startStub([[429, { "retry-after": "0" }], [429, { "retry-after": "0" }], [200, {}]]);
    try {
      const { response } = await createClient({ baseUrl: stub.baseUrl, apiKey: "k" }).GET("/v1/health");
      assert.equal(response.status, 200);
      assert.equal(stub.requests.length, 3);
      assert.equal(stub.requests[0].headers["idempotency-key"], undefined, "only a POST carries a key");
    } finally {
      await stub.stop();
    }
  });

  test("a request that is not idempotent is not retried", async () => {
    const stub = await startStub([[503, { "retry-after": "0" }], [200, {}]]);
    try {
      const client = createClient({ baseUrl: stub.baseUrl, apiKey: "k" });
      await assert.rejects(client.request("patch", "/v1/anything", {}), (e) => e instanceof ApiError && e.status === 503);
      assert.equal(stub.requests.length, 1);
    } finally {
      await stub.stop();
    }
  });

  test("retries stop when the wait is too long or they run out", async () => {
    let stub = await startStub([[429, { "retry-after": "3600" }], [200, {}]]);
    try {
      await assert.rejects(createClient({ baseUrl: stub.baseUrl, apiKey: "k", maxRetryWait: 5 }).GET("/v1/health"), (e) => e instanceof ApiError && e.retryAfter === 3600);
      assert.equal(stub.requests.length, 1);
    } finally {
      await stub.stop();
    }
    stub = await startStub([[503, { "retry-after": "0" }]]);
    try {
      await assert.rejects(createClient({ baseUrl: stub.baseUrl, apiKey: "k", retries: 2 }).GET("/v1/health"), ApiError);
      assert.equal(stub.requests.length, 3);
    } finally {
      await stub.stop();
    }
  });
});

describe("webhook de-duplication", () => {
  function clock() {
    const c = { ms: 0, now: () => c.ms };
    return c;
  }

  test("a repeated webhook-id is seen; another is not", () => {
    const deliveries = new WebhookDeduplicator();
    assert.equal(deliveries.seen("msg_1"), false);
    assert.equal(deliveries.firstTime("msg_1"), true);
    assert.equal(deliveries.firstTime("msg_1"), false, "a repeat");
    assert.equal(deliveries.seen("msg_1"), true);
    // the twin: another id is a first time
    assert.equal(deliveries.seen("msg_2"), false, "seen remembers nothing");
    assert.equal(deliveries.firstTime("msg_2"), true);
    // a failed handling forgets the id, so its retry is handled
    deliveries.forget("msg_1");
    assert.equal(deliveries.firstTime("msg_1"), true);
    assert.throws(() => deliveries.firstTime(undefined), TypeError);
  });

  test("an id is forgotten once its window has passed, not before", () => {
    const c = clock();
    const deliveries = new WebhookDeduplicator({ windowSeconds: 600, now: c.now });
    deliveries.firstTime("msg_1");
    c.ms = 599_000;
    assert.equal(deliveries.firstTime("msg_1"), false, "within the window");
    deliveries.firstTime("msg_2");
    c.ms = 600_000;
    assert.equal(deliveries.size, 1, "msg_1's window has passed, msg_2's has not");
    assert.equal(deliveries.seen("msg_2"), true);
    assert.equal(deliveries.firstTime("msg_1"), true);
    assert.throws(() => new WebhookDeduplicator({ windowSeconds: TOLERANCE_SECONDS - 1 }), RangeError);
  });

  test("memory stays bounded: past maxIds the oldest are forgotten first", () => {
    const deliveries = new WebhookDeduplicator({ maxIds: 3, now: clock().now });
    for (const id of ["a", "b", "c", "d", "e"]) assert.equal(deliveries.firstTime(id), true);
    assert.equal(deliveries.size, 3);
    assert.deepEqual(["a", "b", "c", "d", "e"].map((id) => deliveries.seen(id)), [false, false, true, true, true]);
  });
});
