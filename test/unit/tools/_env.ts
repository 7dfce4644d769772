// A temp workspace with the real NodeFsBackend, the real tools and a FakeHost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import { createSharedToolState, createToolRunner, type SharedToolState } from '../../../src/tools/toolkit';
import type { ToolRunner } from '../../../src/tools/runner';
import type { ToolSettings } from '../../../src/tools/types';
import type { SubagentRunner } from '../../../src/tools/subagent';
import { FakeHost } from '../../support/fakeHost';
import { hostPermissionBroker } from '../../../src/host/permissions';
import type { PermissionBroker } from '../../../src/session/permissions';

export interface Env {
  dir: string;
  configDir: string;
  host: FakeHost;
  runner: ToolRunner;
  shared: SharedToolState;
  /** The host's one permission broker (rules in configDir/permissions.json), shared by every session. */
  permissions: PermissionBroker;
  p(rel: string): string;
  /** A second session on the same workspace and shared state. */
  session(): { host: FakeHost; runner: ToolRunner };
  call(name: string, input: Record<string, unknown>, runner?: ToolRunner): ReturnType<ToolRunner['invoke']>;
  cleanup(): void;
}

export function makeEnv(opts: { settings?: Partial<ToolSettings>; ledger?: boolean; subagents?: SubagentRunner; allowOutside?: boolean } = {}): Env {
  const dir = mkdtempSync(join(tmpdir(), 'rawp-tools-'));
  const configDir = mkdtempSync(join(tmpdir(), 'rawp-conf-'));
  const fs = new NodeFsBackend([dir], { allowOutsideRoots: opts.allowOutside });
  const shared = createSharedToolState({ fs, settings: opts.settings, ledger: opts.ledger });
  const permissions = hostPermissionBroker({ rulesFile: join(configDir, 'permissions.json') });
  const host = new FakeHost(dir, undefined, permissions);
  const runner = createToolRunner(host, shared, { subagents: opts.subagents });
  const env: Env = {
    dir,
    configDir,
    host,
    runner,
    shared,
    permissions,
    p: (rel) => join(dir, rel),
    session() {
      const h = new FakeHost(dir, undefined, permissions);
      return { host: h, runner: createToolRunner(h, shared, { subagents: opts.subagents }) };
    },
    call: (name, input, r = runner) => r.invoke(name, input, new AbortController().signal),
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
  return env;
}
