import { createHash } from 'node:crypto';
import { documentIdFrom } from '../documents/model.js';

/** A documentId-shaped id derived from a name, so records that are not stored keep a stable id. */
export const stableId = (name: string): string => documentIdFrom(createHash('sha256').update(name).digest());
