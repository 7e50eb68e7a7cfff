import { join } from 'node:path';
import { parseJsonFile } from './store/json-syntax.js';
import { readSmallFile } from './store/read-file.js';

export interface LocaleConfig {
  code: string;
  name: string;
}

/** `content/folio.json`: project settings that travel with the content in git (no secrets). */
export interface FolioConfig {
  locales: LocaleConfig[];
  defaultLocale: string;
  rest: { defaultLimit: number; maxLimit: number; withCount: boolean; strictParams: boolean };
  read: ReadLimits;
  /**
   * `snapshotFrom`: projects with at least this many document files get a start-up snapshot (serve).
   * `readThreadsFrom`: collections with at least this many files are read (first start) or stamped (restart)
   * on worker threads.
   */
  server: {
    host: string;
    port: number;
    bodyLimit: number;
    cors: CorsConfig;
    snapshotFrom: number;
    readThreadsFrom: number;
    liveEvents: LiveEventsConfig;
    /**
     * How many proxies in front of the server are believed (`true` is one, `false` or 0 none): their
     * `X-Forwarded-Proto`, `-Host` and `-For` then name the scheme, host and client address of a request.
     */
    trustProxy: boolean | number;
  };
  webhooks: WebhookConfig[];
  users: UsersConfig;
  git: GitConfig;
}

/**
 * `folio serve` and git (`git` in folio.json; the command's options win): commit each write, push the commits
 * to a remote (its name), pull from the branch's remote every `pull` ms (a read-only replica).
 */
export interface GitConfig {
  commit: boolean;
  push: string | null;
  pull: number | null;
}

/** A remote's name as Folio takes it from folio.json or an option: a plain name, never a URL or an option. */
export const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** An interval written `30s`, `5m`, `1h` or as seconds (`45`), in ms; undefined when it is not one (or < 1 s). */
export function parseInterval(value: unknown): number | undefined {
  const m =
    typeof value === 'number' ? [String(value), String(value), 's'] : /^(\d{1,7})(ms|s|m|h)?$/.exec(String(value));
  if (!m) return undefined;
  const ms = Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number.isSafeInteger(ms) && ms >= 1000 ? ms : undefined;
}

/**
 * The work one read may do (`read` in folio.json): populate levels, rows read through relations and shaped
 * into the answer, and the answer's size. Past them a read is a 400.
 */
export interface ReadLimits {
  maxPopulateDepth: number;
  maxRows: number;
  maxResponseBytes: number;
}

/**
 * Users & permissions (`plugin::users-permissions` in Strapi): `refresh` sessions (10-minute access JWT,
 * rotating refresh token) or the `legacy` single 30-day JWT; the refresh token in an httpOnly cookie;
 * the rate limit of the auth routes.
 */
export interface UsersConfig {
  jwtManagement: 'refresh' | 'legacy';
  httpOnly: boolean;
  ratelimit: { enabled: boolean; interval: number; max: number };
  /** New accounts must confirm their e-mail before they can log in (Strapi's `email_confirmation`). */
  emailConfirmation: boolean;
  /** Where a confirmed account is redirected (Strapi's `email_confirmation_redirection`). */
  emailConfirmationRedirection: string;
  /** The page of the front end that takes `?code=` to reset a password (Strapi's `email_reset_password`). */
  resetPasswordUrl: string;
}

/** How many `/_folio/events` streams may be open at once, in all and from one client address (429 past it). */
export interface LiveEventsConfig {
  maxConnections: number;
  maxPerClient: number;
}

/**
 * CORS as Strapi's defaults: the request's Origin is echoed when allowed (`'*'` allows every origin). Credentials
 * (the refresh cookie) only ever go with an origin the list names itself, never through `'*'`.
 */
export interface CorsConfig {
  origin: string[];
  credentials: boolean;
  maxAge: number;
}

