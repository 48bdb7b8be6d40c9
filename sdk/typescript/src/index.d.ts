// Types of the hand-written layer (src/index.js); the API's own types are
// generated into src/schema.d.ts from gateway/openapi.json.
import type { Client } from "openapi-fetch";
import type { components, operations, paths, webhooks } from "./schema.js";

export type { components, operations, paths, webhooks };

/** The name of every kind of event, such as "limit.breach_attempt". */
export type EventName = keyof webhooks;

/** The body of a delivery of one kind of event: {event, event_id, timestamp, data}. */
export type EventOf<K extends EventName> = NonNullable<webhooks[K]["post"]>["requestBody"] extends infer B
  ? B extends { content: { "application/json": infer E } }
    ? E
    : never
  : never;

/** Any event: narrow it on `event`. */
export type WebhookEvent = { [K in EventName]: EventOf<K> }[EventName];

/** The API's error body: {error, message, request_id}. */
export type ErrorBody = components["schemas"]["Error"];

export interface ClientOptions {
  /** such as http://127.0.0.1:8080 */
  baseUrl: string;
  /** a tenant's or an admin key */
  apiKey: string;
  /** retries of a 429 or 503 to an operation the gateway replays (isReplayable); default 3 */
  retries?: number;
  /** the longest Retry-After honoured, in seconds; a longer one is not waited for; default 60 */
  maxRetryWait?: number;
  fetch?: (input: Request) => Promise<Response>;
  headers?: Record<string, string>;
}

/**
 * openapi-fetch over the document's paths, with the key, retries and ApiError.
 * A 429 or 503 is retried only for an operation the gateway replays: a GET,
 * HEAD, OPTIONS, PUT or DELETE, or a POST that takes an Idempotency-Key (which
 * it then carries, a fresh UUID unless the call gives one, the same on every
 * retry). Any other POST is never retried and gets no Idempotency-Key.
 */
export declare function createClient(options: ClientOptions): Client<paths>;

/** [METHOD, path template] of every operation the gateway replays (generated from the OpenAPI document). */
export { REPLAYABLE } from "./replayable.js";

/**
 * Whether the gateway replays a request with this method and concrete path
 * (below the base URL, without the query), so that the client retries it.
 */
export declare function isReplayable(method: string, path: string): boolean;

export declare class ApiError extends Error {
  readonly status: number;
  /** the stable error code, such as "invalid_credentials" */
  readonly code: string;
  readonly message: string;
  readonly requestId?: string;
  /** seconds, from Retry-After */
  readonly retryAfter?: number;
}

export declare class WebhookVerificationError extends Error {}

export declare const TOLERANCE_SECONDS: number;

export type HeadersLike = Headers | Map<string, string> | Record<string, string | string[] | undefined>;

/**
 * Verifies one delivery and returns its event, or throws WebhookVerificationError.
 * The same event may be delivered more than once, with the same webhook-id
 * (its `event_id`): receivers must deduplicate by it (WebhookDeduplicator).
 */
export declare function verifyWebhook(secret: string, headers: HeadersLike, body: string | Uint8Array): WebhookEvent;

/** How long a WebhookDeduplicator remembers an id by default, in seconds: longer than the gateway's retries of one event. */
export declare const DEDUPLICATION_WINDOW_SECONDS: number;

export interface WebhookDeduplicatorOptions {
  /** how long an id is remembered after it was first seen; at least TOLERANCE_SECONDS; default DEDUPLICATION_WINDOW_SECONDS */
  windowSeconds?: number;
  /** the most ids kept; past it the oldest are forgotten first; default 100 000 */
  maxIds?: number;
  /** the clock, in milliseconds; default performance.now */
  now?: () => number;
}

/**
 * The webhook-ids seen within a window, in this process's memory, bounded.
 * In production with several receivers (or restarts), use a shared store.
 */
export declare class WebhookDeduplicator {
  constructor(options?: WebhookDeduplicatorOptions);
  /** true the first time `id` is seen within the window, and remembers it; false for a repeat */
  firstTime(id: string): boolean;
  /** whether `id` was seen within the window; remembers nothing */
  seen(id: string): boolean;
  /** forgets `id`, so that its next delivery is handled (when handling it failed) */
  forget(id: string): void;
  /** how many ids are remembered */
  readonly size: number;
}
