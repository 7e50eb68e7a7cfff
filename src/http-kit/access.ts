import type { IncomingMessage } from 'node:http';

/**
 * Who is calling and what they may do. Routes name the action Strapi names (`api::article.article.find`);
 * the users & permissions layer implements this. Until then every project uses `OpenAccess`.
 */
export interface Principal {
  kind: 'public' | 'user' | 'token';
  id?: string | number;
}

export interface AccessPolicy {
  /** Identifies the caller from the request (401 errors are thrown from here). */
  authenticate(req: IncomingMessage): Promise<Principal>;
  /** Whether the caller may perform `action`. */
  can(principal: Principal, action: string): boolean;
  /**
   * A key shared by callers who see exactly the same answers (same permissions), so GET answers can be
   * cached per key; undefined means "do not cache this caller's answers".
   */
  cacheKey?(principal: Principal): string | undefined;
  /**
   * Watches the credentials of a long-lived answer (an event stream): calls `ended` once they no longer hold
   * (signed out, revoked, expired). Returns a function that stops watching.
   */
  watch?(req: IncomingMessage, principal: Principal, ended: () => void): () => void;
}

/** Development access: every caller may do everything. */
export class OpenAccess implements AccessPolicy {
  async authenticate(): Promise<Principal> {
    return { kind: 'public' };
  }
  can(): boolean {
    return true;
  }
  cacheKey(): string {
    return 'open';
  }
}