/**
 * A header of a webhook: its value, or `{ "env": "NAME" }`, the value of that environment variable when the webhook
 * is sent (folio.json is committed: a secret written there is in git in clear).
 */
export type WebhookHeader = string | { env: string };

/** A webhook: Strapi's event names (`entry.create`, `media.delete`, ...), a URL and extra headers. */
export interface WebhookConfig {
  name: string;
  url: string;
  headers: Record<string, WebhookHeader>;
  events: string[];
  enabled: boolean;
}

/** A locale code (BCP 47's form: a language, then subtags) as folio.json, document files and `?locale=` write it. */
export const LOCALE_CODE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

export const DEFAULT_CONFIG: FolioConfig = {
  locales: [{ code: 'en', name: 'English (en)' }],
  defaultLocale: 'en',
  rest: { defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: true },
  read: { maxPopulateDepth: 10, maxRows: 1_000_000, maxResponseBytes: 16 * 1024 * 1024 },
  server: {
    host: 'localhost',
    port: 1337,
    bodyLimit: 1024 * 1024,
    cors: { origin: ['*'], credentials: true, maxAge: 31536000 },
    snapshotFrom: 20000,
    readThreadsFrom: 20000,
    liveEvents: { maxConnections: 200, maxPerClient: 10 },
    trustProxy: false,
  },
  webhooks: [],
  users: {
    jwtManagement: 'refresh',
    httpOnly: true,
    ratelimit: { enabled: true, interval: 60_000, max: 10 },
    emailConfirmation: false,
    emailConfirmationRedirection: '/',
    resetPasswordUrl: '',
  },
  git: { commit: false, push: null, pull: null },
};

