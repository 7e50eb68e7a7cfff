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
 * POSTs one webhook payload with Strapi's headers (`X-Strapi-Event`) and the hook's own (those written as
 * `{ "env": "NAME" }` read from the environment now), a 10 s timeout, and two retries with backoff on network
 * errors and 5xx answers. Never throws.
 */
export async function deliver(
  hook: WebhookConfig,
  event: string,
  payload: unknown,
  opts: { retryDelays?: number[] } = {},
): Promise<DeliveryResult> {
  const delays = opts.retryDelays ?? RETRY_DELAYS_MS;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(hook.headers)) {
    if (typeof value === 'string') headers[name] = value;
    else if (process.env[value.env] !== undefined) headers[name] = process.env[value.env]!;
    // Not sent without it: the receiver would take the event for a stranger's, or answer it as one.
    else return { ok: false, error: `header ${name}: the environment variable ${value.env} is not set`, attempts: 0 };
  }
  let last: DeliveryResult = { ok: false, attempts: 0 };
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, delays[attempt - 1]));
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-strapi-event': event, ...headers },
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
