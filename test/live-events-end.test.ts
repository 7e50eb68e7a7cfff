import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../src/auth/service.js';
import { bearer, jwtPayload } from './helpers/auth.js';
import { openEvents } from './helpers/event-stream.js';
import { startTestServer, type TestServer } from './helpers/project.js';

/**
 * A live events stream ends when the credentials it was opened with stop holding (issue 31, finding 7): sign-out,
 * a revoked session, a blocked or deleted user, a revoked token, an expired JWT. Another process's change (the
 * CLI) ends it too. The per-client limit counts clients as the believed proxy saw them.
 */
describe('live event streams and their credentials', () => {
  let s: TestServer;
  let auth: AuthService;
  let n = 0;

  const open = (headers: Record<string, string>) => openEvents(s.url, headers);
  /** A new user signed in: its JWT. */
  const signIn = async () => {
    const name = `user${++n}`;
    await auth.createUser({ username: name, email: `${name}@example.com`, password: 'user-pass-1' });
    const r = await s.api('/api/auth/local', {
      anonymous: true,
      method: 'POST',
      body: { identifier: name, password: 'user-pass-1' },
    });
    return { name, jwt: r.body.jwt as string, id: r.body.user.id as number };
  };
  const createTag = async () =>
    expect((await s.api('/api/tags', { method: 'POST', body: { data: { name: `tag ${++n}` } } })).status).toBe(201);

  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
    auth = new AuthService(s.dir);
  });
  afterAll(async () => {
    await s.stop();
  });

  it('keeps a stream whose credentials hold, and delivers to it', async () => {
    const { jwt } = await signIn();
    const stream = await open(bearer(jwt));
    await createTag();
    await expect.poll(() => stream.text()).toContain('entry.create');
    stream.close();
  });

  it('ends at sign-out, and sends nothing written after it', async () => {
    const { jwt } = await signIn();
    const stream = await open(bearer(jwt));
    const out = await s.api('/api/auth/logout', { anonymous: true, method: 'POST', body: {}, headers: bearer(jwt) });
    expect(out.status).toBe(200);
    await createTag();
    await stream.ended;
    expect(stream.text()).not.toContain('entry.create');
  });

  it('ends when the session is revoked from another one', async () => {
    const user = await signIn();
    const stream = await open(bearer(user.jwt));
    const other = await s.api('/api/auth/local', {
      anonymous: true,
      method: 'POST',
      body: { identifier: user.name, password: 'user-pass-1' },
    });
    const sessionId = jwtPayload(user.jwt).sessionId as string;
    const del = await s.api(`/api/auth/sessions/${sessionId}`, {
      anonymous: true,
      method: 'DELETE',
      headers: bearer(other.body.jwt),
    });
    expect(del.status).toBe(200);
    await stream.ended;
  });

  it('ends when the user is blocked', async () => {
    const user = await signIn();
    const stream = await open(bearer(user.jwt));
    expect((await s.api(`/api/users/${user.id}`, { method: 'PUT', body: { blocked: true } })).status).toBe(200);
    await stream.ended;
  });

  it('ends when the user is given another role, and keeps a stream whose user is only renamed', async () => {
    const name = `Reader ${++n}`;
    const role = await s.api('/api/users-permissions/roles', { method: 'POST', body: { name } });
    expect(role.status).toBe(200);
    const [moved, renamed] = [await signIn(), await signIn()];
    const [movedStream, renamedStream] = [await open(bearer(moved.jwt)), await open(bearer(renamed.jwt))];
    const roleId = (await s.api('/api/users-permissions/roles')).body.roles.find(
      (r: { name: string }) => r.name === name,
    ).id;
    expect(
      (await s.api(`/api/users/${renamed.id}`, { method: 'PUT', body: { username: `${renamed.name}b` } })).status,
    ).toBe(200);
    expect((await s.api(`/api/users/${moved.id}`, { method: 'PUT', body: { role: roleId } })).status).toBe(200);
    await movedStream.ended;
    await createTag();
    await expect.poll(() => renamedStream.text()).toContain('entry.create');
    renamedStream.close();
  });

  it('ends when another process (the CLI) deletes the user', async () => {
    const user = await signIn();
    const stream = await open(bearer(user.jwt));
    expect(new AuthService(s.dir).deleteUser(user.name)).toBeDefined();
    await stream.ended;
  });

  it('ends when its API token is revoked, here or by the CLI', async () => {
    const name = `live ${++n}`;
    const { accessKey } = auth.createToken({ name, type: 'read-only' });
    const stream = await open(bearer(accessKey));
    await createTag();
    await expect.poll(() => stream.text()).toContain('entry.create');
    expect(new AuthService(s.dir).revokeToken(name)).toBeDefined();
    await stream.ended;
  });

  it('ends when its JWT expires', async () => {
    const user = await signIn();
    const { sessionId } = jwtPayload(user.jwt);
    // The access JWT of the same live session, as the server signs them, that runs out in a few seconds: long
    // enough for the stream to open on a loaded machine (JWT times are whole seconds).
    const short = await new SignJWT({ id: user.id, sessionId, type: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 4)
      .sign(new TextEncoder().encode(auth.state.secrets.jwtSecret));
    const stream = await open(bearer(short));
    await stream.ended;
    expect((await s.api('/api/users/me', { anonymous: true, headers: bearer(short) })).status).toBe(401);
  });
});

describe('the live event limit behind a proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { server: { trustProxy: true, liveEvents: { maxPerClient: 1 } } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('counts each client the proxy saw, not the proxy', async () => {
    const controllers: AbortController[] = [];
    const openAs = async (client: string) => {
      const controller = new AbortController();
      controllers.push(controller);
      const res = await fetch(`${s.url}/_folio/events`, {
        headers: { ...s.auth, 'x-forwarded-for': client },
        signal: controller.signal,
      });
      if (res.status !== 200) await res.text();
      return res.status;
    };
    try {
      expect(await openAs('203.0.113.1')).toBe(200);
      expect(await openAs('203.0.113.2')).toBe(200);
      expect(await openAs('203.0.113.1')).toBe(429);
    } finally {
      for (const c of controllers) c.abort();
    }
  });
});