export const WEBHOOK_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
  'media.create',
  'media.update',
  'media.delete',
];

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A `folio.json` that cannot be used: `file` names it once, `reason` says what is wrong in it. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** Reads and checks `folio.json`; a missing file means the defaults. */
export function loadConfig(contentDir: string): FolioConfig {
  const file = join(contentDir, 'folio.json');
  let raw: unknown;
  try {
    raw = parseJsonFile(readSmallFile(file, contentDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_CONFIG);
    throw new ConfigError(file, `${(err as Error).message}`);
  }
  if (!isObject(raw)) throw new ConfigError(file, `must be a JSON object`);
  const cfg = structuredClone(DEFAULT_CONFIG);
  if (raw.locales !== undefined) {
    if (!Array.isArray(raw.locales) || raw.locales.length === 0)
      throw new ConfigError(file, `"locales" must be a non-empty array`);
    cfg.locales = raw.locales.map((l, i) => {
      if (!isObject(l) || typeof l.code !== 'string' || !LOCALE_CODE.test(l.code)) {
        throw new ConfigError(file, `locales[${i}] needs a BCP 47 "code"`);
      }
      return { code: l.code, name: typeof l.name === 'string' ? l.name : `${l.code}` };
    });
  }
  if (raw.defaultLocale !== undefined) {
    if (typeof raw.defaultLocale !== 'string' || !cfg.locales.some((l) => l.code === raw.defaultLocale)) {
      throw new ConfigError(file, `"defaultLocale" must be one of the configured locale codes`);
    }
    cfg.defaultLocale = raw.defaultLocale;
  } else {
    cfg.defaultLocale = cfg.locales[0].code;
  }
  const num = (section: Record<string, unknown>, key: string, where: string, min: number) => {
    const v = section[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
      throw new ConfigError(file, `"${where}.${key}" must be an integer >= ${min}`);
    return v;
  };
  if (raw.rest !== undefined) {
    if (!isObject(raw.rest)) throw new ConfigError(file, `"rest" must be an object`);
    cfg.rest.defaultLimit = num(raw.rest, 'defaultLimit', 'rest', 1) ?? cfg.rest.defaultLimit;
    cfg.rest.maxLimit = num(raw.rest, 'maxLimit', 'rest', 1) ?? cfg.rest.maxLimit;
    for (const k of ['withCount', 'strictParams'] as const) {
      if (raw.rest[k] !== undefined) {
        if (typeof raw.rest[k] !== 'boolean') throw new ConfigError(file, `"rest.${k}" must be a boolean`);
        cfg.rest[k] = raw.rest[k] as boolean;
      }
    }
  }
  if (raw.read !== undefined) {
    if (!isObject(raw.read)) throw new ConfigError(file, `"read" must be an object`);
    for (const k of ['maxPopulateDepth', 'maxRows', 'maxResponseBytes'] as const)
      cfg.read[k] = num(raw.read, k, 'read', 1) ?? cfg.read[k];
  }
  if (raw.server !== undefined) {
    if (!isObject(raw.server)) throw new ConfigError(file, `"server" must be an object`);
    cfg.server.port = num(raw.server, 'port', 'server', 0) ?? cfg.server.port;
    cfg.server.bodyLimit = num(raw.server, 'bodyLimit', 'server', 1) ?? cfg.server.bodyLimit;
    cfg.server.snapshotFrom = num(raw.server, 'snapshotFrom', 'server', 0) ?? cfg.server.snapshotFrom;
    cfg.server.readThreadsFrom = num(raw.server, 'readThreadsFrom', 'server', 0) ?? cfg.server.readThreadsFrom;
    if (raw.server.cors !== undefined) {
      const c = raw.server.cors;
      if (!isObject(c)) throw new ConfigError(file, `"server.cors" must be an object`);
      if (c.origin !== undefined) {
        const list = typeof c.origin === 'string' ? c.origin.split(',').map((s) => s.trim()) : c.origin;
        if (!Array.isArray(list) || !list.every((o) => typeof o === 'string'))
          throw new ConfigError(file, `"server.cors.origin" must be a string or an array of strings`);
        // Origins as browsers send them: no trailing slash, scheme and host in lower case.
        cfg.server.cors.origin = (list as string[]).map((o) => o.replace(/\/$/, '').toLowerCase());
      }
      if (c.credentials !== undefined) {
        if (typeof c.credentials !== 'boolean')
          throw new ConfigError(file, `"server.cors.credentials" must be a boolean`);
        cfg.server.cors.credentials = c.credentials;
      }
      cfg.server.cors.maxAge = num(c, 'maxAge', 'server.cors', 0) ?? cfg.server.cors.maxAge;
    }
    if (raw.server.liveEvents !== undefined) {
      const e = raw.server.liveEvents;
      if (!isObject(e)) throw new ConfigError(file, `"server.liveEvents" must be an object`);
      const live = cfg.server.liveEvents;
      live.maxConnections = num(e, 'maxConnections', 'server.liveEvents', 0) ?? live.maxConnections;
      live.maxPerClient = num(e, 'maxPerClient', 'server.liveEvents', 0) ?? live.maxPerClient;
    }
    const trust = raw.server.trustProxy;
    if (trust !== undefined) {
      if (typeof trust !== 'boolean' && !(Number.isInteger(trust) && (trust as number) >= 0))
        throw new ConfigError(file, `"server.trustProxy" must be true, false or a number of proxies`);
      cfg.server.trustProxy = trust as boolean | number;
    }
    if (raw.server.host !== undefined) {
      if (typeof raw.server.host !== 'string') throw new ConfigError(file, `"server.host" must be a string`);
      cfg.server.host = raw.server.host;
    }
  }
  if (raw.webhooks !== undefined) {
    if (!Array.isArray(raw.webhooks)) throw new ConfigError(file, `"webhooks" must be an array`);
    cfg.webhooks = raw.webhooks.map((w, i) => {
      const where = `webhooks[${i}]`;
      if (!isObject(w) || typeof w.url !== 'string' || !/^https?:\/\//.test(w.url))
        throw new ConfigError(file, `${where} needs an http(s) "url"`);
      const headers = w.headers ?? {};
      const header = (v: unknown) =>
        typeof v === 'string' ||
        (isObject(v) && Object.keys(v).length === 1 && typeof v.env === 'string' && /^[A-Za-z_]\w*$/.test(v.env));
      if (!isObject(headers) || !Object.values(headers).every(header))
        throw new ConfigError(file, `${where}.headers must map names to strings or to { "env": "VARIABLE" }`);
      const events = w.events ?? WEBHOOK_EVENTS;
      if (!Array.isArray(events) || !events.every((e) => WEBHOOK_EVENTS.includes(e as string))) {
        throw new ConfigError(file, `${where}.events must list some of: ${WEBHOOK_EVENTS.join(', ')}`);
      }
      return {
        name: typeof w.name === 'string' ? w.name : w.url,
        url: w.url,
        headers: headers as Record<string, WebhookHeader>,
        events: events as string[],
        enabled: w.enabled !== false,
      };
    });
  }
  if (raw.git !== undefined) cfg.git = gitConfig(raw.git, file);
  if (raw.users !== undefined) {
    const u = raw.users;
    if (!isObject(u)) throw new ConfigError(file, `"users" must be an object`);
    if (u.jwtManagement !== undefined) {
      if (u.jwtManagement !== 'refresh' && u.jwtManagement !== 'legacy')
        throw new ConfigError(file, `"users.jwtManagement" must be "refresh" or "legacy"`);
      cfg.users.jwtManagement = u.jwtManagement;
    }
    if (u.httpOnly !== undefined) {
      if (typeof u.httpOnly !== 'boolean') throw new ConfigError(file, `"users.httpOnly" must be a boolean`);
      cfg.users.httpOnly = u.httpOnly;
    }
    if (u.emailConfirmation !== undefined) {
      if (typeof u.emailConfirmation !== 'boolean')
        throw new ConfigError(file, `"users.emailConfirmation" must be a boolean`);
      cfg.users.emailConfirmation = u.emailConfirmation;
    }
    for (const key of ['emailConfirmationRedirection', 'resetPasswordUrl'] as const) {
      if (u[key] === undefined) continue;
      if (typeof u[key] !== 'string') throw new ConfigError(file, `"users.${key}" must be a string (a URL)`);
      cfg.users[key] = u[key] as string;
    }
    if (u.ratelimit !== undefined) {
      const r = u.ratelimit;
      if (!isObject(r)) throw new ConfigError(file, `"users.ratelimit" must be an object`);
      if (r.enabled !== undefined) {
        if (typeof r.enabled !== 'boolean') throw new ConfigError(file, `"users.ratelimit.enabled" must be a boolean`);
        cfg.users.ratelimit.enabled = r.enabled;
      }
      cfg.users.ratelimit.interval = num(r, 'interval', 'users.ratelimit', 1) ?? cfg.users.ratelimit.interval;
      cfg.users.ratelimit.max = num(r, 'max', 'users.ratelimit', 1) ?? cfg.users.ratelimit.max;
    }
  }
  return cfg;
}

function gitConfig(g: unknown, file: string): GitConfig {
  if (!isObject(g)) throw new ConfigError(file, `"git" must be an object`);
  const out: GitConfig = { commit: false, push: null, pull: null };
  if (g.commit !== undefined) {
    if (typeof g.commit !== 'boolean') throw new ConfigError(file, `"git.commit" must be a boolean`);
    out.commit = g.commit;
  }
  if (g.push !== undefined && g.push !== null) {
    if (typeof g.push !== 'string' || !REMOTE_NAME.test(g.push))
      throw new ConfigError(file, `"git.push" must be the name of a git remote (such as "origin")`);
    out.push = g.push;
  }
  if (g.pull !== undefined && g.pull !== null) {
    const ms = parseInterval(g.pull);
    if (ms === undefined)
      throw new ConfigError(file, `"git.pull" must be an interval of at least 1 s ("30s", "5m", or seconds)`);
    out.pull = ms;
  }
  return out;
}
