// The seam between the file tools and the read-before-write policy. Tools only dispatch events:
// "I observed this file", "I intend to write it", "I intend to edit it". A policy (the observation
// ledger, src/tools/ledger) answers the intents; the first policy that returns a decision wins.
// With no policy installed, intents answer `unconditional` — bare provider behaviour — and no tool
// schema changes, because the tools never call the policy directly.
import type { Disposable, FsVersion, WriteGuard } from '../workspace/fsBackend';
import type { NotText } from '../workspace/textOnlyWrites';

export interface FsTarget {
  /** Identity of the file in the ledger (the resolved absolute path). */
  targetKey: string;
  /** How messages name it (workspace-relative where possible). */
  displayPath: string;
}

export type FsObservation =
  /**
   * `notText`: Read found a NUL byte and showed none of the file (`binary`, decision 602), or bytes
   * that are not UTF-8 (`not-utf8`, decision 608): Edit and Write refuse it, so the ledger refuses
   * their intents before the permission prompt.
   */
  | { kind: 'present'; version: FsVersion; notText?: NotText }
  | { kind: 'absent' };

export interface FsPolicy {
  /** A guard for a whole-file write, or undefined to pass. */
  writeIntent?(target: FsTarget, actor: string): WriteGuard | undefined;
  /** A guard for an edit, or undefined to pass; throws FsError to refuse (FS_NOT_OBSERVED, FS_NOT_FOUND). */
  editIntent?(target: FsTarget, actor: string): WriteGuard | undefined;
  observed?(target: FsTarget, actor: string, observation: FsObservation): void;
}

export class FsEvents {
  private readonly policies: FsPolicy[] = [];

  install(policy: FsPolicy): Disposable {
    this.policies.push(policy);
    return {
      dispose: () => {
        const i = this.policies.indexOf(policy);
        if (i >= 0) this.policies.splice(i, 1);
      },
    };
  }

  get installed(): number {
    return this.policies.length;
  }

  writeIntent(target: FsTarget, actor: string): WriteGuard {
    for (const p of this.policies) {
      const g = p.writeIntent?.(target, actor);
      if (g) return g;
    }
    return { kind: 'unconditional' };
  }

  editIntent(target: FsTarget, actor: string): WriteGuard {
    for (const p of this.policies) {
      const g = p.editIntent?.(target, actor);
      if (g) return g;
    }
    return { kind: 'unconditional' };
  }

  observed(target: FsTarget, actor: string, observation: FsObservation): void {
    for (const p of this.policies) p.observed?.(target, actor, observation);
  }
}
