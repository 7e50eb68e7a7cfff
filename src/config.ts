import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocaleConfig { code: string; name: string }

/** `content/folio.json`: project settings that travel with the content in git (no secrets). */
export interface FolioConfig {
  locales: LocaleConfig[];
  defaultLocale: string;
  rest: { defaultLimit: number; maxLimit: number; withCount: boolean; strictParams: boolean };
  server: { host: string; port: number; bodyLimit: number };
}

export const DEFAULT_CONFIG: FolioConfig = {
  locales: [{ code: 'en', name: 'English (en)' }],
  defaultLocale: 'en',
  rest: { defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: true },
  server: { host: 'localhost', port: 1337, bodyLimit: 1024 * 1024 },
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export class ConfigError extends Error {}

/** Reads and checks `folio.json`; a missing file means the defaults. */
export function loadConfig(contentDir: string): FolioConfig {
  const file = join(contentDir, 'folio.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_CONFIG);
    throw new ConfigError(`${file}: ${(err as Error).message}`);
  }
  if (!isObject(raw)) throw new ConfigError(`${file}: must be a JSON object`);
  const cfg = structuredClone(DEFAULT_CONFIG);
  if (raw.locales !== undefined) {
    if (!Array.isArray(raw.locales) || raw.locales.length === 0) throw new ConfigError(`${file}: "locales" must be a non-empty array`);
    cfg.locales = raw.locales.map((l, i) => {
      if (!isObject(l) || typeof l.code !== 'string' || !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(l.code)) {
        throw new ConfigError(`${file}: locales[${i}] needs a BCP 47 "code"`);
      }
      return { code: l.code, name: typeof l.name === 'string' ? l.name : `${l.code}` };
    });
  }
  if (raw.defaultLocale !== undefined) {
    if (typeof raw.defaultLocale !== 'string' || !cfg.locales.some((l) => l.code === raw.defaultLocale)) {
      throw new ConfigError(`${file}: "defaultLocale" must be one of the configured locale codes`);
    }
    cfg.defaultLocale = raw.defaultLocale;
  } else {
    cfg.defaultLocale = cfg.locales[0].code;
  }
  const num = (section: Record<string, unknown>, key: string, where: string, min: number) => {
    const v = section[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new ConfigError(`${file}: "${where}.${key}" must be an integer >= ${min}`);
    return v;
  };
  if (raw.rest !== undefined) {
    if (!isObject(raw.rest)) throw new ConfigError(`${file}: "rest" must be an object`);
    cfg.rest.defaultLimit = num(raw.rest, 'defaultLimit', 'rest', 1) ?? cfg.rest.defaultLimit;
    cfg.rest.maxLimit = num(raw.rest, 'maxLimit', 'rest', 1) ?? cfg.rest.maxLimit;
    for (const k of ['withCount', 'strictParams'] as const) {
      if (raw.rest[k] !== undefined) {
        if (typeof raw.rest[k] !== 'boolean') throw new ConfigError(`${file}: "rest.${k}" must be a boolean`);
        cfg.rest[k] = raw.rest[k] as boolean;
      }
    }
  }
  if (raw.server !== undefined) {
    if (!isObject(raw.server)) throw new ConfigError(`${file}: "server" must be an object`);
    cfg.server.port = num(raw.server, 'port', 'server', 0) ?? cfg.server.port;
    cfg.server.bodyLimit = num(raw.server, 'bodyLimit', 'server', 1) ?? cfg.server.bodyLimit;
    if (raw.server.host !== undefined) {
      if (typeof raw.server.host !== 'string') throw new ConfigError(`${file}: "server.host" must be a string`);
      cfg.server.host = raw.server.host;
    }
  }
  return cfg;
}
