/**
 * One value that components in different parts of the tree read and set, outside React's state
 * (`useSyncExternalStore`): setting it renders only the components that read it.
 */
import { useSyncExternalStore } from 'react';

export function valueStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next: T) => {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export type ValueStore<T> = ReturnType<typeof valueStore<T>>;

/** The store's value, re-rendering when it changes; `serverValue` while rendering on the server. */
export function useValue<T>(store: ValueStore<T>, serverValue: T): T {
  return useSyncExternalStore(store.subscribe, store.get, () => serverValue);
}
