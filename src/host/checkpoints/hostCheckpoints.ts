// How a SessionHost gets its checkpoints (issue 17): on when the host has a state folder (kept in
// `<state>/checkpoints`) or a `dir` is given, and a workspace; `false` turns them off for the host's
// life (`rawp serve --no-checkpoints`), `enabled` turn by turn (the editor's setting, decision 635). Restores go
// through the given FsBackend (the editor passes its VS Code backend), else a Node one.
import { join } from 'node:path';
import type { Hub } from '../../session/hub';
import type { Logger } from '../../session/ports';
import type { SessionRegistry } from '../../session/registry';
import type { FsBackend } from '../../workspace/fsBackend';
import { NodeFsBackend } from '../../workspace/nodeFsBackend';
import { CheckpointService, type CheckpointServiceOptions } from './checkpointService';
import { SessionCheckpoints } from './sessionCheckpoints';
import { refuseCheckpointFrames } from './checkpointsOff';
import type { ObservationLedger } from '../../tools/ledger/ledger';

export type HostCheckpointOptions = false | (Partial<Pick<CheckpointServiceOptions, 'unsavedFiles' | 'restored' | 'maxFileBytes' | 'maxCheckpoints' | 'beforeTurnWaitMs'>> & { dir?: string; /** Asked on first use (the editor builds its backend lazily). */ fs?: () => FsBackend; /** Asked at each turn's start: false, the turn takes no snapshot and gets no checkpoint. */ enabled?: () => boolean });

export function createCheckpoints(
  options: { checkpoints?: HostCheckpointOptions; state?: { dir: string }; workspacePath: string; logger: Logger; /** The ledger the host's agents share: a rewind forgets what it restored there. */ ledger?: () => ObservationLedger | undefined },
  hub: Hub,
  registry: SessionRegistry,
): SessionCheckpoints | undefined {
  const given = options.checkpoints;
  const cp = given === false ? undefined : given;
  const dir = given === false || !options.workspacePath ? undefined : (cp?.dir ?? (options.state ? join(options.state.dir, 'checkpoints') : undefined));
  if (!dir) {
    // Lives as long as the hub: a master's restore or diff is answered CHECKPOINTS_OFF.
    refuseCheckpointFrames(hub, registry);
    return undefined;
  }
  const service = new CheckpointService({
    dir,
    workspace: options.workspacePath,
    fs: cp?.fs ?? (() => new NodeFsBackend([options.workspacePath])),
    logger: options.logger,
    ...(cp?.unsavedFiles ? { unsavedFiles: cp.unsavedFiles } : {}),
    restored: (abs) => {
      const ledger = options.ledger?.();
      for (const a of abs) ledger?.forgetTarget(a);
      cp?.restored?.(abs);
    },
    ...(cp?.maxFileBytes ? { maxFileBytes: cp.maxFileBytes } : {}),
    ...(cp?.maxCheckpoints ? { maxCheckpoints: cp.maxCheckpoints } : {}),
    ...(cp?.beforeTurnWaitMs !== undefined ? { beforeTurnWaitMs: cp.beforeTurnWaitMs } : {}),
  });
  return new SessionCheckpoints(service, hub, registry, options.logger, cp?.enabled ?? (() => true));
}
