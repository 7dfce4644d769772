// The adapter of a session that continues an ended one (decisions 630, 641): the agent's own
// adapter, whose announced capabilities carry the small link to where the session came from
// (CONTINUED_FROM_KEY; the digest is a frame of its own, published once). The engine stays the one
// that stamps `session.capabilities`, so the link is in the session's own opening, its history and
// journal, and reaches the editor's view and every master alike — and a restored session, whose
// agent announces itself again, announces only the link again.
import { CONTINUED_FROM_KEY, type ContinuedFrom } from '../../protocol/continuation';
import type { AgentAdapter } from '../../session/agentAdapter';

export function continuingAdapter(adapter: AgentAdapter, from: ContinuedFrom | undefined): AgentAdapter {
  if (!from) return adapter;
  const wrapped: AgentAdapter = {
    info: adapter.info,
    async start(host) {
      const started = await adapter.start(host);
      const extensions = { ...started.capabilities.extensions, [CONTINUED_FROM_KEY]: from };
      return { ...started, capabilities: { ...started.capabilities, extensions } };
    },
    prompt: (p, signal) => adapter.prompt(p, signal),
    dispose: () => adapter.dispose(),
  };
  // The engine offers what an adapter has: the optional ones only where the agent's own has them.
  if (adapter.setMode) wrapped.setMode = (m) => adapter.setMode!(m);
  if (adapter.compact) wrapped.compact = (i, r) => adapter.compact!(i, r);
  if (adapter.refreshTools) wrapped.refreshTools = () => adapter.refreshTools!();
  return wrapped;
}
