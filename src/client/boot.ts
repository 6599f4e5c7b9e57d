/**
 * The page's only script tag. A page the server rendered paints first and is made interactive
 * after: the app's code starts downloading once the first frame is on screen, so it never
 * competes with the stylesheet and the page's images for a slow connection (decision 016). The
 * shell of the other pages has nothing to paint, so the app starts at once.
 *
 * The app starts in steps, each its own task, so that a slow phone's main thread is never held
 * for long at a time (issue 23, decision 031). Its libraries are asked for all at once, each by an
 * import of its own, so each file is evaluated in a task of its own as it arrives, while the
 * files still download in parallel: React, React DOM, the router, the data layer, the app's
 * shared code. Then main.tsx, whose own file is all that is left to evaluate, hydrates in slices.
 * Evaluated as main.tsx's imports, the files after React DOM were one task of 85-135 ms at 4× CPU
 * (decision 066). Each step imports a module that re-exports one name (`./boot/*`): importing a
 * library itself would keep all of its exports in the build.
 */
import { SSR_STATE_ID } from '@shared/page-rendering';
import './styles.css'; // a stylesheet link in the HTML's head, render-blocking as it should be

const afterFirstPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));
const STEPS = [
  () => import('./boot/react'),
  () => import('react-dom/client'),
  () => import('./boot/router'),
  () => import('./boot/query'),
  () => import('./boot/app'),
];

/**
 * React Router numbers the history entry (`idx`) with a `replaceState` when the router starts,
 * which is after every step above. A visitor who leaves the page before then takes it into the
 * back/forward cache with that same-document navigation still on its way, and Chromium evicts it
 * (kCommitSameDocumentNavigation, reported as IgnoreEventAndEvict): going back loads the page
 * again. The entry is numbered here, first, as React Router would number it (decision 069).
 */
if (history.state?.idx == null) history.replaceState({ ...history.state, idx: 0 }, '');

if (document.getElementById(SSR_STATE_ID)) {
  await afterFirstPaint();
  await Promise.all(STEPS.map((step) => step()));
  await nextTask();
}
await import('./main');
