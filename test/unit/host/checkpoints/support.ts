// Helpers of the checkpoint tests: a connection that answers every permission ask with "allow
// once" (the person clicking Allow), the user's own git repository and its fingerprint, hashes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../../src/protocol/build';
import { EVERY_FEATURE } from '../../../../src/protocol/capabilities';
import { checkpointPayloadOf, CHECKPOINT_CREATED_TYPE, CHECKPOINT_RESTORED_TYPE, type CheckpointCreatedPayload, type CheckpointRestoredPayload } from '../../../../src/protocol/checkpointFrames';
import type { Connection, WireFrame } from '../../../../src/session/connection';
import type { Hub } from '../../../../src/session/hub';

/** A local view that allows every tool once, as a person would. */
export class AllowingView implements Connection {
  readonly kind = 'local' as const;
  readonly features = EVERY_FEATURE;
  readonly frames: WireFrame[] = [];
  /** While false, asks wait (the turn stays open); `release()` answers them. */
  answering = true;
  private held: { interaction_id: string; session_id: string; allow: string }[] = [];
  constructor(
    readonly id: string,
    private readonly hub: Hub,
  ) {}
  send(frame: WireFrame): void {
    this.frames.push(frame);
    if (frame.type === 'agent.interaction.request') {
      const { interaction_id, options } = frame.payload;
      const allow = options?.find((o) => /allow/i.test(o.value))?.value ?? 'allow_once';
      this.held.push({ interaction_id, session_id: frame.session_id, allow });
      if (this.answering) queueMicrotask(() => this.release());
    }
  }
  release(): void {
    this.answering = true;
    for (const q of this.held.splice(0)) this.hub.receive(this.id, buildFrame('control.interaction.response', { interaction_id: q.interaction_id, selected_value: q.allow }, { session_id: q.session_id }));
  }
  asks(): number {
    return this.frames.filter((f) => f.type === 'agent.interaction.request').length;
  }
  close(): void {}
  turnEnds(): number {
    return this.frames.filter((f) => f.type === 'session.turn.end').length;
  }
  created(): CheckpointCreatedPayload[] {
    return this.frames.flatMap((f) => checkpointPayloadOf(CHECKPOINT_CREATED_TYPE, f) ?? []);
  }
  restored(): CheckpointRestoredPayload[] {
    return this.frames.flatMap((f) => checkpointPayloadOf(CHECKPOINT_RESTORED_TYPE, f) ?? []);
  }
}

/** Plain git in the user's repository, with the test's own identity (never the shadow's env). */
export function userGit(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@example.invalid', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@example.invalid' } });
}

export function initUserRepo(dir: string): void {
  userGit(dir, 'init', '-q');
  userGit(dir, 'add', '-A');
  userGit(dir, 'commit', '-q', '-m', 'user commit');
}

/** What must not change in the user's repository: its tree, index bytes and every ref. */
export function userRepoFingerprint(dir: string): { tree: string; index: string; refs: string; status: string } {
  return {
    tree: userGit(dir, 'rev-parse', 'HEAD^{tree}').trim(),
    index: sha256(readFileSync(join(dir, '.git', 'index'))),
    refs: userGit(dir, 'for-each-ref', '--format=%(refname) %(objectname)'),
    status: existsSync(join(dir, '.git', 'rawp')) ? 'rawp folder present' : 'clean',
  };
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function fileHash(path: string): string | undefined {
  return existsSync(path) ? sha256(readFileSync(path)) : undefined;
}

export function byPath(files: { path: string; change: string }[]): string[] {
  return files.map((f) => `${f.change} ${f.path}`).sort();
}
