/**
 * Runs `work` in a task after the browser's next paint, and answers how to call it off: what a
 * tap shows (a box ticked) paints first, and what it starts (a navigation, with its loaders and
 * the layout that saving the scroll position forces) follows (issue 36, decision 063). A page
 * out of sight paints no frame: its work runs in the next task instead.
 */
export function afterNextPaint(work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') {
    timer = setTimeout(work, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(work, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
