import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { AuthService } from '../../src/auth/service.js';
import type { TokenRecord } from '../../src/auth/state.js';

/** The keys of a user as Strapi 5 answers it (sorted), without its role. */
export const USER_KEYS = [
  'blocked',
  'confirmed',
  'createdAt',
  'documentId',
  'email',
  'id',
  'provider',
  'publishedAt',
  'updatedAt',
  'username',
];

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Writes content/permissions.json with these roles (name and description filled in). */
export function writePermissions(contentDir: string, roles: Record<string, string[]>) {
  const file = {
    roles: Object.fromEntries(
      Object.entries(roles).map(([k, permissions]) => [k, { name: k, description: '', permissions }]),
    ),
  };
  writeFileSync(join(contentDir, 'permissions.json'), `${JSON.stringify(file, null, 2)}\n`);
}

/** A JWT signed with the project's secret that expired an hour ago. */
export async function expiredJwt(projectRoot: string, payload: Record<string, unknown>) {
  const key = new TextEncoder().encode(new AuthService(projectRoot).state.secrets.jwtSecret);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(key);
}

/** Creates a token and moves its expiry into the past, as if its lifespan had run out. */
export function expiredToken(projectRoot: string, name: string): string {
  const auth = new AuthService(projectRoot);
  const { accessKey } = auth.createToken({ name, type: 'full-access', lifespan: '7d' });
  const db = auth.state.tokens;
  db.sync(true);
  const record = db.data.tokens.find((t: TokenRecord) => t.name === name)!;
  record.expiresAt = new Date(Date.now() - 1000).toISOString();
  db.write();
  return accessKey;
}

/** The payload of a JWT (not verified). */
export const jwtPayload = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

/** Every file under `dir`, recursively. */
export function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Files under `dir` whose bytes contain any of `secrets`, with the secret found. */
export function filesHolding(dir: string, secrets: string[]): string[] {
  const found: string[] = [];
  for (const file of walk(dir)) {
    const text = readFileSync(file, 'latin1');
    for (const s of secrets) if (s && text.includes(s)) found.push(`${file}: ${s.slice(0, 12)}…`);
  }
  return found;
}

/** Registers `stranger` through the public route of a spawned server, as anyone on the internet may; its JWT. */
export async function registerStranger(base: string): Promise<string> {
  const registered = await fetch(`${base}/api/auth/local/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'stranger', email: 'stranger@example.com', password: 'Passw0rd!' }),
  });
  return ((await registered.json()) as { jwt: string }).jwt;
}
