import { hostname } from 'node:os';
import type { Actor, WriteRecord } from '../documents/write-record.js';
import { runGit } from './run.js';

/** A git identity: the name and e-mail of an author or committer line. */
export interface Identity {
  name: string;
  email: string;
}

/**
 * A name as an author line can hold it: no angle brackets (they delimit the e-mail), no line breaks or other
 * control characters (they would end the line), one space between words, at most 100 characters. So a
 * username can never be made to read as another identity or to add a header to a commit.
 */
export function identityName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const clean = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100)
    .trim();
  return /[\p{L}\p{N}]/u.test(clean) ? clean : undefined;
}

const EMAIL = /^[^\s<>@"]{1,64}@[^\s<>@"]{1,190}$/;

/** An e-mail as an author line can hold it; undefined when it is not one. */
export function identityEmail(value: string | undefined): string | undefined {
  const v = value?.trim();
  // eslint-disable-next-line no-control-regex
  return v && v.length <= 255 && EMAIL.test(v) && !/[\u0000-\u001f\u007f]/.test(v) ? v : undefined;
}

/**
 * A stand-in e-mail for a name that has none proven (a token, a user), never a real address (`.invalid` is
 * reserved); `account` (a user's id) after a dot makes it one account's alone.
 */
const placeholder = (name: string, kind: string, account?: string) =>
  `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || kind
  }${account ? `.${account}` : ''}@${kind}.folio.invalid`;

/**
 * The author of a write: the user, the API token, the public role, or the machine's own identity (the owner). A
 * user whose address is not proven (see `actorOf`) gets one under `user.folio.invalid` that names the account,
 * so a stranger registered with the owner's name and e-mail never reads as the owner.
 */
export function authorOf(actor: Actor | undefined, owner: Identity): Identity {
  if (!actor || actor.kind === 'owner') return owner;
  if (actor.kind === 'public') return { name: 'Public (no credentials)', email: 'public@folio.invalid' };
  const name = identityName(actor.name) ?? (actor.kind === 'token' ? 'API token' : 'Folio user');
  if (actor.kind === 'token') return { name, email: placeholder(name, 'token') };
  const account = actor.account && /^\d{1,15}$/.test(actor.account) ? actor.account : undefined;
  return { name, email: identityEmail(actor.email) ?? placeholder(name, 'user', account) };
}

/** The commit message of a write: `article "Hello": publish (fr)`, on one line. */
export function messageOf(record: Pick<WriteRecord, 'subject' | 'action' | 'locale'>): string {
  const line = `${record.subject}: ${record.action}${record.locale ? ` (${record.locale})` : ''}`;
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
}

/**
 * The identity of the checkout's owner: git's `user.name` and `user.email` there, else "Folio" at this host.
 * The committer of every commit Folio makes, and the author of those made from the CLI.
 */
export async function ownerIdentity(cwd: string): Promise<Identity> {
  const read = async (key: string) => {
    const r = await runGit(cwd, ['config', '--get', key]);
    return r.code === 0 ? r.stdout.trim() : undefined;
  };
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  return {
    name: identityName(name) ?? 'Folio',
    email: identityEmail(email) ?? `folio@${identityName(hostname())?.replace(/ /g, '-') ?? 'localhost'}`,
  };
}

/** The environment that makes `identity` the author (and `committer` the committer) of a commit git makes. */
export function identityEnv(author: Identity, committer: Identity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
  };
}
