import type { FolioConfig } from '../config.js';
import type { EventBus } from '../documents/events.js';
import type { DocumentService } from '../documents/service.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { Checkout } from '../store/checkout.js';

/**
 * What route modules use of an open project. `Project` (src/project.ts) has all of it; the routes name this
 * instead, so no arrow runs from the toolkit or a feature back up to the code that opens a project.
 */
export interface ServedProject {
  root: string;
  contentDir: string;
  config: FolioConfig;
  schemas: SchemaRegistry;
  documents: DocumentService;
  /** Document events (webhooks, live stream); the same bus across reloads. */
  events: EventBus;
  /** Rewrites of the checkout by the server's own git commands (see `Checkout`). */
  checkout: Checkout;
}
