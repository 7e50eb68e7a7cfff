import { join } from 'node:path';
import { TrackedDb } from './state.js';

/**
 * Which user is the project's owner: `.folio/owner.json` (`{ "userId": 3 }`), out of git with the rest of the
 * local state. The owner is a local account with every permission, made on first use by `folio serve` (see
 * studio/owner-link.ts) and signed into only through one-time links printed in its terminal: never with a
 * password, and only on a server that takes owner sessions (`ownerSignIn`: one on the user's own machine).
 */
export class OwnerRecord {
  private db: TrackedDb<{ userId?: number }>;

  constructor(stateDir: string) {
    this.db = new TrackedDb(join(stateDir, 'owner.json'), () => ({}));
  }

  /** The owner's user id, as the file now says (another process may have made the owner). */
  userId(): number | undefined {
    this.db.sync();
    const id = this.db.data.userId;
    return typeof id === 'number' ? id : undefined;
  }

  set(userId: number) {
    this.db.sync();
    this.db.data.userId = userId;
    this.db.write();
  }
}
