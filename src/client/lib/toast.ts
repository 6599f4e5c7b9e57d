/**
 * Toasts, with react-hot-toast (and goober, the style engine it evaluates at import) loaded at
 * the first one rather than with every page that can raise one: the phone lists, the search
 * and a phone's page spent about 30 ms of main-thread script on it before they were interactive
 * (issue 23). A toast raised while it loads waits a moment; the toaster mounts with the first.
 */

import { useSyncExternalStore } from 'react';
import type { Renderable, Toast, ToastOptions, ValueOrFunction } from 'react-hot-toast';

type HotToast = typeof import('react-hot-toast').default;
type Message = ValueOrFunction<Renderable, Toast>;

let hotToast: Promise<HotToast> | undefined;
let wanted = false;
const listeners = new Set<() => void>();

function load(): Promise<HotToast> {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  hotToast ??= import('react-hot-toast').then((m) => m.default);
  return hotToast;
}

export const toast = {
  success: (message: Message, options?: ToastOptions) => {
    void load().then((t) => t.success(message, options));
  },
  error: (message: Message, options?: ToastOptions) => {
    void load().then((t) => t.error(message, options));
  },
  dismiss: (id?: string) => {
    void hotToast?.then((t) => t.dismiss(id));
  },
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether a toast was raised yet: the toaster (providers.tsx) mounts from then on. */
export const useToastsWanted = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
