/**
 * A control that needs a signed-in person (save a search, report a listing) sends a visitor to
 * sign in and back to the same page with a parameter of its own set, then, once back, acts once
 * and takes the parameter out of the URL (so a reload or the Back button does not act again).
 */
import { useEffect, useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { signInPathFrom } from './redirect';

export function useResumeAfterSignIn(
  param: string,
  /** What to do once back: the control's dialog opened (it checks the person again). */
  onResume: () => void,
): { signInPath: () => string } {
  const here = useLocation();
  const [params, setParams] = useSearchParams();
  const resume = params.has(param);
  const resumed = useRef(false);
  useEffect(() => {
    if (!resume || resumed.current) return;
    resumed.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(param);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
    onResume();
  });
  return {
    signInPath: () => {
      const back = new URLSearchParams(here.search);
      back.set(param, '1');
      return signInPathFrom(`${here.pathname}?${back}`);
    },
  };
}
