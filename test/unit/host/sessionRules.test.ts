// A session's "for this session" permission rules survive a restart with it (issue 11 item 6):
// the host journals what its rules store reports and gives it back to the restored session.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionRuleRecord, SessionRulesPort } from '../../../src/host/sessionRules';
import { harness, type Harness } from './harness';
import { PermissionBroker, PermissionRules, standardPermissionPolicy } from '../../../src/session/permissions';
import { ruleMatches } from '../../../src/tools/permissions/rules';

/** The smallest rules store: session rules by session, with change listeners (the real one is item 4's). */
class MemoryRules implements SessionRulesPort {
  readonly bySession = new Map<string, SessionRuleRecord[]>();
  private readonly listeners = new Set<() => void>();
  of(session_id: string): SessionRuleRecord[] {
    return [...(this.bySession.get(session_id) ?? [])];
  }
  restore(session_id: string, rules: readonly SessionRuleRecord[]): void {
    this.bySession.set(session_id, [...rules]);
    this.changed();
  }
  grant(session_id: string, rule: SessionRuleRecord): void {
    this.bySession.set(session_id, [...this.of(session_id), rule]);
    this.changed();
  }
  onChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}

describe('host: session permission rules across a restart', () => {
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.cleanup());

  it('"allow for this session" given before a restart still holds for the restored session, and only for it', async () => {
    const rules = new MemoryRules();
    const host = h.makeHost({ sessionRules: rules });
    const id = await host.create();
    const other = await host.create();
    const rule: SessionRuleRecord = { tool_name: 'Bash', command_prefix: 'npm test', decision: 'allow', created_by: 'builtin', created_at: new Date().toISOString() };
    rules.grant(id, rule);
    const index = JSON.parse(readFileSync(join(h.storeDir, 'sessions.json'), 'utf8')) as { sessions: { session_id: string; session_rules?: unknown[] }[] };
    assert.deepEqual(index.sessions.find((s) => s.session_id === id)?.session_rules, [rule], 'written to the index when granted');
    await host.dispose();

    const after = new MemoryRules();
    const host2 = h.makeHost({ sessionRules: after });
    assert.deepEqual((await host2.restoreAll()).sort(), [id, other].sort());
    assert.deepEqual(after.of(id), [rule]);
    assert.deepEqual(after.of(other), []);
  });

  it('issue 11 item 4 + 6: the host\'s one rules store is the port — a session rule of any agent comes back with its restored session, only for it', async () => {
    const broker = new PermissionBroker(standardPermissionPolicy(), new PermissionRules({ matches: ruleMatches }));
    const host = h.makeHost({ permissions: broker });
    const id = await host.create();
    const other = await host.create();
    broker.rules.add({ tool_name: 'Bash', command_prefix: 'npm test' }, { decision: 'allow', lifetime: 'session', session_id: id, created_by: 'claude-code' });
    const index = JSON.parse(readFileSync(join(h.storeDir, 'sessions.json'), 'utf8')) as { sessions: { session_id: string; session_rules?: SessionRuleRecord[] }[] };
    assert.deepEqual(index.sessions.find((s) => s.session_id === id)?.session_rules?.map((r) => [r.tool_name, r.command_prefix, r.created_by]), [['Bash', 'npm test', 'claude-code']]);
    await host.dispose();

    const broker2 = new PermissionBroker(standardPermissionPolicy(), new PermissionRules({ matches: ruleMatches }));
    const host2 = h.makeHost({ permissions: broker2 });
    assert.deepEqual((await host2.restoreAll()).sort(), [id, other].sort());
    const call = { tool_name: 'Bash', paths: [], command: 'npm test' };
    assert.equal(broker2.rules.find(call, id)?.created_by, 'claude-code', 'the restored session is not asked again');
    assert.equal(broker2.rules.find(call, other), undefined);
    assert.deepEqual(host2.permissionRules().map((r) => [r.lifetime, r.session_id]), [['session', id]]);
  });
});
