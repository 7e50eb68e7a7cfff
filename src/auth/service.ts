import { applicationError, validationError } from '../errors.js';
import { hmac, randomKey } from './crypto.js';
import type { TokenRecord } from './state.js';
import { isActionName } from './permissions.js';
import { TOKEN_IDS, unauthorized } from './auth-base.js';
import { AuthSessions } from './sessions.js';

export { DEFAULT_AUTH, type AuthConfig, type JwtMode } from './config.js';
export { sanitizeUser } from './user-view.js';
export { isEmail } from './email-address.js';
export type { UserInput } from './accounts.js';

const LIFESPANS: Record<string, number | null> = { '7d': 7, '30d': 30, '90d': 90, unlimited: null };

/**
 * Users, sessions and API tokens of a project; shared by the HTTP routes, the CLI and the Studio. Its parts, one
 * module each: AuthBase (state and lookups), AuthAccounts, AuthAccountCodes, AuthSessions, and API tokens here.
 */
export class AuthService extends AuthSessions {
  createToken(input: CreateTokenInput): { accessKey: string; record: TokenRecord } {
    if (!input.name) throw validationError('A token needs a name');
    if (!['read-only', 'full-access', 'custom'].includes(input.type))
      throw validationError('The token type must be read-only, full-access or custom');
    if (input.type === 'custom' && !input.actions?.length)
      throw validationError('A custom token needs at least one action');
    if (input.type !== 'custom' && input.actions?.length)
      throw validationError('Only custom tokens take a list of actions');
    const badAction = input.actions?.find((a) => !isActionName(a));
    if (badAction !== undefined)
      throw validationError(`"${badAction}" is not an action name like api::article.article.find`);
    const lifespanKey = input.lifespan ?? 'unlimited';
    if (!Object.hasOwn(LIFESPANS, lifespanKey)) throw validationError('The lifespan must be 7d, 30d, 90d or unlimited');
    this.state.refresh();
    const tokens = this.state.tokens.data.tokens;
    if (tokens.some((t) => t.name === input.name))
      throw applicationError(`A token named "${input.name}" already exists`);
    const accessKey = randomKey(128);
    const days = LIFESPANS[lifespanKey];
    const created = new Date();
    const record: TokenRecord = {
      id: this.issueId(TOKEN_IDS, tokens),
      name: input.name,
      description: input.description ?? '',
      type: input.type,
      actions: input.type === 'custom' ? [...new Set(input.actions)] : [],
      accessKey: hmac(this.state.secrets.tokenSalt, accessKey),
      lifespan: days === null ? null : days * 86400_000,
      expiresAt: days === null ? null : new Date(created.getTime() + days * 86400_000).toISOString(),
      createdAt: created.toISOString(),
      lastUsedAt: null,
    };
    tokens.push(record);
    this.state.tokens.write();
    return { accessKey, record };
  }

  listTokens(): TokenRecord[] {
    this.state.refresh();
    return this.state.tokens.data.tokens;
  }

  revokeToken(idOrName: string): TokenRecord | undefined {
    this.state.refresh();
    const tokens = this.state.tokens.data.tokens;
    const i = tokens.findIndex((t) => String(t.id) === idOrName || t.name === idOrName);
    if (i === -1) return undefined;
    const [gone] = tokens.splice(i, 1);
    this.state.tokens.write();
    return gone;
  }

  /** The token a bearer value is, by its HMAC; 401 `Token expired` past its lifespan. */
  findToken(accessKey: string): TokenRecord | undefined {
    const hash = hmac(this.state.secrets.tokenSalt, accessKey);
    // Picks up tokens created or revoked by the CLI while the server runs (a stat when nothing changed).
    this.state.tokens.sync();
    const token = this.state.tokens.data.tokens.find((t) => t.accessKey === hash);
    if (!token) return undefined;
    if (token.expiresAt && Date.parse(token.expiresAt) < Date.now()) throw unauthorized('Token expired');
    // lastUsedAt is updated at most once an hour, as Strapi does, so reads do not turn into writes.
    if (!token.lastUsedAt || Date.parse(token.lastUsedAt) < Date.now() - 3600_000) {
      token.lastUsedAt = new Date().toISOString();
      this.state.tokens.write();
    }
    return token;
  }
}

export interface CreateTokenInput {
  name: string;
  type: TokenRecord['type'];
  /** For `custom` tokens: Strapi's full action names (`api::article.article.find`). */
  actions?: string[];
  /** `7d`, `30d`, `90d` or `unlimited` (the default). */
  lifespan?: string;
  description?: string;
}

/**
 * Creates an API token for a project (CLI, tests and the conformance replay). The clear `accessKey`
 * (128 random bytes as hex) is returned once; only its HMAC is stored, in `.folio/tokens.json`.
 * A running server of the project accepts it at once.
 */
export async function createApiToken(
  projectRoot: string,
  input: CreateTokenInput,
): Promise<{ accessKey: string; record: TokenRecord }> {
  return new AuthService(projectRoot).createToken(input);
}
