import { useEffect, useRef, useState } from 'preact/hooks';
import { session } from './api';
import { OwnerLinkOffer, PasswordForm, useOwnerLink } from './sign-in-parts';

/**
 * Said when the session ends under an open page (signed out in another tab, expired): the page stays as it is,
 * with what was typed, and takes up again once the user signs in, here or in another tab of this browser (which
 * this one hears of). "Not now" lets them read or copy the page; the next action that needs the session asks again.
 */
export function SessionEnded() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(true);
  const ownerLink = useOwnerLink();
  // Each time the session is found ended anew (a save tried meanwhile), the question comes back.
  useEffect(() => session.onChange(() => setOpen(session.ended)), []);
  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    else if (!open && d?.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      class="leave session-ended"
      aria-labelledby="ended-title"
      aria-describedby="ended-text"
      onCancel={(e) => {
        e.preventDefault();
        setOpen(false);
      }}
    >
      <h2 id="ended-title">Your session has ended</h2>
      <p id="ended-text">
        What you typed is kept on this page. Sign in again to save it: here, or in another tab of this browser (this
        page then carries on by itself).
      </p>
      {ownerLink && (
        <OwnerLinkOffer prefix="ended-">
          <p>
            Open a sign-in link that <code>{ownerLink}</code> printed in another tab, not this one: it signs you in as
            the project’s owner.
          </p>
        </OwnerLinkOffer>
      )}
      <PasswordForm prefix="ended-" title="With an account" />
      <div class="dialog-actions">
        <button type="button" onClick={() => setOpen(false)}>
          Not now
        </button>
      </div>
    </dialog>
  );
}
