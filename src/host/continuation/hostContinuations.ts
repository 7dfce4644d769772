// The continuations of one SessionHost (sessionHost.ts), wired to its hub, registry and sessions:
// what Continuations (continuations.ts) asks of the host, kept here so the host's file stays small.
import { join } from 'node:path';
import { buildEarlierChatFrame } from '../../protocol/continuation';
import type { Hub } from '../../session/hub';
import type { SessionRegistry } from '../../session/registry';
import type { SessionEntry } from '../sessionEntry';
import type { SessionHostOptions } from '../sessionHostOptions';
import { Continuations, type ContinuationPorts, type EndedRecordsStore } from './continuations';
import { endedFileStore } from './endedStore';

/** The parts of the host the ports read; read when a port is called (the hub is made after this). */
export interface ContinuingHost {
  readonly hub: Hub;
  readonly registry: SessionRegistry;
  has(session_id: string): boolean;
}

/** `stateDir`: the open state folder (the journal's), where `ended.json` is kept; undefined until it is open. */
export function hostContinuations(host: ContinuingHost, entries: ReadonlyMap<string, SessionEntry>, start: ContinuationPorts['start'], options: () => Pick<SessionHostOptions, 'agents' | 'blocked' | 'detectAgentsAgain' | 'logger'>, stateDir: () => string | undefined): Continuations {
  let store: EndedRecordsStore | undefined;
  return new Continuations({
    store: () => {
      const dir = stateDir();
      return dir === undefined ? undefined : (store ??= endedFileStore(join(dir, 'ended.json'), options().logger));
    },
    start,
    // Into the session like any of its frames (stamped by its own clock, §2.3): history, journal,
    // and every connection, each given it within its own limits (decision 641).
    publish: (id, digest) => host.hub.publish(id, buildEarlierChatFrame(id, digest, host.registry.get(id)?.clock)),
    has: (id) => host.has(id),
    share: (id) => host.hub.share(id),
    isShared: (id) => host.hub.isShared(id),
    liveOn: (agent, conversation) => [...entries].find(([id, e]) => e.agent === agent && e.agentSessionId === conversation && host.has(id))?.[0],
    agents: () => options().agents(),
    detectAgain: () => options().detectAgentsAgain?.() ?? Promise.resolve(),
    blocked: () => options().blocked?.(),
  });
}
