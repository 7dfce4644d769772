// Preact glue: the store in a context, and a hook that re-renders a component after each change.
import { createContext } from 'preact';
import { useContext, useEffect, useReducer } from 'preact/hooks';
import type { ChatStore } from './store';

export const StoreContext = createContext<ChatStore | undefined>(undefined);

export function useStore(): ChatStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('StoreContext is missing');
  return store;
}

/** The store, re-rendering this component whenever it changes. */
export function useStoreVersion(): ChatStore {
  const store = useStore();
  const [, bump] = useReducer((n: number, _: number) => n + 1, 0);
  useEffect(() => store.subscribe(() => bump(0)), [store]);
  return store;
}
