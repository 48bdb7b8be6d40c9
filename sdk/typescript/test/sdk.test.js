// The README's walk-through through the SDK, against the native host on
// loopback; webhooks received, verified and refused when tampered with; the
// hand-written layer's Idempotency-Key, retries and typed errors.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Webhook } from "standardwebhooks";

import { ApiError, createClient, verifyWebhook, WebhookVerificationError } from "@compliance-gateway/sdk";
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
