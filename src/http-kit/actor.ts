import type { Actor } from '../documents/write-record.js';
import type { Principal } from './access.js';

/** What of the access policy's principal names an author (users & permissions give the user or token record). */
interface AuthorFields {
  owner?: boolean;
  user?: { id?: unknown; username?: unknown; email?: unknown; provenEmail?: unknown };
  token?: { name?: unknown };
}

/**
 * Who a request's caller is, as the author of what it writes: the project's owner (the checkout's own git
 * identity), a user by username and, only when the account proved it, e-mail address (an unproven one would let
 * anyone who registers write as someone else), an API token by its name, else the public role.
 */
export function actorOf(principal: Principal): Actor {
  const p = principal as Principal & AuthorFields;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
  if (p.owner) return { kind: 'owner' };
  if (p.kind === 'user' && p.user) {
    const { id, username, email, provenEmail } = p.user;
    return {
      kind: 'user',
      name: text(username),
      email: typeof email === 'string' && email === provenEmail ? text(email) : undefined,
      account: typeof id === 'number' ? String(id) : undefined,
    };
  }
  if (p.kind === 'token' && p.token) return { kind: 'token', name: text(p.token.name) };
  return { kind: 'public' };
}
