// Preact glue: the store in a context, and hooks that re-render a component after a change: each
// one (useStoreVersion), or one that changed what the component picks (useStoreSelect).
import { createContext } from 'preact';
import { useContext, useEffect, useReducer, useRef } from 'preact/hooks';
import type { ChatStore } from './store';

export const StoreContext = createContext<ChatStore | undefined>(undefined);

export function useStore(): ChatStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('StoreContext is missing');
  return store;
}

/** Every change grows `version`. */
const everyChange = (s: ChatStore): readonly unknown[] => [s.version];

/** The store, re-rendering this component whenever it changes. */
export function useStoreVersion(): ChatStore {
  return useStoreSelect(everyChange);
}

/**
 * The store, re-rendering this component only when one of the values `select` picks changed
 * (compared one by one with Object.is). The transcript is changed in place (its `version` grows),
 * so a selector picks primitives or objects the reducer replaces. A flush of text deltas then
 * re-renders the transcript and what reads it, not the header, the composer or the banners,
 * whose output it cannot change (issue 18, decision 507).
 */
export function useStoreSelect(select: (store: ChatStore) => readonly unknown[]): ChatStore {
  const store = useStore();
  const [, bump] = useReducer((n: number, _: number) => n + 1, 0);
  const picked = useRef<readonly unknown[]>();
  const selectRef = useRef(select);
  selectRef.current = select;
  picked.current = select(store);
  useEffect(() => {
    const check = () => {
      const next = selectRef.current(store);
      const last = picked.current;
      if (last && last.length === next.length && next.every((v, i) => Object.is(v, last[i]))) return;
      picked.current = next;
      bump(0);
    };
    const unsubscribe = store.subscribe(check);
    // A change between this render and the subscription would otherwise go unseen.
    check();
    return unsubscribe;
  }, [store]);
  return store;
}

/** For components that read only what the host says outside the transcript. */
export const outsideTranscript = (s: ChatStore): readonly unknown[] => [s.metaVersion];
