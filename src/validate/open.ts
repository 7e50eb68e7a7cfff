import { join } from 'node:path';
import { openProject, type Project } from '../project.js';
import type { ContentType } from '../schema/types.js';
import { readSmallFile } from '../store/read-file.js';

/** The body of each document file as the load decoded it, kept until the checks take it. */
export class ReadBodies {
  private readonly bodies = new Map<string, Record<string, unknown>>();

  /** The load's `check`: keeps the body and lets the document in (its problems are reported, not refused). */
  readonly keep = (ct: ContentType, body: Record<string, unknown>, documentId: string): undefined => {
    this.bodies.set(`${ct.uid}\n${documentId}`, body);
    return undefined;
  };

  /**
   * The body of a document decoded already; read from its file when the load did not hand it over (a
   * document that could only be decoded from its file again). Undefined when the file cannot be parsed:
   * the load reported it.
   */
  take(project: Project, ct: ContentType, documentId: string): Record<string, unknown> | undefined {
    const key = `${ct.uid}\n${documentId}`;
    const body = this.bodies.get(key);
    if (body) {
      this.bodies.delete(key);
      return body;
    }
    try {
      return JSON.parse(
        readSmallFile(join(project.contentDir, 'documents', ct.pluralName, `${documentId}.json`), project.contentDir),
      );
    } catch {
      return undefined;
    }
  }
}

/**
 * Opens a project to validate it, reading each document file once: large folders on reader threads, in
 * parallel, and none through the start-up snapshot (its documents would be read from their files one by one
 * when first used). Each body goes to `bodies` as it is decoded; documents whose values fail stay in the
 * index, to be reported with every problem.
 */
export async function openForValidation(dir: string): Promise<{ project: Project; bodies: ReadBodies }> {
  const bodies = new ReadBodies();
  const project = await openProject(dir, { load: { checkValues: false, useSnapshot: false, check: bodies.keep } });
  return { project, bodies };
}
