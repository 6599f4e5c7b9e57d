/**
 * The page's only script tag. A page the server rendered paints first and is made interactive
 * after: the app's code starts downloading once the first frame is on screen, so it never
 * competes with the stylesheet and the page's images for a slow connection (decision 016). The
 * shell of the other pages has nothing to paint, so the app starts at once.
 *
 * The app starts in steps, each its own task, so that a slow phone's main thread is never held
 * for long at a time (issue 23, decision 031): React DOM's evaluation first (the largest module),
 * then the app's; main.tsx then hydrates in slices.
 */
import { SSR_STATE_ID } from '@shared/page-rendering';
import './styles.css'; // a stylesheet link in the HTML's head, render-blocking as it should be

const afterFirstPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

if (document.getElementById(SSR_STATE_ID)) {
  await afterFirstPaint();
  await import('react-dom/client');
  await nextTask();
}
await import('./main');
