import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthService } from '../src/auth/service.js';
import { isLoopback, startedAs } from '../src/studio/owner-link.js';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

const LINK = /(http:\/\/\S+)\/admin\/#sign-in=([\w-]+)/;

/** The owner links `folio serve` printed so far: their codes, in order. */
const codes = (serve: ServeProcess) => [...serve.stdout().matchAll(new RegExp(LINK, 'g'))].map((m) => m[2]);

async function exchange(base: string, code: string) {
  const res = await fetch(`${base}/_folio/studio/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  return { status: res.status, body: (await res.json()) as { jwt?: string; user?: { username: string } } };
}

const me = (base: string, jwt: string) =>
  fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${jwt}` } }).then((r) => r.status);

/**
 * The owner's one-click sign-in, as an attacker would try it: `folio serve` on a loopback address prints a
 * one-time link for the project's owner (every permission); a server reachable from other machines neither prints
 * one nor takes the owner's sessions, unless told to with --owner-link.
 */
describe('the owner sign-in link of folio serve', () => {
  let made: ReturnType<typeof makeProject>;
  let local: ServeProcess;
  let jwt: string;
  beforeAll(async () => {
    made = makeProject();
    local = await spawnServe(made.dir, ['--verbose']);
  }, 60_000);
  afterAll(async () => {
    await local?.stop();
    made.cleanup();
  });

  it('prints a one-time link on a loopback server that signs in the owner, made on first use in .folio/', async () => {
    await expect.poll(() => codes(local).length).toBe(1);
    expect(local.stdout()).toContain('Sign in to Folio Studio as the project’s owner');
    const owner = JSON.parse(readFileSync(join(made.dir, '.folio', 'owner.json'), 'utf8')) as { userId: number };
    const [code] = codes(local);
    const first = await exchange(local.base, code);
    expect(first.status).toBe(200);
    expect(first.body.user?.username).toBe('owner');
    jwt = first.body.jwt!;
    expect(new AuthService(made.dir).userById(owner.userId)?.username).toBe('owner');
    // Once only.
    expect((await exchange(local.base, code)).status).toBe(400);
    // The code is in the address's fragment, never sent: nothing the server logs holds it.
    // The request log line reaches the pipe after the answer reaches the client.
    await expect.poll(() => local.stderr()).toContain('/_folio/studio/sign-in');
    expect(local.stderr()).not.toContain(code);
  });

  it('gives the owner every permission, and nobody else what it may', async () => {
    const tags = await fetch(`${local.base}/api/tags?status=draft`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(tags.status).toBe(200);
    const perms = await fetch(`${local.base}/_folio/studio/permissions`, {
      headers: { authorization: `Bearer ${jwt}` },
    }).then((r) => r.json() as Promise<{ data: string[]; meta: { owner?: boolean } }>);
    expect(perms.meta.owner).toBe(true);
    expect(perms.data).toContain('plugin::content-type-builder.content-types.getContentTypes');
    expect(perms.data).toContain('api::article.article.delete');
    // Nobody else gets what the owner may: the same request, anonymously.
    expect((await fetch(`${local.base}/api/tags?status=draft`)).status).toBe(403);
  });

  it('prints a new link when the sign-in page asks, while only a few wait to be used, and answers none', async () => {
    const state = await fetch(`${local.base}/_folio/studio/owner-link`).then((r) => r.json());
    expect(state).toEqual({ data: { available: true, command: 'folio serve' } });
    const ask = () => fetch(`${local.base}/_folio/studio/owner-link`, { method: 'POST' });
    const before = codes(local).length;
    for (let i = 0; i < 3; i++) {
      const asked = await ask();
      expect(asked.status).toBe(202);
      expect(await asked.text()).not.toMatch(/sign-in=/);
    }
    await expect.poll(() => codes(local).length).toBe(before + 3);
    expect(local.stdout()).toContain('asked for from its sign-in page');
    expect((await ask()).status).toBe(429);
    expect((await exchange(local.base, codes(local).at(-1)!)).status).toBe(200);
    expect((await ask()).status).toBe(202);
  });

  it('refuses the owner on a server reachable from other machines, and prints no link there', async () => {
    const wide = await spawnServe(made.dir, ['--host', '0.0.0.0']);
    try {
      const base = wide.base.replace('localhost', '127.0.0.1');
      // The link would come before the documentation's line.
      await expect.poll(() => wide.stdout()).toContain('/documentation');
      expect(wide.stdout()).not.toMatch(LINK);
      expect(await fetch(`${base}/_folio/studio/owner-link`).then((r) => r.json())).toEqual({
        data: { available: false },
      });
      expect((await fetch(`${base}/_folio/studio/owner-link`, { method: 'POST' })).status).toBe(404);
      // A token of the owner from the local server is worth nothing here, and so is an owner code.
      expect(await me(local.base, jwt)).toBe(200);
      expect(await me(base, jwt)).toBe(401);
      const auth = new AuthService(made.dir);
      const { signInCodes } = await import('../src/studio/sign-in-link.js');
      const forged = signInCodes(made.dir).issue(auth.owner.userId()!);
      expect((await exchange(base, forged)).status).toBe(400);
    } finally {
      await wide.stop();
    }
  });

  it('offers the link beyond this machine only with --owner-link, and none at all with --no-owner-link', async () => {
    const wide = await spawnServe(made.dir, ['--host', '0.0.0.0', '--owner-link']);
    try {
      await expect.poll(() => wide.stdout()).toMatch(LINK);
      expect(wide.stdout()).toContain('whoever opens the link first gets every permission');
      const base = wide.base.replace('localhost', '127.0.0.1');
      expect(await me(base, jwt)).toBe(200);
    } finally {
      await wide.stop();
    }
    const off = await spawnServe(made.dir, ['--no-owner-link']);
    try {
      await expect.poll(() => off.stdout()).toContain('/documentation');
      expect(off.stdout()).not.toMatch(LINK);
      expect(await me(off.base, jwt)).toBe(401);
    } finally {
      await off.stop();
    }
  });

  it('never signs the owner in with a password, whatever it is set to', async () => {
    const auth = new AuthService(made.dir);
    const owner = auth.listUsers().find((u) => u.username === 'owner')!;
    await auth.saveUser(owner.id, { password: 'known-password' });
    const res = await fetch(`${local.base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'owner', password: 'known-password' }),
    });
    expect(res.status).toBe(400);
  });

  it('knows a loopback address from one other machines reach', () => {
    for (const a of ['127.0.0.1', '127.0.1.1', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['0.0.0.0', '::', '192.168.1.4', '::ffff:10.0.0.1', '', null]) expect(isLoopback(a)).toBe(false);
  });

  it('names the command that started the server (which prints the links), never its arguments', () => {
    /** What npm puts in the environment of a script it runs: its command, the script's name and its text. */
    const npm = (command: string, event: string, script: string) => ({
      npm_command: command,
      npm_lifecycle_event: event,
      npm_lifecycle_script: script,
    });
    const cases: [NodeJS.ProcessEnv, string][] = [
      [{}, 'folio serve'],
      [npm('start', 'start', 'node bin/folio serve'), 'npm start'],
      [npm('run-script', 'dev', 'folio serve --port 4000'), 'npm run dev'],
      [npm('exec', 'npx', 'folio serve --push https://user:secret@example.com/x.git'), 'npx folio serve'],
      // The test runner's own script, inherited by a server it starts, serves nothing.
      [npm('test', 'test', 'vitest run'), 'folio serve'],
      [npm('run-script', 'a b; rm -rf /', 'folio serve'), 'folio serve'],
    ];
    for (const [env, command] of cases) expect(startedAs(env)).toBe(command);
  });
});
