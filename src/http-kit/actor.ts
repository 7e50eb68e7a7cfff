import type { Actor } from '../documents/write-record.js';
import type { Principal } from './access.js';

/**
 * Who a request's caller is, as the author of what it writes: a user by username and e-mail, an API token
 * by its name, else the public role. Read from what the access policy found (users & permissions give
 * the caller's user or token record).
 */
export function actorOf(principal: Principal): Actor {
  const p = principal as Principal & { user?: { username?: unknown; email?: unknown }; token?: { name?: unknown } };
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
  if (p.kind === 'user' && p.user) return { kind: 'user', name: text(p.user.username), email: text(p.user.email) };
  if (p.kind === 'token' && p.token) return { kind: 'token', name: text(p.token.name) };
  return { kind: 'public' };
}
