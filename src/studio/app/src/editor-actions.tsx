import type { ContentType } from './model';
import type { Status } from './status';

/** Save and publish, unpublish, discard the draft, and delete (after a confirmation), as the role may. */
export function EditorActions(props: {
  type: ContentType;
  mayWrite: boolean;
  mayDelete: boolean;
  busy: boolean;
  status: Status | undefined;
  deleting: boolean;
  onPublish(): void;
  onTransition(name: 'unpublish' | 'discard-draft'): void;
  onDeleting(deleting: boolean): void;
  onDelete(): void;
}) {
  const { type, mayWrite, busy, status, deleting } = props;
  return (
    <div class="actions">
      {!mayWrite ? null : type.draftAndPublish ? (
        <>
          <button type="submit" disabled={busy}>
            Save draft
          </button>
          <button type="button" class="primary" disabled={busy} onClick={props.onPublish}>
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
        <button type="submit" class="primary" disabled={busy}>
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
  );
}
