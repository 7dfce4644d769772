import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEnv, type Env } from './_env';
import { ruleMatches } from '../../../src/tools/permissions/rules';
import { hostPermissionBroker } from '../../../src/host/permissions';
import { permissionRulesFile } from '../../../src/workspace/permissionRulesFile';
import { PermissionRules } from '../../../src/session/permissions';
import { suggestScope } from '../../../src/tools/permissions/scope';

describe('tools: permissions (§4.3, §17.3.1)', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
  });
  afterEach(() => {
    env.host.assertAllFramesAccepted();
    env.cleanup();
  });

  it('§4.3.1 a PERMISSION request carries tool_name, tool_input, affected_paths, risk_level, timeout_sec and default_value', async () => {
    writeFileSync(env.p('a.txt'), 'x\n');
    await env.call('Read', { file_path: env.p('a.txt') });
    assert.equal(env.host.interactions.length, 0, 'reads need no approval');
    await env.call('Edit', { file_path: env.p('a.txt'), old_string: 'x', new_string: 'y' });
    const req = env.host.interactions[0];
    assert.equal(req.interaction_type, 'PERMISSION');
    assert.equal(req.context?.tool_name, 'Edit');
    assert.deepEqual(req.context?.tool_input, { file_path: env.p('a.txt'), old_string: 'x', new_string: 'y' });
    assert.deepEqual(req.context?.affected_paths, ['a.txt']);
    assert.equal(req.timeout_sec, 300);
    assert.equal(req.default_value, 'reject');
    assert.deepEqual(req.options?.map((o) => o.value), ['allow_once', 'allow_session', 'allow_always', 'reject']);
    assert.equal(req.options?.[0].risk_level, 'moderate');
    // §13.3 order: request, interaction, result.
    assert.deepEqual(env.host.types().slice(-3), ['tool.invoke.request', 'agent.interaction.request', 'tool.invoke.result']);
  });

  it('§17.3.1 allow once asks again next time; allow for session does not ask again in that session only', async () => {
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_once' });
    await env.call('Write', { file_path: env.p('a.txt'), content: '1' });
    await env.call('Write', { file_path: env.p('a.txt'), content: '2' });
    assert.equal(env.host.interactions.length, 2);
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_session' });
    await env.call('Write', { file_path: env.p('a.txt'), content: '3' });
    await env.call('Write', { file_path: env.p('a.txt'), content: '4' });
    assert.equal(env.host.interactions.length, 3);
    assert.deepEqual(
      env.permissions.rules.list().map((r) => [r.tool_name, r.path_glob, r.decision, r.lifetime, r.session_id, r.created_by]),
      [['Write', '**', 'allow', 'session', env.host.session_id, 'test']],
    );
    const other = env.session();
    await env.call('Write', { file_path: env.p('b.txt'), content: 'b' }, other.runner);
    assert.equal(other.host.interactions.length, 1, 'a session grant does not leak into another session');
  });

  it('§17.3.1 always allow persists a rule (tool + path glob) in the injected file, visible and revocable', async () => {
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_always' });
    const r = await env.call('Write', { file_path: env.p('src/a.ts'), content: 'a' });
    assert.equal(r.status, 'success');
    const file = join(env.configDir, 'permissions.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { rules: { tool_name: string; path_glob: string; id: string }[] };
    assert.equal(saved.rules.length, 1);
    assert.equal(saved.rules[0].tool_name, 'Write');
    assert.equal(saved.rules[0].path_glob, 'src/**');
    // A fresh store on the same file (e.g. after a restart) sees it; a new session is not asked.
    const other = env.session();
    await env.call('Write', { file_path: env.p('src/b.ts'), content: 'b' }, other.runner);
    assert.equal(other.host.interactions.length, 0);
    assert.equal(hostPermissionBroker({ rulesFile: file }).rules.list().length, 1);
    // Outside the rule's glob: asked.
    other.host.answer = () => ({ kind: 'response', selected_value: 'reject' });
    await env.call('Write', { file_path: env.p('docs/c.md'), content: 'c' }, other.runner);
    assert.equal(other.host.interactions.length, 1);
    // Revoke: asked again.
    assert.equal(env.permissions.rules.revoke(saved.rules[0].id), true);
    assert.equal(env.permissions.rules.revoke(saved.rules[0].id), false);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).rules, []);
    await env.call('Write', { file_path: env.p('src/d.ts'), content: 'd' }, other.runner);
    assert.equal(other.host.interactions.length, 2);
  });

  it('§17.3.1 a Bash rule is a command prefix and never covers a compound command', async () => {
    env.host.answer = () => ({ kind: 'response', selected_value: 'allow_always' });
    await env.call('Bash', { command: 'echo hello' });
    const rules = env.permissions.rules.list();
    assert.deepEqual(rules.map((r) => [r.tool_name, r.command_prefix]), [['Bash', 'echo hello']]);
    env.host.answer = () => ({ kind: 'response', selected_value: 'reject' });
    await env.call('Bash', { command: 'echo hello world' });
    assert.equal(env.host.interactions.length, 1, 'prefix match, no prompt');
    const r = await env.call('Bash', { command: 'echo hello && touch pwned' });
    assert.equal(env.host.interactions.length, 2, 'compound command asks');
    assert.equal(r.error_code, 'PERMISSION_REJECTED');
    assert.equal(existsSync(env.p('pwned')), false);
    assert.equal(ruleMatches({ tool_name: 'Bash', command_prefix: 'npm test' }, { tool_name: 'Bash', paths: [], command: 'npm testing' }), false);
    assert.deepEqual(suggestScope({ tool_name: 'Bash', paths: [], command: 'ls  -la' }), { tool_name: 'Bash', command_prefix: 'ls -la' }, 'the whole command as shown (issue 12 finding 8)');
  });

  it('§4.3.1 reject returns the optional message to the agent and runs nothing', async () => {
    env.host.answer = () => ({ kind: 'response', selected_value: 'reject', text_input: 'use the other file' });
    const r = await env.call('Write', { file_path: env.p('a.txt'), content: 'x' });
    assert.equal(r.status, 'error');
    assert.equal(r.error_code, 'PERMISSION_REJECTED');
    assert.match(String(r.output), /this Write call was rejected: use the other file/);
    assert.equal(existsSync(env.p('a.txt')), false);
  });

  it('§17.3.1 a permission timeout rejects; a discarded prompt cancels', async () => {
    env.host.answer = () => ({ kind: 'timeout' });
    const r = await env.call('Bash', { command: 'touch ran' });
    assert.equal(r.status, 'error');
    assert.equal(r.error_code, 'PERMISSION_TIMEOUT');
    assert.equal(existsSync(env.p('ran')), false);
    env.host.answer = () => ({ kind: 'cancelled' });
    const c = await env.call('Bash', { command: 'touch ran' });
    assert.equal(c.status, 'cancelled');
    assert.equal(existsSync(env.p('ran')), false);
  });

  it('§6.3.2 plan and review modes block write and shell tools with "Tool not allowed in current mode", even if the host forgets', async () => {
    writeFileSync(env.p('a.txt'), 'x\n');
    for (const mode of ['plan', 'review'] as const) {
      env.host.mode = mode;
      for (const [name, input] of [
        ['Write', { file_path: env.p('b.txt'), content: 'y' }],
        ['Edit', { file_path: env.p('a.txt'), old_string: 'x', new_string: 'y' }],
        ['MultiEdit', { file_path: env.p('a.txt'), edits: [{ old_string: 'x', new_string: 'y' }] }],
        ['Bash', { command: 'touch ran' }],
      ] as const) {
        const r = await env.call(name, input);
        assert.equal(r.status, 'error');
        assert.equal(r.output, 'Tool not allowed in current mode');
      }
      for (const [name, input] of [
        ['Read', { file_path: env.p('a.txt') }],
        ['Grep', { pattern: 'x' }],
        ['Glob', { pattern: '*' }],
        ['LS', { path: env.dir }],
        ['TodoRead', {}],
      ] as const) {
        assert.equal((await env.call(name, input)).status, 'success', `${name} in ${mode}`);
      }
    }
    assert.equal(env.host.interactions.length, 0, 'blocked before any prompt');
    assert.equal(existsSync(env.p('ran')), false);
    assert.equal(readFileSync(env.p('a.txt'), 'utf8'), 'x\n');
  });

  it('§6.3.2 the host checkTool refusal is returned as the tool result', async () => {
    env.host.checkToolImpl = (name) => (name === 'Glob' ? { allowed: false, message: 'Tool not allowed in current mode' } : { allowed: true });
    const r = await env.call('Glob', { pattern: '*' });
    assert.equal(r.status, 'error');
    assert.equal(r.output, 'Tool not allowed in current mode');
    assert.equal(env.host.ofType('tool.invoke.result')[0].payload.output, 'Tool not allowed in current mode');
  });

  it('permissions: paths outside the workspace are refused (.., absolute, symlink); with the setting they need a dangerous permission', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'rawp-outside-'));
    try {
      writeFileSync(join(outside, 'secret.txt'), 'secret\n');
      symlinkSync(join(outside, 'secret.txt'), env.p('link.txt'));
      const viaDots = await env.call('Read', { file_path: '../' + join(outside, 'secret.txt').split('/').slice(-2).join('/') });
      assert.equal(viaDots.error_code, 'FS_OUTSIDE_WORKSPACE');
      const abs = await env.call('Write', { file_path: join(outside, 'new.txt'), content: 'x' });
      assert.equal(abs.error_code, 'FS_OUTSIDE_WORKSPACE');
      // Names the setting where there is one (the CLI has none: it said "allow it in the settings").
      assert.match(String(abs.output), /is outside the workspace .*; tools work inside it \(in the editor, the setting rawp\.permissions\.allowOutsideWorkspace makes them ask/);
      const link = await env.call('Read', { file_path: env.p('link.txt') });
      assert.equal(link.error_code, 'FS_OUTSIDE_WORKSPACE');
      assert.equal(existsSync(join(outside, 'new.txt')), false);
      assert.equal(env.host.interactions.length, 0);

      const loose = makeEnv({ settings: { allowOutsideWorkspace: true }, allowOutside: true });
      try {
        loose.host.answer = () => ({ kind: 'response', selected_value: 'reject' });
        const asked = await loose.call('Read', { file_path: join(outside, 'secret.txt') });
        assert.equal(asked.error_code, 'PERMISSION_REJECTED');
        const req = loose.host.interactions[0];
        assert.deepEqual(req.options?.map((o) => o.value), ['allow_once', 'reject'], 'no lasting grant outside the workspace');
        assert.equal(req.options?.[0].risk_level, 'dangerous');
        assert.match(req.question_text, /OUTSIDE THE WORKSPACE/);
        loose.host.answer = () => ({ kind: 'response', selected_value: 'allow_once' });
        const ok = await loose.call('Read', { file_path: join(outside, 'secret.txt') });
        assert.equal(ok.status, 'success');
        assert.match(String(ok.output), /secret/);
        symlinkSync(join(outside, 'secret.txt'), loose.p('link.txt'));
        const stillLink = await loose.call('Read', { file_path: loose.p('link.txt') });
        assert.equal(stillLink.error_code, 'FS_OUTSIDE_WORKSPACE', 'symlinks stay refused even when outside paths are allowed');
        loose.host.assertAllFramesAccepted();
      } finally {
        loose.cleanup();
      }
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('§17.3.1 a corrupt rules file is kept aside, never overwritten', async () => {
    const file = join(env.configDir, 'permissions.json');
    writeFileSync(file, '{ not json');
    const store = new PermissionRules({ persistence: permissionRulesFile(file, () => new Date(1234)) });
    assert.deepEqual(store.list(), []);
    assert.match(store.loadError ?? '', /could not be read/);
    assert.equal(readFileSync(file, 'utf8'), '{ not json', 'reading it leaves it where it is');
    store.add({ tool_name: 'Write', path_glob: '**' }, { decision: 'allow', lifetime: 'always', session_id: 's', created_by: 'builtin' });
    assert.equal(readFileSync(`${file}.corrupt-1234`, 'utf8'), '{ not json', 'moved aside before the first write');
    assert.equal(hostPermissionBroker({ rulesFile: file }).rules.list().length, 1);
  });
});
