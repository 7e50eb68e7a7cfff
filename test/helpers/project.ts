import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { openProject, type Project } from '../../src/project.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import type { AppOptions } from '../../src/http/app.js';
import { serverOptions } from '../../src/http/compose.js';
import { createApiToken } from '../../src/auth/service.js';
import type { LoadOptions } from '../../src/project.js';
import type { Store } from '../../src/store/store.js';
import { credentials, testUser, type Caller, type TestUser } from './callers.js';

export const REPO = resolve(import.meta.dirname, '..', '..');
/** Test data kept in the repository: the blog model and the exchanges recorded from Strapi 5.54 (README there). */
export const TEST_FIXTURES = join(REPO, 'test', 'fixtures');
export const FIXTURES = join(TEST_FIXTURES, 'blog');
export const BIN = join(REPO, 'bin', 'folio');

export const FIXTURE_CONFIG = {
  locales: [
    { code: 'en', name: 'English (en)' },
    { code: 'fr', name: 'French (fr)' },
  ],
  defaultLocale: 'en',
};

/**
 * A fresh project in a temp folder: the blog fixture schemas, `folio.json` with en/fr, and no documents
 * (or the example documents of this repo's content/ with `withExampleDocuments`).
 */
export function makeProject(opts: { config?: Record<string, unknown>; withExampleDocuments?: boolean } = {}): {
  dir: string;
  contentDir: string;
  cleanup(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'folio-test-'));
  const contentDir = join(dir, 'content');
  mkdirSync(contentDir, { recursive: true });
  cpSync(join(FIXTURES, 'types'), join(contentDir, 'types'), { recursive: true });
  cpSync(join(FIXTURES, 'components'), join(contentDir, 'components'), { recursive: true });
  // The example's documents use its media files (covers): they come with them.
  if (opts.withExampleDocuments)
    for (const part of ['documents', 'uploads'])
      cpSync(join(REPO, 'content', part), join(contentDir, part), { recursive: true });
  writeFileSync(join(contentDir, 'folio.json'), `${JSON.stringify({ ...FIXTURE_CONFIG, ...opts.config }, null, 2)}\n`);
  // The permissions the conformance recordings assume (fixtures/blog/README.md).
  cpSync(join(import.meta.dirname, 'fixture-permissions.json'), join(contentDir, 'permissions.json'));
  return { dir, contentDir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Adds (or replaces) attributes in a content-type schema of a project made by makeProject. */
export function addAttributes(contentDir: string, singularName: string, attrs: Record<string, unknown>): void {
  const file = join(contentDir, 'types', `${singularName}.json`);
  const schema = JSON.parse(readFileSync(file, 'utf8'));
  Object.assign(schema.attributes, attrs);
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
}

/** Writes a component schema `shared.<name>` with these attributes into a project made by makeProject. */
export function addComponent(contentDir: string, name: string, attributes: Record<string, unknown>): void {
  const schema = { collectionName: `components_shared_${name}s`, info: { displayName: name }, options: {}, attributes };
  writeFileSync(join(contentDir, 'components', 'shared', `${name}.json`), `${JSON.stringify(schema, null, 2)}\n`);
}

/** Every document file of the project, by its path under documents/, with its text. */
export function documentFiles(contentDir: string): Map<string, string> {
  const root = join(contentDir, 'documents');
  const out = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const file = join(entry.parentPath, entry.name);
    out.set(relative(root, file), readFileSync(file, 'utf8'));
  }
  return out;
}

/** The paths whose text differs between two `documentFiles` readings (added and removed files too), sorted. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

/**
 * Runs `fn` while each write of `store` first calls `before` with the collection it writes to: a `before` that
 * throws is a disk refusing that write; one that edits files is another process writing at that moment.
 */
export async function whileWriting<T>(
  store: Store,
  before: (plural: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const { write } = store;
  store.write = async (...args: Parameters<Store['write']>) => {
    before(args[0]);
    return write.apply(store, args);
  };
  try {
    return await fn();
  } finally {
    store.write = write;
  }
}

/** What a test server's `api` sends besides the path: method, JSON or raw body, headers, and who sends it. */
export interface ApiInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  rawBody?: string;
  /** Who sends the request (helpers/callers.ts); full access when unset. */
  as?: Caller;
  /** The same as `as: 'anonymous'`. */
  anonymous?: boolean;
}

/** A test server's answer: status, headers, the body JSON-decoded when it is JSON, and the text. */
// The body is whatever JSON the route answered; tests read into it freely and assert its shape with expect.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiAnswer = { status: number; headers: Headers; body: any; text: string };
export type Api = (path: string, init?: ApiInit) => Promise<ApiAnswer>;

export interface TestServer extends RunningServer {
  project: Project;
  dir: string;
  contentDir: string;
  /** A full-access API token of this project. */
  token: string;
  /** `Authorization` header with the full-access token. */
  auth: Record<string, string>;
  /**
   * fetch relative to the server, JSON-decoding the answer when it is JSON. Requests carry the full-access token
   * unless `as` names another caller, `anonymous` is set, or they set their own Authorization header.
   */
  api: Api;
  /** `api` with every request sent by `caller` (an `as` of the request itself still wins). */
  as(caller: Caller): Api;
  /** The headers that make a request come from `caller`, for requests sent another way (rawRequest, a browser). */
  credentials(caller: Caller): Promise<Record<string, string>>;
  /** The signed-in user `name` of this project (made with `role` on first use), with its JWT. */
  user(name: string, role?: string): Promise<TestUser>;
  stop(): Promise<void>;
}

/** Starts a real HTTP server on an ephemeral port over a fresh temp project. */
export async function startTestServer(
  opts: {
    config?: Record<string, unknown>;
    withExampleDocuments?: boolean;
    app?: AppOptions;
    dir?: string;
    load?: LoadOptions;
  } = {},
): Promise<TestServer> {
  const made = opts.dir ? { dir: opts.dir, contentDir: join(opts.dir, 'content'), cleanup() {} } : makeProject(opts);
  const project = await openProject(made.dir, { load: opts.load });
  const { accessKey: token } = await createApiToken(made.dir, {
    name: `test-${Date.now()}-${Math.random()}`,
    type: 'full-access',
  });
  const running = await startServer(project, {
    log: () => undefined,
    ...(await serverOptions(project, { log: opts.app?.log ?? (() => undefined) })),
    ...opts.app,
  });
  const who = (caller: Caller) =>
    caller === 'full-access' ? Promise.resolve({ authorization: `Bearer ${token}` }) : credentials(made.dir, caller);
  const api: Api = async (path, init = {}) => {
    const headers: Record<string, string> = {
      ...(await who(init.anonymous ? 'anonymous' : (init.as ?? 'full-access'))),
      ...init.headers,
    };
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${running.url}${path}`, { method: init.method ?? 'GET', headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    ...running,
    project,
    dir: made.dir,
    contentDir: made.contentDir,
    api,
    as:
      (caller) =>
      (path, init = {}) =>
        api(path, { as: caller, ...init }),
    credentials: who,
    user: (name, role) => testUser(made.dir, name, role),
    token,
    auth: { authorization: `Bearer ${token}` },
    async stop() {
      await running.close();
      made.cleanup();
    },
  };
}
