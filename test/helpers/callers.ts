import { createHash } from 'node:crypto';
import { AuthService } from '../../src/auth/service.js';

/**
 * Who sends a request, as a test names it:
 * - `'anonymous'`: no credentials (the Public role);
 * - `'full-access'`, `'read-only'`: an API token of that type;
 * - `{ custom: [...actions] }`: a custom API token granted exactly these actions;
 * - `{ user: 'name', role? }`: a users & permissions user (role `authenticated` unless named) signed in by JWT;
 * - `{ bearer: '...' }`: any `Authorization: Bearer` value, valid or not.
 */
export type Caller =
  | 'anonymous'
  | 'full-access'
  | 'read-only'
  | { custom: string[] }
  | { user: string; role?: string }
  | { bearer: string };

/** A user made for a test: its record as the API shows it (id, documentId, username, email) and its password. */
export interface TestUser {
  id: number;
  documentId: string;
  username: string;
  email: string;
  password: string;
  jwt: string;
}

/** Credentials made once per project folder and caller, reused by every request (and every server on it). */
const made = new Map<string, Promise<Record<string, string>>>();
const users = new Map<string, Promise<TestUser>>();

/** A short, stable name for a caller: the key of its cached credentials and a readable token or user name. */
export function callerName(caller: Caller): string {
  if (typeof caller === 'string') return caller;
  if ('custom' in caller) {
    const actions = [...new Set(caller.custom)].sort().join(',');
    return `custom-${createHash('sha256').update(actions).digest('hex').slice(0, 10)}`;
  }
  if ('user' in caller) return `user-${caller.user}-${caller.role ?? 'authenticated'}`;
  return 'bearer';
}

/**
 * The signed-in user `name` of the project at `projectRoot` (created with `role` on first use), with a JWT the
 * server accepts. Made through the auth service, as the CLI makes users: no register route or rate limit involved.
 */
export function testUser(projectRoot: string, name: string, role = 'authenticated'): Promise<TestUser> {
  const key = `${projectRoot}\0${name}\0${role}`;
  let user = users.get(key);
  if (!user) {
    user = (async () => {
      const auth = new AuthService(projectRoot);
      const password = `${name}-password`;
      const record = await auth.createUser({ username: name, email: `${name}@example.test`, password, role });
      const { jwt } = await auth.issue(record, 'folio-tests');
      return { id: record.id, documentId: record.documentId, username: name, email: record.email, password, jwt };
    })();
    users.set(key, user);
    // A failed creation is not kept: the next call tries again and reports its own error.
    user.catch(() => users.delete(key));
  }
  return user;
}

/** The request headers that make a request come from `caller`, on the project at `projectRoot`. */
export function credentials(projectRoot: string, caller: Caller): Promise<Record<string, string>> {
  if (caller === 'anonymous') return Promise.resolve({});
  if (typeof caller === 'object' && 'bearer' in caller)
    return Promise.resolve({ authorization: `Bearer ${caller.bearer}` });
  const key = `${projectRoot}\0${callerName(caller)}`;
  let headers = made.get(key);
  if (!headers) {
    headers = (async () => {
      if (typeof caller === 'object' && 'user' in caller)
        return { authorization: `Bearer ${(await testUser(projectRoot, caller.user, caller.role)).jwt}` };
      const auth = new AuthService(projectRoot);
      const name = `test-${callerName(caller)}-${Date.now()}`;
      const { accessKey } =
        typeof caller === 'string'
          ? auth.createToken({ name, type: caller })
          : auth.createToken({ name, type: 'custom', actions: caller.custom });
      return { authorization: `Bearer ${accessKey}` };
    })();
    made.set(key, headers);
    headers.catch(() => made.delete(key));
  }
  return headers;
}
