// The hand-written layer over openapi-fetch and the generated types
// (src/schema.d.ts, from gateway/openapi.json by scripts/sdk.sh generate):
// a client made from a base URL and a key; retries of 429 and 503 honouring
// Retry-After for the operations the gateway replays only (src/replayable.js,
// generated too: GET, HEAD, OPTIONS, PUT, DELETE, and each POST that takes an
// Idempotency-Key, which such a POST always carries); the error body thrown as
// ApiError; Standard Webhooks verification, and de-duplication of deliveries
// by webhook-id.
import createFetchClient from "openapi-fetch";
import { Webhook, WebhookVerificationError as LibraryVerificationError } from "standardwebhooks";

import { PATHS, REPLAYABLE } from "./replayable.js";

export { REPLAYABLE };

/** How far a delivery's webhook-timestamp may be from now (the library's own bound). */
export const TOLERANCE_SECONDS = 5 * 60;

/**
 * How long a WebhookDeduplicator remembers an id unless told otherwise: longer
 * than the gateway goes on retrying one event (about three and a half days).
 */
export const DEDUPLICATION_WINDOW_SECONDS = 4 * 24 * 60 * 60;

const RETRIED_STATUSES = new Set([429, 503]);
// requests that may be sent twice without doing twice what they ask, by their method alone
// (scripts/sdk-replayable.py lists their operations in REPLAYABLE with the POSTs that take a key)
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const REPLAYABLE_OPERATIONS = new Set(REPLAYABLE.map(([method, path]) => `${method} ${path}`));
const TEMPLATES = PATHS.map((path) => ({ path, segments: path.split("/").slice(1) }));

/**
 * The document's templates a concrete path resolves to, as the gateway's
 * router resolves it: the matching template with the most fixed segments
 * (`/v1/limits/check` over `/v1/limits/{limit_id}`), a `{param}` matching one
 * non-empty segment, one trailing slash ignored. More than one on a tie, none
 * for a path the document does not have.
 */
function templatesOf(path) {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  if (!trimmed.startsWith("/")) return [];
  const segments = trimmed.split("/").slice(1);
  if (segments.some((s) => s === "")) return [];
  let best = [];
  let bestFixed = -1;
  for (const template of TEMPLATES) {
    if (template.segments.length !== segments.length) continue;
    let fixed = 0;
    let matches = true;
    for (const [i, t] of template.segments.entries()) {
      if (t.startsWith("{")) continue;
      fixed++;
      if (t !== segments[i]) matches = false;
    }
    if (!matches || fixed < bestFixed) continue;
    if (fixed > bestFixed) best = [];
    bestFixed = fixed;
    best.push(template.path);
  }
  return best;
}

/**
 * Whether the gateway replays this request, so that it may be sent again: its
 * method and concrete path (such as "/v1/webhooks/wh_1/rotate-secret", below
 * the base URL, without the query) resolve to an operation of REPLAYABLE.
 * A path the document does not have is not replayable.
 */
export function isReplayable(method, path) {
  const templates = templatesOf(path);
  const upper = String(method).toUpperCase();
  return templates.length > 0 && templates.every((template) => REPLAYABLE_OPERATIONS.has(`${upper} ${template}`));
}

/** The API's error body ({error, message, request_id}) as an exception: `code` is the stable `error` code. */
export class ApiError extends Error {
  constructor(status, code, message, requestId, retryAfter) {
    super(`${status} ${code}: ${message}`);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.message = message;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

/** The delivery is not one the gateway signed with this secret. */
export class WebhookVerificationError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "WebhookVerificationError";
  }
}

