import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();
addEventListener('popstate', () => listeners.forEach((fn) => fn()));

/** Goes to a Studio path without reloading the page (the server answers the app for any /admin path). */
export function navigate(to: string, replace = false) {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((fn) => fn());
}

/** The current path and query, re-rendering on every navigation. */
export function useLocation(): { path: string; params: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = () => setTick((n) => n + 1);
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, []);
  return { path: location.pathname.replace(/\/+$/, ''), params: new URLSearchParams(location.search) };
}

/** A real link (middle-click and copy work) that navigates in place on a plain click. */
export function Link(props: { href: string; class?: string; children: ComponentChildren; 'aria-current'?: 'page' }) {
  return (
    <a
      {...props}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.href);
      }}
    />
  );
}
