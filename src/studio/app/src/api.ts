/** The Studio's only way to the content: Folio's public REST API, as any Strapi v5 client calls it. */

export interface FieldProblem {
  path: (string | number)[];
  message: string;
}

/** An answer in Strapi's error envelope (or a network failure, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly name: string,
    message: string,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
  }
}

export interface User {
  id: number;
  username: string;
  email: string;
}

type Listener = () => void;

/** Set while this browser has signed in to the Studio: only then is a session worth renewing on a reload. */
const SESSION_HINT = 'folio-studio:signed-in';
const hasHint = () => {
  try {
    return localStorage.getItem(SESSION_HINT) === '1';
  } catch {
    return true;
  }
};
const setHint = (on: boolean) => {
  try {
    if (on) localStorage.setItem(SESSION_HINT, '1');
    else localStorage.removeItem(SESSION_HINT);
  } catch {
    // Storage refused (a private window's policy): a reload then asks to sign in again.
  }
};

/**
 * The signed-in session: a short-lived access JWT kept in memory, renewed with the refresh token, which the
 * server keeps in an httpOnly cookie (`x-strapi-refresh-cookie: httpOnly`), so no script can read it. A session
 * that ends under an open page (signed out in another tab, expired) leaves the page as it is, `ended`, until the
 * user signs in again there or in another tab of this browser.
 */
class Session {
  jwt: string | undefined;
  user: User | undefined;
  /** The session this page was signed in with has ended: the page stays, with what it holds, until a sign-in. */
  ended = false;
  /** Signing out: calls made now are not sent (they would be refused, or sent as the public role). */
  leaving = false;
  private listeners = new Set<Listener>();
  private renewing: Promise<boolean> | undefined;

  constructor() {
    // The tabs of one browser share the refresh cookie: a sign-out or a sign-in in one is news to the others.
    addEventListener('storage', (e) => {
      if (e.key !== SESSION_HINT && e.key !== null) return;
      if (hasHint() && this.ended) void this.renew();
      else if (!hasHint() && this.jwt) this.end();
    });
  }

  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify() {
    for (const fn of this.listeners) fn();
  }

  private set(jwt: string | undefined, user: User | undefined) {
    this.jwt = jwt;
    this.user = user;
    this.ended = false;
    setHint(jwt !== undefined);
    this.notify();
  }

  /** The session ended without this page signing out: it keeps its screen, and says so. */
  private end() {
    if (!this.user) return this.set(undefined, undefined);
    this.jwt = undefined;
    this.ended = true;
    this.notify();
  }

  async signIn(identifier: string, password: string): Promise<void> {
    const res = await send(
      'POST',
      '/api/auth/local',
      { identifier, password },
      { 'x-strapi-refresh-cookie': 'httpOnly' },
    );
    const body = (await res.json()) as { jwt: string; user: User };
    this.set(body.jwt, body.user);
  }

  /** Signs in with the one-time code of a link `folio serve` printed (the owner's, or `--studio-as`'s). */
  async signInWithCode(code: string): Promise<void> {
    // Asked first: a link opened twice is said plainly, not as a refused request (which the browser logs).
    const check = await send('POST', '/_folio/studio/sign-in', { code, check: true });
    if (!((await check.json()) as { data?: { usable?: boolean } }).data?.usable)
      throw new ApiError(400, 'ApplicationError', 'This sign-in link has expired or was used already.');
    const res = await send('POST', '/_folio/studio/sign-in', { code });
    const body = (await res.json()) as { jwt: string; user: User };
    this.set(body.jwt, body.user);
  }

  /**
   * The command that started this server, which prints the owner's one-click sign-in links, if it offers them (a
   * server on the user's own machine); false if not.
   */
  async ownerLinkCommand(): Promise<string | false> {
    try {
      const res = await send('GET', '/_folio/studio/owner-link');
      const { data } = (await res.json()) as { data?: { available?: boolean; command?: string } };
      return data?.available === true && (data.command ?? 'folio serve');
    } catch {
      return false;
    }
  }

  /** Has the server print a new owner sign-in link in its terminal (only there: the answer does not hold it). */
  async printOwnerLink(): Promise<void> {
    await send('POST', '/_folio/studio/owner-link', {});
  }