/** Retry-After in seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterSeconds(response) {
  const value = response.headers.get("retry-after");
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const when = Date.parse(trimmed);
  return Number.isNaN(when) ? undefined : Math.max(0, (when - Date.now()) / 1000);
}

async function apiErrorOf(response) {
  const retryAfter = retryAfterSeconds(response);
  const text = await response.clone().text();
  try {
    const body = JSON.parse(text);
    if (body && typeof body.error === "string") {
      return new ApiError(response.status, body.error, String(body.message ?? ""), body.request_id, retryAfter);
    }
  } catch {
    // not the API's error body (a proxy's page, say): still an ApiError, never a bare HTTP error
  }
  const requestId = response.headers.get("x-request-id") ?? undefined;
  return new ApiError(response.status, `http_${response.status}`, text.slice(0, 200) || response.statusText, requestId, retryAfter);
}

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** The path of a base URL, without its trailing slashes: "" for none. */
function basePathOf(baseUrl) {
  try {
    return new URL(baseUrl).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

/**
 * A client of the Compliance Gateway: openapi-fetch over the document's paths
 * (`client.GET("/v1/limits", { params: { query: { user_id } } })`).
 *
 * A 429 or 503 answer is retried, up to `retries` times after the Retry-After
 * it gives (at most `maxRetryWait` seconds), only for an operation the gateway
 * replays (isReplayable, REPLAYABLE): a GET, HEAD, OPTIONS, PUT or DELETE, or a
 * POST whose operation takes an Idempotency-Key. Such a POST carries one (a
 * fresh UUID unless the call gives one in `headers`), the same on every retry,
 * so a repeat answers the first answer. Any other POST (createWebhook,
 * rotateWebhookSecret, createTenant, createKey, ...) is done again when
 * repeated: it is never retried, its 429 or 503 throws at once (with
 * `retryAfter`), and it gets no Idempotency-Key, since the gateway ignores one
 * there (a key the call gives is sent as given, and protects nothing). An
 * answer with the error body throws ApiError.
 */
export function createClient({ baseUrl, apiKey, retries = 3, maxRetryWait = 60, fetch: baseFetch = globalThis.fetch, headers = {} } = {}) {
  if (!baseUrl) throw new TypeError("baseUrl is required");
  if (!apiKey) throw new TypeError("apiKey is required");
  const basePath = basePathOf(baseUrl);
  const retryingFetch = async (request) => {
    let path = new URL(request.url).pathname;
    if (basePath && path.startsWith(`${basePath}/`)) path = path.slice(basePath.length);
    const retryable = isReplayable(request.method, path);
    // A replayable POST is one that takes an Idempotency-Key: with it, a repeat answers the first answer.
    if (retryable && !IDEMPOTENT_METHODS.has(request.method) && !request.headers.has("idempotency-key")) {
      request.headers.set("Idempotency-Key", crypto.randomUUID());
    }
    for (let attempt = 0; ; attempt++) {
      const response = await baseFetch(request.clone());
      if (!retryable || !RETRIED_STATUSES.has(response.status) || attempt >= retries) return response;
      const wait = retryAfterSeconds(response) ?? Math.min(0.5 * 2 ** attempt, maxRetryWait);
      if (wait > maxRetryWait) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
  const client = createFetchClient({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    fetch: retryingFetch,
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
  });
  client.use({
    async onResponse({ response }) {
      if (response.status >= 400) throw await apiErrorOf(response);
      return undefined;
    },
  });
  return client;
}

/** Header names in lower case, from a Headers, a Map, or an object such as Node's IncomingHttpHeaders. */
function plainHeaders(headers) {
  const entries = typeof headers?.entries === "function" && !Array.isArray(headers) ? [...headers.entries()] : Object.entries(headers ?? {});
  const plain = {};
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    plain[String(name).toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return plain;
}

/**
 * Verifies one delivery (Standard Webhooks: webhook-id, webhook-timestamp,
 * webhook-signature under the endpoint's whsec_ secret, 5 minutes' tolerance)
 * and returns its event ({event, event_id, timestamp, data}); throws
 * WebhookVerificationError otherwise. Pass the body exactly as received.
 *
 * Delivery is at least once: the same event may come again (a retry after a
 * failed or slow answer, for about three and a half days, or a redelivery),
 * with the same webhook-id (its event_id) and a fresh timestamp and signature,
 * so it verifies again. Receivers must deduplicate by webhook-id
 * (WebhookDeduplicator, or a shared store).
 */
export function verifyWebhook(secret, headers, body) {
  let event;
  try {
    const payload = typeof body === "string" ? body : Buffer.from(body);
    event = new Webhook(secret).verify(payload, plainHeaders(headers));
  } catch (e) {
    if (e instanceof LibraryVerificationError) throw new WebhookVerificationError(e.message, { cause: e });
    throw new WebhookVerificationError(`the delivery cannot be verified: ${e?.message ?? e}`, { cause: e });
  }
  if (!event || typeof event !== "object" || typeof event.event !== "string" || !("data" in event)) {
    throw new WebhookVerificationError("the body is not an event");
  }
  return event;
}

/**
 * Deduplicates deliveries by their webhook-id (the event's `event_id`, the
 * same on every retry and redelivery of one event), in this process's memory:
 *
 *     const deliveries = new WebhookDeduplicator();
 *     const event = verifyWebhook(secret, headers, body);
 *     if (!deliveries.firstTime(event.event_id)) return 200; // handled already: acknowledge again
 *     try { handle(event); } catch (e) { deliveries.forget(event.event_id); return 500; } // so the retry is handled
 *     return 200;
 *
 * An id is remembered for `windowSeconds` after it was first seen (default
 * DEDUPLICATION_WINDOW_SECONDS, longer than the gateway's retries of one
 * event; at least TOLERANCE_SECONDS, within which a captured delivery still
 * verifies), and at most `maxIds` ids are kept: past that the oldest are
 * forgotten first, so memory stays bounded and a very old id may be handled
 * again. It holds one process's ids and loses them on restart: in production,
 * with several receivers or restarts, record ids in a shared store (a unique
 * key in the database the handling writes to, in the same transaction; or
 * Redis SET NX with an expiry) instead.
 */
export class WebhookDeduplicator {
  /** id → when it is forgotten (ms of `now`), oldest first */
  #ids = new Map();
  #windowMs;
  #maxIds;
  #now;

  constructor({ windowSeconds = DEDUPLICATION_WINDOW_SECONDS, maxIds = 100_000, now = () => performance.now() } = {}) {
    if (!(windowSeconds >= TOLERANCE_SECONDS)) throw new RangeError(`windowSeconds must be at least TOLERANCE_SECONDS (${TOLERANCE_SECONDS})`);
    if (!(Number.isInteger(maxIds) && maxIds > 0)) throw new RangeError("maxIds must be a positive integer");
    this.#windowMs = windowSeconds * 1000;
    this.#maxIds = maxIds;
    this.#now = now;
  }

  /** Forgets the ids whose window has passed; returns now. */
  #expire() {
    const now = this.#now();
    for (const [id, until] of this.#ids) {
      if (until > now) break;
      this.#ids.delete(id);
    }
    return now;
  }

  /** True the first time `id` is seen within the window, and remembers it; false for a repeat. */
  firstTime(id) {
    if (typeof id !== "string" || id === "") throw new TypeError("a webhook-id is a non-empty string");
    const now = this.#expire();
    if (this.#ids.has(id)) return false;
    this.#ids.set(id, now + this.#windowMs);
    if (this.#ids.size > this.#maxIds) this.#ids.delete(this.#ids.keys().next().value);
    return true;
  }

  /** Whether `id` was seen within the window; remembers nothing. */
  seen(id) {
    this.#expire();
    return this.#ids.has(id);
  }

  /** Forgets `id`, so that its next delivery is handled: when handling it failed. */
  forget(id) {
    this.#ids.delete(id);
  }

  /** How many ids are remembered. */
  get size() {
    this.#expire();
    return this.#ids.size;
  }
}
