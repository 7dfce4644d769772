// §18.3 across a window reload, with the real Claude Code CLI against the scripted model server:
// the agent's own session id learned during the first turn is kept with the session (its journal),
// so the session restored by the next host resumes the agent's conversation instead of starting
// the agent with no memory while the chat still shows every turn (decision 620).
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFrame } from '../../../src/protocol/build';
import { ClaudeCodeAdapter } from '../../../src/agents/claudeCode';
import type { AgentChoice } from '../../../src/host/agentChoice';
import { LOCAL_VIEW_FEATURES, type SessionHost } from '../../../src/host/sessionHost';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import type { Connection, WireFrame } from '../../../src/session/connection';
import { MockModelServer } from '../../support/mockModel/server';
import { claude, installAnthropic } from '../../support/mockModel/anthropic';
import { claudeEnv } from '../../support/mockModel/claudeEnv';
import { eventually } from '../../support/settle';
import { harness, type Harness } from './harness';

function view(): Connection & { got: WireFrame[] } {
  const got: WireFrame[] = [];
  return { id: 'view-1', kind: 'local', features: LOCAL_VIEW_FEATURES, extensions: OUR_MASTER_EXTENSIONS, got, send: (f) => void got.push(f), close: () => undefined };
}

describe('host: §18.3 the agent resumes its own conversation after a window reload (real Claude Code)', function () {
  this.timeout(120_000);
  let h: Harness;
  let mock: MockModelServer;
  let home: string;
  const hosts: SessionHost[] = [];
  const resumes: (string | undefined)[] = [];

  beforeEach(async () => {
    h = harness();
    mock = await MockModelServer.start();
    home = mkdtempSync(join(tmpdir(), 'rawp-resume-home-'));
  });
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.dispose();
    await h.cleanup();
    await mock.stop();
    rmSync(home, { recursive: true, force: true });
    resumes.length = 0;
  });

  function claudeHost(): SessionHost {
    const claudeCode: AgentChoice = {
      id: 'claude-code',
      name: 'Claude Code',
      available: true,
      rank: 5,
      create: (o) => {
        resumes.push(o?.resumeSessionId);
        return new ClaudeCodeAdapter({ env: claudeEnv(mock.url, home), killGraceMs: 1500, ...(o?.resumeSessionId ? { resumeSessionId: o.resumeSessionId } : {}) });
      },
    };
    const host = h.makeHost({ agents: [claudeCode], defaultAgent: 'claude-code' });
    hosts.push(host);
    return host;
  }

  async function ask(host: SessionHost, id: string, text: string): Promise<void> {
    const v = view();
    host.hub.attach(id, v);
    const ends = () => host.log(id)!.all().filter((f) => f.type === 'session.usage').length;
    const before = ends();
    host.fromView(v.id, buildFrame('control.prompt.request', { prompt_text: text }, { session_id: id }));
    await eventually(() => ends() > before, `the turn "${text}" ends`, 60_000);
    host.hub.detach(v.id);
  }

  it('§18.3-1 the id Claude Code names in its first turn survives the reload: the restored session starts it with --resume, and the model sees the first turn again', async () => {
    const route = installAnthropic(mock);
    mock.enqueue(route, claude.text('The password is kiwi.'), claude.text('You said kiwi.'));
    mock.setFallback(route, claude.text('side call'));
    const mainRequests = () => mock.requestsFor(route).filter((r) => Array.isArray((r.body as { tools?: unknown[] } | undefined)?.tools));

    const host = claudeHost();
    const id = await host.create({ agent: 'claude-code' });
    await ask(host, id, 'remember the password kiwi');
    await host.dispose(); // the window reloads

    const host2 = claudeHost();
    assert.deepEqual(await host2.restoreAll(), [id]);
    assert.equal(resumes.length, 2);
    assert.equal(resumes[0], undefined, 'a new session starts a new agent conversation');
    assert.match(resumes[1] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-/, 'the restored session asks Claude Code to resume its own session');
    await ask(host2, id, 'what was the password?');
    const second = mainRequests().at(-1)!.rawBody;
    assert.match(second, /remember the password kiwi/, 'the first turn reached the model again: the conversation went on');
    assert.match(second, /The password is kiwi\./);
  });

  it('§18.3 §7.8.2 the agent no longer has the conversation (Claude Code deleted its transcript): the session is still restored, its first turn starts a new conversation and says so (RESUME_FAILED), never a vanished chat (decision 624)', async () => {
    const route = installAnthropic(mock);
    mock.enqueue(route, claude.text('The password is kiwi.'), claude.text('I do not know a password.'));
    mock.setFallback(route, claude.text('side call'));
    const host = claudeHost();
    const id = await host.create({ agent: 'claude-code' });
    await ask(host, id, 'remember the password kiwi');
    await host.dispose();
    const transcripts = join(home, '.claude', 'projects');
    assert.ok(existsSync(transcripts), 'Claude Code kept a transcript');
    rmSync(transcripts, { recursive: true, force: true }); // 30 days later, or another machine

    const host2 = claudeHost();
    assert.deepEqual(await host2.restoreAll(), [id], 'the chat is still there after the reload');
    await ask(host2, id, 'what was the password?');
    const log = host2.log(id)!.all();
    const warning = log.find((f) => f.type === 'agent.error' && f.payload.error_code === 'RESUME_FAILED');
    assert.ok(warning, 'the user is told the agent starts over');
    const end = log.filter((f) => f.type === 'session.turn.end').at(-1);
    assert.ok(end?.type === 'session.turn.end' && end.payload.stop_reason === 'end_turn');
  });

  it('§18.3-1 a first turn cut off by the reload (the agent named its session, the turn never ended): the restored session still resumes it (decision 624)', async () => {
    const route = installAnthropic(mock);
    mock.enqueue(route, { ...claude.text('Thinking about kiwi'), hang: true }, claude.text('You said kiwi.'));
    mock.setFallback(route, claude.text('side call'));
    const mainRequests = () => mock.requestsFor(route).filter((r) => Array.isArray((r.body as { tools?: unknown[] } | undefined)?.tools));
    const host = claudeHost();
    const id = await host.create({ agent: 'claude-code' });
    const v = view();
    host.hub.attach(id, v);
    host.fromView(v.id, buildFrame('control.prompt.request', { prompt_text: 'remember the password kiwi' }, { session_id: id }));
    await eventually(() => mainRequests().length >= 1 && host.agentSessionId(id) !== undefined, 'Claude Code named its session mid-turn', 60_000);
    await host.dispose(); // the window reloads while the first turn still runs

    const host2 = claudeHost();
    assert.deepEqual(await host2.restoreAll(), [id]);
    assert.match(resumes[1] ?? '', /^[0-9a-f]{8}-/, 'the id named before the turn ended was kept');
  });
});
