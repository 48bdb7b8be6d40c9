// Type-checked by `tsc --noEmit` (scripts/sdk.sh test): the generated types
// and the hand-written declarations fit together as the README uses them.
import { createClient, DEDUPLICATION_WINDOW_SECONDS, isReplayable, REPLAYABLE, verifyWebhook, WebhookDeduplicator, type WebhookEvent } from "../src/index.js";

export async function walkThrough(baseUrl: string, apiKey: string): Promise<boolean> {
  const client = createClient({ baseUrl, apiKey });
  const { data } = await client.POST("/v1/limits/check", { body: { user_id: "u-1", amount_cents: 15000, currency: "USD" } });
  return data?.allowed ?? false;
}

export function onDelivery(secret: string, headers: Headers, body: string): string | undefined {
  const event: WebhookEvent = verifyWebhook(secret, headers, body);
  if (event.event === "limit.breach_attempt") {
    const limit: number = event.data.limit_amount_cents;
    return `${event.data.user_id} tried past ${limit}`;
  }
  return undefined;
}

export function commitIsRetried(): boolean {
  return isReplayable("POST", "/v1/limits/commit") && REPLAYABLE.some(([method, path]) => method === "POST" && path === "/v1/limits/commit");
}

const deliveries = new WebhookDeduplicator({ windowSeconds: DEDUPLICATION_WINDOW_SECONDS, maxIds: 1000 });

export function firstDelivery(event: WebhookEvent): boolean {
  const known: boolean = deliveries.seen(event.event_id);
  return !known && deliveries.firstTime(event.event_id);
}
