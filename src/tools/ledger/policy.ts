// The read-before-write policy over the ledger, as a detachable FsPolicy (read-before-write.md):
//   writeIntent: present -> replaceIfVersion(version); unobserved or absent -> createIfAbsent
//     (a new file needs no read; someone else's file is never overwritten unread).
//   editIntent:  unobserved -> FS_NOT_OBSERVED; absent -> FS_NOT_FOUND; present -> replaceIfVersion.
//   Both: a file Read found binary or not UTF-8 -> FS_NOT_TEXT, before the permission prompt
//   (decisions 602, 608).
// Authorization looks only at freshness, not at how much was read: a 10-line window authorizes a
// whole-file edit for as long as the file is unchanged.
import { FsError, type Disposable, type WriteGuard } from '../../workspace/fsBackend';
import type { FsEvents, FsObservation, FsPolicy, FsTarget } from '../fsEvents';
import { ObservationLedger } from './ledger';
import { notTextFileError } from '../../workspace/textOnlyWrites';

export class ObservationPolicy implements FsPolicy {
  constructor(readonly ledger: ObservationLedger = new ObservationLedger()) {}

  writeIntent(target: FsTarget, actor: string): WriteGuard {
    const prior = this.ledger.get(actor, target.targetKey);
    if (prior?.kind === 'present' && prior.notText) throw notTextFileError(target.displayPath, prior.notText);
    if (prior?.kind === 'present') return { kind: 'replaceIfVersion', version: prior.version };
    return { kind: 'createIfAbsent' };
  }

  editIntent(target: FsTarget, actor: string): WriteGuard {
    const prior = this.ledger.get(actor, target.targetKey);
    if (prior === undefined) throw new FsError(`edit requires reading "${target.displayPath}" first`, 'FS_NOT_OBSERVED');
    if (prior.kind === 'absent') throw new FsError(`cannot edit "${target.displayPath}": not found`, 'FS_NOT_FOUND');
    if (prior.notText) throw notTextFileError(target.displayPath, prior.notText);
    return { kind: 'replaceIfVersion', version: prior.version };
  }

  observed(target: FsTarget, actor: string, observation: FsObservation): void {
    this.ledger.set(actor, target.targetKey, observation);
  }
}

/** Installs the policy; disposing it returns the tools to bare provider behaviour. */
export function attachObservationPolicy(events: FsEvents, policy: ObservationPolicy = new ObservationPolicy()): Disposable & { policy: ObservationPolicy } {
  const sub = events.install(policy);
  return { policy, dispose: () => sub.dispose() };
}
