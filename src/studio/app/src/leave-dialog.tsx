import { useLayoutEffect, useRef } from 'preact/hooks';
import { usePending } from './router';

/**
 * Asks before a way out of a screen with unsaved changes (an in-app link, back or forward): a modal dialog, so
 * the focus stays in it, with "Stay" focused first; Escape stays.
 */
export function LeaveDialog() {
  const pending = usePending();
  const dialog = useRef<HTMLDialogElement>(null);
  const stay = useRef<HTMLButtonElement>(null);
  // A layout effect, run as the answer renders: a passive one waits for the next frame, and until then the modal
  // dialog of a question already answered keeps the page inert, losing the keys and clicks meant for it.
  useLayoutEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (pending && !d.open) {
      d.showModal();
      stay.current?.focus();
    } else if (!pending && d.open) d.close();
  }, [pending]);
  return (
    <dialog
      ref={dialog}
      class="leave"
      aria-labelledby="leave-title"
      aria-describedby="leave-text"
      onCancel={(e) => {
        e.preventDefault();
        pending?.stay();
      }}
    >
      <h2 id="leave-title">Leave without saving?</h2>
      <p id="leave-text">{pending?.question}</p>
      <div class="dialog-actions">
        <button type="button" ref={stay} class="primary" onClick={() => pending?.stay()}>
          Stay on this page
        </button>
        <button type="button" class="danger" onClick={() => pending?.leave()}>
          Leave and discard changes
        </button>
      </div>
    </dialog>
  );
}