  /** A new access token from the refresh cookie: false when there is no session to renew. */
  renew(): Promise<boolean> {
    // Cleared once settled, never before it is set (a renewal without a hint settles at once).
    this.renewing ??= this.refresh().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private async refresh(): Promise<boolean> {
    // The cookie is httpOnly: whether there may be one is known from the hint, so a visitor who never signed in
    // costs no refused request (which the browser would log as an error).
    if (!hasHint()) {
      if (this.jwt || this.ended) this.end();
      return false;
    }
    try {
      const res = await send('POST', '/api/auth/refresh', {}, { 'x-strapi-refresh-cookie': 'httpOnly' });
      const { jwt } = (await res.json()) as { jwt: string };
      const me = await send('GET', '/api/users/me', undefined, { authorization: `Bearer ${jwt}` });
      this.set(jwt, (await me.json()) as User);
      return true;
    } catch (err) {
      // The cookie's session is over, for the other tabs too; a server out of reach may still hold it.
      if (!(err instanceof ApiError && err.status === 0)) setHint(false);
      this.end();
      return false;
    }
  }

  /** Resolves once the page is signed in (at once when it is), or `signal` aborts. */
  signedIn(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (this.jwt || signal?.aborted) return resolve();
      const done = () => {
        off();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const off = this.onChange(() => this.jwt && done());
      signal?.addEventListener('abort', done);
    });
  }

  /** Asks again for the sign-in an ended session needs (its dialog shows once more). */
  remind() {
    if (this.ended) this.notify();
  }

  async signOut(): Promise<void> {
    // Calls under way would be refused once the session is revoked (and the browser logs each refusal): they are
    // let finish, those started meanwhile included (a page still loading), and none is sent from now on.
    this.leaving = true;
    try {
      const until = Date.now() + 10_000;
      while (underWay.size > 0 && Date.now() < until) {
        const late = new Promise((r) => setTimeout(r, until - Date.now()));
        await Promise.race([Promise.allSettled([...underWay]), late]);
      }
      try {
        if (this.jwt) await send('POST', '/api/auth/logout', {}, { authorization: `Bearer ${this.jwt}` });
      } catch {
        // Signed out here whatever the server says: the access token expires on its own.
      }
      this.set(undefined, undefined);
    } finally {
      this.leaving = false;
    }
  }
}

export const session = new Session();

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'NetworkError', 'The Folio server cannot be reached');
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

async function errorOf(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as {
      error?: { status?: number; name?: string; message?: string; details?: { errors?: FieldProblem[] } };
    };
    const e = body.error ?? {};
    return new ApiError(res.status, e.name ?? 'Error', e.message ?? res.statusText, e.details?.errors ?? []);
  } catch {
    return new ApiError(res.status, 'Error', res.statusText || `HTTP ${res.status}`);
  }
}

/**
 * Resolves while the page has a session; else (it has ended, and cannot be renewed) fails as the server would,
 * with a 401, before anything is sent: a call without a session would be the public role's.
 */
export async function sessionOrEnded(): Promise<void> {
  if (session.ended && !(await session.renew()))
    throw new ApiError(401, 'UnauthorizedError', 'Your session has ended: sign in again');
}

/**
 * A call as the signed-in user; an expired access token is renewed once and the call made again. While the session
 * has ended, nothing is sent (the call would be the public role's): the call fails as the server would, with a 401.
 */
export function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const call = callAsUser<T>(method, path, body);
  underWay.add(call);
  const done = () => underWay.delete(call);
  call.then(done, done);
  return call;
}

/** Calls as the signed-in user not answered yet: a sign-out waits for them (ten seconds at most). */
const underWay = new Set<Promise<unknown>>();

async function callAsUser<T>(method: string, path: string, body?: unknown): Promise<T> {
  if (session.leaving) throw new ApiError(401, 'UnauthorizedError', 'Signed out');
  await sessionOrEnded();
  const call = () => send(method, path, body, session.jwt ? { authorization: `Bearer ${session.jwt}` } : {});
  let res: Response;
  try {
    res = await call();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401 || !(await session.renew())) throw err;
    res = await call();
  }
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** A query string in Strapi's bracket syntax, from a flat list of keys and values. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.append(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
