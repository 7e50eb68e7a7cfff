import type { ContentType } from './model';
import { ErrorNotice } from './notices';
import type { Status } from './status';

/** What the last action came to, said beside the buttons: done, or what stopped it. */
export interface Outcome {
  text: string;
  kind: 'done' | 'problem';
  /** The field to take the user to (the first one with a problem). */
  fieldId?: string;
}

/** An API failure of the last action, said with the permission it lacked where that was the cause. */
export interface Failure {
  error: unknown;
  what: string;
  action?: string;
}

const STATUS_TEXT: Record<Status, string> = {
  draft: 'Draft',
  published: 'Published',
  modified: 'Modified: changes not published',
};

/**
 * The editor's action bar, kept in view at the bottom of the window: the document's status and whether the form
 * has unsaved changes, save and publish (unpublish, discard the draft and delete as the role may), and the outcome
 * of the last action right beside them.
 */
export function EditorActions(props: {
  type: ContentType;
  mayWrite: boolean;
  mayDelete: boolean;
  busy: boolean;
  dirty: boolean;
  isNew: boolean;
  status: Status | undefined;
  deleting: boolean;
  outcome: Outcome | undefined;
  failure: Failure | undefined;
  onPublish(): void;
  onTransition(name: 'unpublish' | 'discard-draft'): void;
  onDeleting(deleting: boolean): void;
  onDelete(): void;
}) {
  const { type, mayWrite, busy, status, deleting, outcome, failure } = props;
  // As in Strapi and Keystatic: nothing to save, no save; published and unchanged, no publish.
  const unchanged = !props.isNew && !props.dirty;
  return (
    <div class="action-bar" role="region" aria-label="Save and publish">
      <p class="state">
        {props.isNew ? (
          <span class="status draft">Not saved yet</span>
        ) : (
          type.draftAndPublish && status && <span class={`status ${status}`}>{STATUS_TEXT[status]}</span>
        )}
        {!props.isNew &&
          (props.dirty ? <span class="unsaved">Unsaved changes</span> : <span class="saved">No unsaved changes</span>)}
      </p>
      <div class="outcome" role="status" aria-live="polite">
        {outcome && (
          <p class={outcome.kind}>
            {outcome.text}{' '}
            {outcome.fieldId && (
              <a href={`#${outcome.fieldId}`} onClick={(e) => focusField(e, outcome.fieldId!)}>
                Go to the first one
              </a>
            )}
          </p>
        )}
        <ErrorNotice error={failure?.error} what={failure?.what ?? ''} action={failure?.action} />
      </div>
      <div class="buttons">
        {!mayWrite ? null : type.draftAndPublish ? (
          <>
            <button type="submit" disabled={busy || unchanged} aria-keyshortcuts="Control+S Meta+S">
              Save draft
            </button>
            <button
              type="button"
              class="primary"
              disabled={busy || (unchanged && status === 'published')}
              onClick={props.onPublish}
            >
              Publish
            </button>
            {(status === 'published' || status === 'modified') && (
              <button type="button" disabled={busy} onClick={() => props.onTransition('unpublish')}>
                Unpublish
              </button>
            )}
            {status === 'modified' && (
              <button type="button" disabled={busy} onClick={() => props.onTransition('discard-draft')}>
                Discard draft
              </button>
            )}
          </>
        ) : (
          <button type="submit" class="primary" disabled={busy || unchanged} aria-keyshortcuts="Control+S Meta+S">
            Save
          </button>
        )}
        {props.mayDelete && (
          <span class="delete">
            {deleting ? (
              <>
                <button type="button" class="danger" disabled={busy} onClick={props.onDelete}>
                  Delete for good
                </button>
                <button type="button" onClick={() => props.onDeleting(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" disabled={busy} onClick={() => props.onDeleting(true)}>
                Delete
              </button>
            )}
          </span>
        )}
      </div>
    </div>
  );
}

/** Takes the user to a field: its input (or the first control of its group), scrolled into view. */
export function focusField(e: Event | undefined, id: string) {
  e?.preventDefault();
  const at = document.getElementById(id);
  if (!at) return;
  const control = at.matches('input, select, textarea, button, [contenteditable]')
    ? at
    : at.querySelector<HTMLElement>('input, select, textarea, button, [contenteditable="true"]');
  (control ?? at).focus();
  (control ?? at).scrollIntoView({ block: 'center' });
}
