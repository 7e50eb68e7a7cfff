import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { USER_KEYS } from './helpers/auth.js';

/**
 * Account management as Strapi's users-permissions plugin answers it: users created, changed and
 * deleted over REST, forgotten passwords, e-mail confirmation, and OAuth providers (all off).
 * Folio sends no e-mail: the messages go to the server's log, which these tests read.
 */

const logIn = (s: TestServer, identifier: string, password: string) =>
  s.api('/api/auth/local', { anonymous: true, method: 'POST', body: { identifier, password } });

describe('POST, PUT and DELETE /api/users', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  const create = (body: unknown, anonymous = false) => s.api('/api/users', { method: 'POST', body, anonymous });

  it('creates a user: 201, the e-mail lower-cased, the role populated, no password in the answer', async () => {
    const res = await create({
      username: 'Editor',
      email: 'Editor@Example.com',
      password: 'editor-pass',
      role: 1,
      confirmed: true,
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...USER_KEYS, 'role'].sort());
    expect(res.body).toMatchObject({
      username: 'Editor',
      email: 'editor@example.com',
      provider: 'local',
      confirmed: true,
      blocked: false,
    });
    expect(res.body.role).toMatchObject({ id: 1, type: 'authenticated', name: 'Authenticated' });
    expect((await logIn(s, 'editor@example.com', 'editor-pass')).status).toBe(200);
    // Stored hashed, never in clear.
    expect(readFileSync(join(s.dir, '.folio', 'users.json'), 'utf8')).not.toContain('editor-pass');
  });

  it('takes the role by key or documentId too; a user not confirmed logs in while confirmation is off', async () => {
    const res = await create({
      username: 'viewer',
      email: 'viewer@example.com',
      password: 'viewer-pass',
      role: 'public',
    });
    expect(res.status).toBe(201);
    expect(res.body.role.type).toBe('public');
    expect(res.body.confirmed).toBe(false);
    // As Strapi: `confirmed` is only asked for when e-mail confirmation is on (users.emailConfirmation).
    const login = await logIn(s, 'viewer', 'viewer-pass');
    expect(login.status).toBe(200);
  });

  it.each([
    ['an empty body', {}, '4 errors occurred'],
    ['no role', { username: 'norole', email: 'norole@example.com', password: 'secret-1' }, 'role is a required field'],
    [
      'a bad e-mail',
      { username: 'bademail', email: 'nope', password: 'secret-1', role: 1 },
      'email must be a valid email',
    ],
    [
      'a username already taken',
      { username: 'Editor', email: 'other@example.com', password: 'secret-1', role: 1 },
      // Strapi's create meets it as the user model's unique value (its update says 'Username already taken').
      'This attribute must be unique',
    ],
    [
      'an e-mail already taken (any case)',
      { username: 'other', email: 'EDITOR@example.com', password: 'secret-1', role: 1 },
      'Email already taken',
    ],
    [
      'an unknown key',
      { username: 'x1x', email: 'x1x@example.com', password: 'secret-1', role: 1, isAdmin: true },
      'Invalid key isAdmin',
    ],
    [
      'an unknown role',
      { username: 'x2x', email: 'x2x@example.com', password: 'secret-1', role: 99 },
      'Role 99 not found',
    ],
  ])('refuses %s with a 400 and creates nothing', async (_label, body, message) => {
    const before = (await s.api('/api/users')).body.length;
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.error.message).toBe(message);
    expect((await s.api('/api/users')).body.length).toBe(before);
  });

  it('is refused to callers without plugin::users-permissions.user.create (403)', async () => {
    const res = await create({ username: 'anon', email: 'anon@example.com', password: 'secret-1', role: 1 }, true);
    expect(res.status).toBe(403);
  });

  it('updates a user: new username and password, the old password stops working', async () => {
    const id = (
      await create({
        username: 'changer',
        email: 'changer@example.com',
        password: 'first-pass',
        role: 1,
        confirmed: true,
      })
    ).body.id;
    const res = await s.api(`/api/users/${id}`, {
      method: 'PUT',
      body: { username: 'changed', password: 'second-pass' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, username: 'changed', email: 'changer@example.com' });
    expect(res.body.role.type).toBe('authenticated');
    expect(res.body.updatedAt >= res.body.createdAt).toBe(true);
    expect((await logIn(s, 'changed', 'first-pass')).status).toBe(400);
    expect((await logIn(s, 'changed', 'second-pass')).status).toBe(200);
  });

  it.each([
    ['an empty password', { password: '' }, 400, 'password.notNull'],
    ['a username already taken', { username: 'Editor' }, 400, 'Username already taken'],
    ['an e-mail already taken', { email: 'viewer@example.com' }, 400, 'Email already taken'],
    [
      'a non-boolean blocked',
      { blocked: 'yes' },
      400,
      'blocked must be a `boolean` type, but the final value was: `"yes"`.',
    ],
  ])('refuses %s on update and changes nothing', async (_label, body, status, message) => {
    const id = (await s.api('/api/users?filters[username][$eq]=changed')).body[0].id;
    const before = (await s.api(`/api/users/${id}`)).body;
    const res = await s.api(`/api/users/${id}`, { method: 'PUT', body });
    expect(res.status).toBe(status);
    expect(res.body.error.message).toBe(message);
    expect((await s.api(`/api/users/${id}`)).body).toEqual(before);
  });

  it('answers 404 "User not found" for an update of an unknown user', async () => {
    const res = await s.api('/api/users/9999', { method: 'PUT', body: { username: 'ghost' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ name: 'NotFoundError', message: 'User not found' });
  });

  it('a blocked user cannot log in', async () => {
    const id = (await s.api('/api/users?filters[username][$eq]=changed')).body[0].id;
    expect((await s.api(`/api/users/${id}`, { method: 'PUT', body: { blocked: true } })).status).toBe(200);
    const login = await logIn(s, 'changed', 'second-pass');
    expect(login.status).toBe(400);
    expect(login.body.error.message).toBe('Your account has been blocked by an administrator');
  });

  it('deletes a user: 200 with the user, then 204 when it is gone', async () => {
    const id = (
      await create({
        username: 'doomed',
        email: 'doomed@example.com',
        password: 'doomed-pass',
        role: 1,
        confirmed: true,
      })
    ).body.id;
    const res = await s.api(`/api/users/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(USER_KEYS);
    expect(res.body.username).toBe('doomed');
    expect((await s.api(`/api/users/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await s.api(`/api/users/${id}`)).status).toBe(204);
    expect((await logIn(s, 'doomed', 'doomed-pass')).status).toBe(400);
  });

  it('answers 405 with Allow for other methods', async () => {
    const res = await s.api('/api/users', { method: 'PATCH', body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('HEAD, GET, POST');
  });
});

describe('forgotten passwords', () => {
  let s: TestServer;
  const log: string[] = [];
  beforeAll(async () => {
    s = await startTestServer({
      config: { users: { ratelimit: { enabled: false }, resetPasswordUrl: 'https://site.example/reset' } },
      app: { log: (m) => log.push(m) },
    });
    expect(
      (
        await s.api('/api/users', {
          method: 'POST',
          body: {
            username: 'forgetful',
            email: 'forgetful@example.com',
            password: 'old-password',
            role: 1,
            confirmed: true,
          },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await s.stop();
  });

  const forgot = (email: unknown) =>
    s.api('/api/auth/forgot-password', { anonymous: true, method: 'POST', body: { email } });
  const reset = (body: Record<string, unknown>) =>
    s.api('/api/auth/reset-password', { anonymous: true, method: 'POST', body });
  const codeFromLog = () => {
    const line = log.filter((l) => l.includes('reset your password')).pop();
    return /[?&]code=([0-9a-f]+)/.exec(line ?? '')?.[1];
  };

  it('answers { ok: true } for an unknown address and writes no e-mail', async () => {
    const res = await forgot('nobody@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(log.some((l) => l.includes('nobody@example.com'))).toBe(false);
  });

  it.each([
    [undefined, 'email is a required field'],
    ['not-an-email', 'email must be a valid email'],
  ])('refuses the address %j with a 400', async (email, message) => {
    const res = await forgot(email);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message });
  });

  it('writes the reset link to the log; the code resets the password once and logs the user in', async () => {
    expect((await forgot('Forgetful@Example.com')).body).toEqual({ ok: true });
    const line = log.find((l) => l.includes('forgetful@example.com'))!;
    expect(line).toContain('https://site.example/reset?code=');
    const code = codeFromLog()!;
    expect(code).toMatch(/^[0-9a-f]{128}$/);
    // Only a hash of the code is kept.
    expect(readFileSync(join(s.dir, '.folio', 'users.json'), 'utf8')).not.toContain(code);

    const mismatch = await reset({ code, password: 'new-password', passwordConfirmation: 'other-password' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toBe('Passwords do not match');

    const ok = await reset({ code, password: 'new-password', passwordConfirmation: 'new-password' });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.jwt).toBe('string');
    expect(ok.body.user.username).toBe('forgetful');
    expect(
      (await s.api('/api/users/me', { anonymous: true, headers: { authorization: `Bearer ${ok.body.jwt}` } })).body
        .username,
    ).toBe('forgetful');

    expect((await logIn(s, 'forgetful', 'old-password')).status).toBe(400);
    expect((await logIn(s, 'forgetful', 'new-password')).status).toBe(200);
    const again = await reset({ code, password: 'third-password', passwordConfirmation: 'third-password' });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('Incorrect code provided');
  });

  it('refuses a made-up code and a body without the required keys', async () => {
    const res = await reset({ code: 'f'.repeat(128), password: 'whatever-1', passwordConfirmation: 'whatever-1' });
    expect(res.body.error.message).toBe('Incorrect code provided');
    const empty = await reset({});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('3 errors occurred');
  });
});

describe('e-mail confirmation (users.emailConfirmation)', () => {
  let s: TestServer;
  const log: string[] = [];
  beforeAll(async () => {
    s = await startTestServer({
      config: {
        users: {
          ratelimit: { enabled: false },
          emailConfirmation: true,
          emailConfirmationRedirection: 'https://site.example/welcome',
        },
      },
      app: { log: (m) => log.push(m) },
    });
  });
  afterAll(async () => {
    await s.stop();
  });

  const link = () =>
    log
      .filter((l) => l.includes('confirm your e-mail address'))
      .pop()!
      .split(': ')
      .pop()!;

  it('register answers the user without credentials until the address is confirmed', async () => {
    const res = await s.api('/api/auth/local/register', {
      anonymous: true,
      method: 'POST',
      body: { username: 'newbie', email: 'newbie@example.com', password: 'newbie-pass' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['user']);
    expect(res.body.user.confirmed).toBe(false);
    const login = await logIn(s, 'newbie', 'newbie-pass');
    expect(login.body.error.message).toBe('Your account email is not confirmed');
  });

  it('the logged link confirms the account and redirects (302); a second use is an invalid token', async () => {
    const url = new URL(link());
    expect(url.pathname).toBe('/api/auth/email-confirmation');
    const res = await fetch(`${s.url}${url.pathname}${url.search}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://site.example/welcome');
    expect((await logIn(s, 'newbie', 'newbie-pass')).status).toBe(200);
    const again = await s.api(`${url.pathname}${url.search}`, { anonymous: true });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('Invalid token');
  });

  it('send-email-confirmation: a new link for an unconfirmed account, errors for a confirmed one', async () => {
    await s.api('/api/auth/local/register', {
      anonymous: true,
      method: 'POST',
      body: { username: 'later', email: 'later@example.com', password: 'later-pass' },
    });
    const first = link();
    const res = await s.api('/api/auth/send-email-confirmation', {
      anonymous: true,
      method: 'POST',
      body: { email: 'LATER@example.com' },
    });
    expect(res.body).toEqual({ email: 'later@example.com', sent: true });
    const second = link();
    expect(second).not.toBe(first);
    // The newest link is the one that works.
    expect(
      (await fetch(`${s.url}${new URL(first).pathname}${new URL(first).search}`, { redirect: 'manual' })).status,
    ).toBe(400);
    expect(
      (await fetch(`${s.url}${new URL(second).pathname}${new URL(second).search}`, { redirect: 'manual' })).status,
    ).toBe(302);
    const confirmed = await s.api('/api/auth/send-email-confirmation', {
      anonymous: true,
      method: 'POST',
      body: { email: 'later@example.com' },
    });
    expect(confirmed.status).toBe(400);
    expect(confirmed.body.error).toMatchObject({ name: 'ApplicationError', message: 'Already confirmed' });
    const unknown = await s.api('/api/auth/send-email-confirmation', {
      anonymous: true,
      method: 'POST',
      body: { email: 'ghost@example.com' },
    });
    expect(unknown.body).toEqual({ email: 'ghost@example.com', sent: true });
  });
});

describe('OAuth providers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it.each(['/api/connect/github', '/api/connect/google/callback', '/api/auth/github/callback'])(
    '%s: 400 "This provider is disabled"',
    async (path) => {
      const res = await s.api(path, { anonymous: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ApplicationError', message: 'This provider is disabled' });
    },
  );

  it('the e-mail provider callback wants credentials', async () => {
    const res = await s.api('/api/auth/local/callback', { anonymous: true });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('identifier is a required field');
  });
});
