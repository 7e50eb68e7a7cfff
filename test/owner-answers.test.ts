import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject } from '../src/project.js';
import { startServer, type RunningServer } from '../src/http/server.js';
import { serverOptions } from '../src/http/compose.js';
import { ensureOwner, prepareOwnerLinks } from '../src/studio/owner-link.js';
import { signInCodes } from '../src/studio/sign-in-link.js';
import { bearer, writePermissions } from './helpers/auth.js';
import { credentials } from './helpers/callers.js';
import { makeProject } from './helpers/project.js';

interface Doc {
  documentId: string;
  author?: { name: string } | null;
}

/**
 * The project's owner, signed in through its one-time link on a server that takes owner sessions (as `folio serve`
 * on the user's own machine), may do everything, whatever its role says; so its answers are its own: a cached
 * answer of the owner must never reach a user of the owner's role, who may see less, nor the other way round.
 */
describe("the owner's answers", () => {
  const made = makeProject();
  let running: RunningServer;
  let owner: Record<string, string>;
  let reader: Record<string, string>;
  const URL = '/api/articles?fields[0]=title&populate[author][fields][0]=name';

  /** A request as `headers` say who sends it: status and JSON body. */
  const send = async (path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${running.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: Doc & Doc[] } };
  };
  const authors = async (headers: Record<string, string>) => {
    const res = await send(URL, headers);
    expect(res.status).toBe(200);
    return res.body.data.map((a) => a.author?.name ?? null);
  };

  beforeAll(async () => {
    // The owner's role (authenticated, as every new user's) may read articles only: not their authors, not write.
    writePermissions(made.contentDir, {
      public: [],
      authenticated: ['api::article.article.find', 'plugin::users-permissions.user.me'],
    });
    const project = await openProject(made.dir);
    const options = await serverOptions(project, { log: () => undefined });
    running = await startServer(project, { log: () => undefined, ...options });
    // What `folio serve --json` does on a loopback address: it takes owner sessions (and prints no link).
    await prepareOwnerLinks({
      auth: options.access.auth,
      root: made.dir,
      address: running.server.address(),
      base: running.url,
      flag: undefined,
      trustProxy: false,
      json: true,
      write: () => undefined,
    });
    const code = signInCodes(made.dir).issue((await ensureOwner(options.access.auth)).id);
    const signedIn = await fetch(`${running.url}/_folio/studio/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(signedIn.status).toBe(200);
    owner = bearer(((await signedIn.json()) as { jwt: string }).jwt);
    reader = await credentials(made.dir, { user: 'reader' });
  });
  afterAll(async () => {
    await running.close();
    made.cleanup();
  });

  it('may do what its role may not', async () => {
    const ada = await send('/api/authors', owner, { data: { name: 'Ada' } });
    expect(ada.status).toBe(201);
    const article = { data: { title: 'By Ada', author: ada.body.data.documentId } };
    expect((await send('/api/articles', reader, article)).status).toBe(403);
    expect((await send('/api/articles', owner, article)).status).toBe(201);
  });

  it('gets its own answer, and a user of its role gets theirs, whoever read the URL first', async () => {
    expect(await authors(owner)).toEqual(['Ada']);
    expect(await authors(reader)).toEqual([null]);
    expect(await authors(owner)).toEqual(['Ada']);
  });
});
