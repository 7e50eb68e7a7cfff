import type { WebhookConfig } from '../config.js';

export interface DeliveryResult {
  ok: boolean;
  status?: number;
  error?: string;
  attempts: number;
}

const TIMEOUT_MS = 10_000;
const RETRY_DELAYS_MS = [500, 2000];

/**
 * POSTs one webhook payload with Strapi's headers (`X-Strapi-Event`), a 10 s timeout, and two retries
 * with backoff on network errors and 5xx answers. Never throws.
 */
export async function deliver(
  hook: WebhookConfig,
  event: string,
  payload: unknown,
  opts: { retryDelays?: number[] } = {},
): Promise<DeliveryResult> {
  const delays = opts.retryDelays ?? RETRY_DELAYS_MS;
  let last: DeliveryResult = { ok: false, attempts: 0 };
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, delays[attempt - 1]));
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-strapi-event': event, ...hook.headers },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      last = { ok: res.ok, status: res.status, attempts: attempt + 1 };
      if (res.ok || res.status < 500) return last;
    } catch (err) {
      last = { ok: false, error: (err as Error).message, attempts: attempt + 1 };
    }
  }
  return last;
}
