import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_AUTH, type AuthConfig } from './service.js';

export interface RateLimitConfig { enabled: boolean; interval: number; max: number }
export interface UsersConfig { auth: AuthConfig; rateLimit: RateLimitConfig }

/**
 * The `users` section of folio.json:
 *   "users": { "jwtManagement": "refresh" | "legacy", "httpOnly": false,
 *              "ratelimit": { "enabled": true, "interval": 60000, "max": 10 } }
 */
export function loadUsersConfig(contentDir: string): UsersConfig {
  let raw: Record<string, unknown> = {};
  try {
    const all = JSON.parse(readFileSync(join(contentDir, 'folio.json'), 'utf8')) as Record<string, unknown>;
    if (all.users && typeof all.users === 'object') raw = all.users as Record<string, unknown>;
  } catch { /* folio.json is checked by loadConfig; defaults here */ }
  const auth = { ...DEFAULT_AUTH };
  if (raw.jwtManagement === 'legacy' || raw.jwtManagement === 'refresh') auth.jwtManagement = raw.jwtManagement;
  if (typeof raw.httpOnly === 'boolean') auth.httpOnly = raw.httpOnly;
  const rl = (raw.ratelimit ?? {}) as Record<string, unknown>;
  return {
    auth,
    rateLimit: {
      enabled: rl.enabled !== false,
      interval: typeof rl.interval === 'number' && rl.interval > 0 ? rl.interval : 60_000,
      max: typeof rl.max === 'number' && rl.max > 0 ? rl.max : 10,
    },
  };
}
