import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

/**
 * What holds the user on the current screen (a form with unsaved changes): asked before every way out the app
 * sees. It answers a question to put to the user, or undefined to let them go.
 */
let guard: (() => string | undefined) | undefined;

/** A way out the guard stopped, waiting for the user's answer (the leave dialog shows it). */
export interface Pending {
  question: string;
  leave(): void;
  stay(): void;
}
let pending: Pending | undefined;
const pendingListeners = new Set<() => void>();
const setPending = (p: Pending | undefined) => {
  pending = p;
  pendingListeners.forEach((fn) => fn());
};

/** Each history entry the app makes carries its place, so a move back or forward knows how far it went. */
const placeOf = (state: unknown) => (state as { place?: number } | null)?.place;
let place = placeOf(history.state) ?? 0;
if (placeOf(history.state) === undefined) history.replaceState({ place }, '');
/** The address of the screen shown, without its fragment (a move to `#main` leaves the screen as it is). */
const addressNow = () => location.pathname + location.search;
let here = addressNow();
/** A move the app makes itself to undo a guarded back or forward: its popstate is not a navigation. */
let undoing = false;
/** A guarded move the user confirmed: its popstate goes through. */
let allowed = false;

const notify = () => listeners.forEach((fn) => fn());

addEventListener('popstate', (e) => {
  const to = placeOf(e.state);
  const url = addressNow();
  const moved = () => {
    if (to !== undefined) place = to;
    here = url;
  };
  if (undoing || url === here) {
    undoing = false;
    return moved();
  }
  const question = allowed || to === undefined ? undefined : guard?.();
  allowed = false;
  if (!question) {
    moved();
    return notify();
  }
  // The address has already changed: go back to where the user was, then ask.
  const delta = place - to!;
  undoing = true;
  history.go(delta);
  setPending({
    question,
    leave: () => {
      setPending(undefined);
      allowed = true;
      history.go(-delta);
    },
    stay: () => setPending(undefined),
  });
});

/** Runs `go`, a way out of the current screen, once the guard (if the screen set one) lets the user go. */
export function leave(go: () => void, force = false) {
  const question = force ? undefined : guard?.();
  if (!question) return go();
  setPending({
    question,
    leave: () => {
      setPending(undefined);
      go();
    },
    stay: () => setPending(undefined),
  });
}

/**
 * Goes to a Studio path without reloading the page (the server answers the app for any /admin path). A guard
 * set by the screen is asked first, unless `force` (the screen itself leaving after a save or a delete).
 */
export function navigate(to: string, opts: { replace?: boolean; force?: boolean } | boolean = {}) {
  const { replace = false, force = false } = typeof opts === 'boolean' ? { replace: opts } : opts;
  leave(() => {
    if (replace) history.replaceState({ place }, '', to);
    else history.pushState({ place: ++place }, '', to);
    here = addressNow();
    notify();
  }, force);
}

/**
 * Holds the user on this screen while `question()` answers a question: in-app links, back and forward ask it in
 * the app's dialog, and a reload or a closed tab in the browser's own (`beforeunload`).
 */
export function useLeaveGuard(question: () => string | undefined) {
  // The question of the latest render, asked when a way out is taken: a change made the moment before counts.
  const latest = useRef(question);
  latest.current = question;
  useEffect(() => {
    const mine = () => latest.current();
    guard = mine;
    const unload = (e: BeforeUnloadEvent) => {
      if (!mine()) return;
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    addEventListener('beforeunload', unload);
    return () => {
      if (guard === mine) guard = undefined;
      removeEventListener('beforeunload', unload);
    };
  }, []);
}

/** The way out waiting for the user's answer, if any. */
export function usePending(): Pending | undefined {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = () => setTick((n) => n + 1);
    pendingListeners.add(fn);
    return () => void pendingListeners.delete(fn);
  }, []);
  return pending;
}

/** The current path and query, re-rendering on every navigation. */
export function useLocation(): { path: string; params: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = () => setTick((n) => n + 1);
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, []);
  return { path: location.pathname.replace(/(?<!\/)\/+$/, ''), params: new URLSearchParams(location.search) };
}

/** A real link (middle-click and copy work) that navigates in place on a plain click. */
export function Link(props: {
  href: string;
  class?: string;
  children: ComponentChildren;
  'aria-current'?: 'page';
  onClick?: () => void;
}) {
  const { onClick, ...rest } = props;
  return (
    <a
      {...rest}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        onClick?.();
        navigate(props.href);
      }}
    />
  );
}
