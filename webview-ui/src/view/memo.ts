// `memo` on core Preact. preact/compat has one, but importing compat installs its React emulation
// for every element the view ever creates (options.vnode rewrites each element's props: event
// names, className, camelCase attributes): in the heavy-session benchmark that hook alone took
// about 1 ms of every live append. The view needs none of that emulation, only this (decision 514).
import { createElement, type Component, type FunctionComponent } from 'preact';

/** `Inner`, re-rendered only when `same(previous props, next props)` is false. */
export function memo<P extends object>(Inner: FunctionComponent<P>, same: (previous: P, next: P) => boolean): FunctionComponent<P> {
  function shouldComponentUpdate(this: Component<P>, next: P): boolean {
    return !same(this.props, next);
  }
  function Memo(this: Component<P>, props: P) {
    this.shouldComponentUpdate = shouldComponentUpdate;
    return createElement(Inner, props);
  }
  Memo.displayName = `Memo(${Inner.displayName ?? Inner.name})`;
  return Memo;
}
