// Issue 11 "Done when": one scenario, two hosts — a real `rawp serve` child process (the built
// bundle, `node dist/cli.js serve`) and the editor's SessionHost driven in Node (as the extension
// builds it) with the host's sharing server. Both must pass the same steps:
//   1. a workspace command (.claude/commands/findit.md) is published to a raw WebSocket master and
//      expanded for it (slash-commands §5–§7);
//   2. the browser master (the real chat bundle in Chromium, served at GET /) attaches fresh and
//      shows the whole transcript so far (issue 11 item 3);
//   3. a follow-up typed in the browser during a turn is queued and sent after turn.end, while a
//      raw master's prompt meanwhile gets PROMPT_IN_PROGRESS (§17.3.2);
//   4. a page reload, and a second fresh page, show the same full transcript;
//   5. permission rules granted through Claude Code and through the built-in agent are both listed
//      (issue 11 item 4, owned by `agents`: see permissionRulesOfBothAgents below).
// Real processes, sockets and Chromium; the built-in agent, and for step 5 the real Claude Code
// CLI against the scripted mock model server (test/support/mockModel) — no mocked agents.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import WebSocket from 'ws';
import { buildFrame } from '../../../src/protocol/build';
import { EVERY_FEATURE } from '../../../src/protocol/capabilities';
import type { Frame, FrameType, PayloadOf } from '../../../src/protocol/frameTypes';
import { parseFrame } from '../../../src/protocol/parse';
import { generateToken } from '../../../src/remote/auth';
import { HostSharing } from '../../../src/host/sharing';
import { CHROMIUM_ARGS } from '../../browser/harness';
import { waitFor } from '../remote/harness';
import { harness, type Harness } from './harness';
import { ClaudeCodeAdapter } from '../../../src/agents/claudeCode';
import type { AgentChoice } from '../../../src/host/agentChoice';
import { MockModelServer } from '../../support/mockModel/server';
import { ANTHROPIC_MESSAGES as ANTHROPIC, claude, installAnthropic } from '../../support/mockModel/anthropic';
import { claudeEnv } from '../../support/mockModel/claudeEnv';
import { removeTree } from '../../support/removeTree';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const CHROMIUM = '/usr/bin/chromium';
const FINDIT = '---\ndescription: Find a word in the workspace\n---\nfind $ARGUMENTS\n';

/** A host under test: where masters attach, and how to stop it. */
interface Target {
  url: string;
  token: string;
  session_id: string;
  workspace: string;
  close(): Promise<void>;
}

/** The workspace both hosts get: a source file and the workspace command. */
function writeWorkspace(workspace: string): void {
  mkdirSync(join(workspace, 'src'), { recursive: true });
  mkdirSync(join(workspace, '.claude', 'commands'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'greeting.ts'), 'export const greeting = "Hello";\n');
  writeFileSync(join(workspace, '.claude', 'commands', 'findit.md'), FINDIT);
}

/** `rawp serve` as users run it: the built bundle in a child process, HOME in a temp folder. */
async function serveTarget(mock: MockModelServer): Promise<Target> {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
  const base = mkdtempSync(join(tmpdir(), 'rawp-same-serve-'));
  const workspace = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(home, { recursive: true });
  writeWorkspace(workspace);
  const token = generateToken();
  writeFileSync(join(base, 'token'), token, { mode: 0o600 });
  const proc: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--workspace', workspace, '--agent', 'builtin', '--token-file', join(base, 'token'), '--rules-file', join(base, 'rules.json')], {
    cwd: base,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...claudeEnv(mock.url, home) },
  });
  let out = '';
  let err = '';
  let exited = false;
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  proc.on('exit', () => (exited = true));
  await waitFor(() => out.includes('\n') || exited, 'the listening line', 60_000);
  assert.ok(out.includes('\n'), `rawp serve exited before listening: ${err}`);
  const line = JSON.parse(out.split('\n')[0]) as { url: string; session_id: string };
  return {
    url: line.url,
    token,
    session_id: line.session_id,
    workspace,
    async close() {
      if (!exited) proc.kill('SIGTERM');
      await waitFor(() => exited, 'rawp serve exits on SIGTERM', 30_000).catch(() => proc.kill('SIGKILL'));
      removeTree(base);
    },
  };
}

/** The editor's host in Node (test/unit/host/harness.ts builds it as the extension does), shared. */
async function editorTarget(mock: MockModelServer): Promise<Target> {
  const h: Harness = harness();
  writeWorkspace(h.workspace);
  const home = mkdtempSync(join(tmpdir(), 'rawp-same-claude-home-'));
  const claudeCode: AgentChoice = { id: 'claude-code', name: 'Claude Code', available: true, rank: -2, create: () => new ClaudeCodeAdapter({ env: claudeEnv(mock.url, home), killGraceMs: 1500 }) };
  const host = h.makeHost({ agents: [claudeCode] });
  const token = generateToken();
  const sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }) });
  const session_id = await host.create();
  const server = await sharing.share(session_id);
  return {
    url: server.url,
    token,
    session_id,
    workspace: h.workspace,
    async close() {
      await h.cleanup();
      await sharing.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A raw RAWP-DPS master over a plain WebSocket: it announces no extension of ours. */
class RawMaster {
  readonly frames: Frame[] = [];
  private ws?: WebSocket;

  constructor(private readonly t: Target) {}

  async open(): Promise<this> {
    const ws = new WebSocket(`${this.t.url.replace(/^http/, 'ws')}/v1/sessions/${this.t.session_id}/stream`, ['rawp-dps-1.0', `bearer.${this.t.token}`]);
    this.ws = ws;
    ws.on('message', (data) => {
      const outcome = parseFrame(data.toString());
      if (outcome.kind === 'accepted' && !outcome.vendor) this.frames.push(outcome.frame);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    this.send('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE });
    // §13.1: the opening ends with agent.state.changed (reason "attached").
    await waitFor(() => this.frames.some((f) => f.type === 'agent.state.changed' && f.payload.reason === 'attached'), 'raw master attached');
    return this;
  }

  send<T extends FrameType>(type: T, payload: PayloadOf<T>): Frame {
    const frame = buildFrame(type, payload, { session_id: this.t.session_id }) as Frame;
    this.ws?.send(JSON.stringify(frame));
    return frame;
  }

  of<T extends FrameType>(type: T): Extract<Frame, { type: T }>[] {
    return this.frames.filter((f): f is Extract<Frame, { type: T }> => f.type === type);
  }

  close(): void {
    this.ws?.close();
  }
}

/**
 * What the page shows: the text and tool invocations of every row of the transcript. The list is
 * virtualized (only rows near the viewport are in the DOM), so it is scrolled from top to bottom
 * and every rendered row is collected on the way, as a user scrolling up would see them.
 */
// As a string: the test runs through tsx, whose helpers (`__name`) do not exist in the page.
const COLLECT_ROWS = `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const scroller = document.querySelector('.transcript-scroll');
  const rows = new Map();
  const invocations = new Set();
  const collect = () => {
    for (const row of document.querySelectorAll('.transcript-inner .row')) rows.set(row.getAttribute('data-index') ?? '', row.innerText);
    for (const e of document.querySelectorAll('[data-invocation]')) invocations.add(e.getAttribute('data-invocation') ?? '');
  };
  if (scroller) {
    scroller.scrollTop = 0;
    await frame();
    for (let i = 0; i < 200; i++) {
      collect();
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight) break;
      scroller.scrollTop += Math.max(50, scroller.clientHeight / 2);
      await frame();
    }
  }
  collect();
  const ordered = [...rows.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map((r) => r[1]);
  return { text: ordered.join('\\n'), invocations: [...invocations] };
})()`;

async function shown(page: Page): Promise<{ text: string; invocations: string[] }> {
  return (await page.evaluate(COLLECT_ROWS)) as { text: string; invocations: string[] };
}

/**
 * The transcript a master must show: every prompt the session accepted (a refused one is not
 * part of it: not kept, decision 161) and every main-agent tool invocation.
 */
function expected(watcher: RawMaster): { prompts: string[]; invocations: string[] } {
  const refused = new Set(watcher.of('session.error').map((f) => f.parent_id));
  const prompts = watcher.of('control.prompt.request').filter((f) => !refused.has(f.message_id)).map((f) => f.payload.prompt_text.trim());
  const invocations = watcher.of('tool.invoke.request').filter((f) => !f.metadata?.subagent_context).map((f) => f.payload.invocation_id);
  return { prompts, invocations };
}

async function assertFullTranscript(page: Page, want: { prompts: string[]; invocations: string[] }, what: string): Promise<void> {
  // Bounded: the page renders once per animation frame; a loaded machine may take a while.
  for (let i = 0; i < 200; i++) {
    const s = await shown(page);
    if (want.prompts.every((p) => s.text.includes(p)) && want.invocations.every((id) => s.invocations.includes(id))) return;
    await page.waitForTimeout(100);
  }
  const s = await shown(page);
  assert.deepEqual({ missingPrompts: want.prompts.filter((p) => !s.text.includes(p)), missingTools: want.invocations.filter((id) => !s.invocations.includes(id)) }, { missingPrompts: [], missingTools: [] }, what);
}


/** Send a prompt as this master, answer its one PERMISSION ask with `answer`, wait for the turn's end. */
async function promptAnswering(m: RawMaster, prompt: string, answer: string): Promise<void> {
  const asks = m.of('agent.interaction.request').length;
  const ends = m.of('session.turn.end').length;
  m.send('control.prompt.request', { prompt_text: prompt });
  await waitFor(() => m.of('agent.interaction.request').length > asks, `a permission ask for "${prompt}"`, 90_000);
  const ask = m.of('agent.interaction.request')[asks];
  assert.equal(ask.payload.interaction_type, 'PERMISSION');
  assert.ok(ask.payload.options?.some((o) => o.value === answer), `"${answer}" is offered`);
  m.send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: answer });
  await waitFor(() => m.of('session.turn.end').length > ends, `the turn of "${prompt}" ends`, 90_000);
}

/**
 * Issue 11 item 4: one rule granted through Claude Code's `can_use_tool` ("Allow for this session",
 * the real CLI against the scripted mock model) and one through the built-in agent ("Always
 * allow"); the host's one rules store lists both, with the agent that granted each, for a master
 * (GET /v1/permission-rules).
 */
async function permissionRulesOfBothAgents(t: Target, mock: MockModelServer, builtin: RawMaster): Promise<void> {
  const auth = { authorization: `Bearer ${t.token}` };
  const created = await fetch(`${t.url}/v1/sessions`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ agent: 'claude-code', name: 'claude' }) });
  assert.equal(created.status, 201, await created.clone().text());
  const { session_id } = (await created.json()) as { session_id: string };
  const cc = await new RawMaster({ ...t, session_id }).open();
  try {
    mock.enqueue(ANTHROPIC, claude.tool('Write', { file_path: join(t.workspace, 'notes.txt'), content: 'from claude\n' }), claude.text('Written.'));
    await promptAnswering(cc, 'write notes.txt', 'allow_session');
    assert.ok(cc.of('tool.invoke.result').some((f) => f.payload.tool_name === 'Write' && f.payload.status === 'success'), 'Claude wrote the file');
  } finally {
    cc.close();
  }
  await promptAnswering(builtin, 'run `echo granted`', 'allow_always');
  const res = await fetch(`${t.url}/v1/permission-rules`, { headers: auth });
  assert.equal(res.status, 200);
  const { rules } = (await res.json()) as { rules: Array<{ tool_name: string; lifetime: string; decision: string; created_by: string; session_id?: string; command_prefix?: string }> };
  assert.deepEqual(
    rules.map((r) => [r.tool_name, r.decision, r.lifetime, r.created_by]).sort(),
    [
      ['Bash', 'allow', 'always', 'builtin'],
      ['Write', 'allow', 'session', 'claude-code'],
    ],
    'both rules are listed, whichever agent granted them',
  );
  assert.equal(rules.find((r) => r.created_by === 'claude-code')?.session_id, session_id);
  assert.equal(rules.find((r) => r.created_by === 'builtin')?.command_prefix, 'echo granted');
  // Without the token the list is refused like every other host route.
  assert.equal((await fetch(`${t.url}/v1/permission-rules`)).status, 401);
}

async function scenario(t: Target, browser: Browser, mock: MockModelServer): Promise<void> {
  const raw = await new RawMaster(t).open();
  const watcher = await new RawMaster(t).open();
  try {
    // 1. slash-commands §4: the workspace command is published to a remote master ...
    const published = raw.of('agent.commands.publish').at(-1);
    assert.ok(published?.payload.commands.some((c) => c.name === 'findit' && c.description === 'Find a word in the workspace'), 'findit is published');
    // ... and §6 expanded for it: the agent gets "find greeting" (the built-in agent greps).
    const findit = raw.send('control.prompt.request', { prompt_text: '/findit greeting', input_type: 'slash_command' });
    await waitFor(() => watcher.of('session.turn.end').length === 1, 'the /findit turn ends', 60_000);
    const relayed = watcher.of('control.prompt.request').find((f) => f.message_id === findit.message_id);
    assert.equal(relayed?.payload.prompt_text.trim(), 'find greeting');
    assert.equal(relayed?.payload.input_type, 'slash_command');
    assert.ok(watcher.of('tool.invoke.request').some((f) => f.payload.tool_name === 'Grep'), 'the expanded text ran (Grep)');
    assert.ok(watcher.of('tool.invoke.result').some((f) => JSON.stringify(f.payload).includes('greeting.ts')), 'and found the file');

    // 2. The browser master attaches fresh and shows the transcript so far (issue 11 item 3).
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/#token=${t.token}&session=${t.session_id}`);
    await assertFullTranscript(page, expected(watcher), 'a fresh browser attach shows the /findit turn');

    // 3. A follow-up typed in the browser during a turn is queued (decision 101) ...
    const composer = page.getByRole('textbox', { name: 'Message the agent' });
    await composer.click({ timeout: 30_000 });
    await page.keyboard.type('run `echo first`');
    await page.keyboard.press('Enter');
    await waitFor(() => watcher.of('agent.interaction.request').length === 1, 'the turn waits for a permission answer', 60_000);
    // ... while a raw master that sends now is refused (§17.3.2).
    const refused = raw.send('control.prompt.request', { prompt_text: 'ls' });
    await waitFor(() => raw.of('session.error').some((f) => f.parent_id === refused.message_id), 'the raw master is refused');
    assert.equal(raw.of('session.error').find((f) => f.parent_id === refused.message_id)?.payload.error_code, 'PROMPT_IN_PROGRESS');
    await composer.click();
    await page.keyboard.type('read src/greeting.ts');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('[role=status]')].some((e) => (e.textContent ?? '').includes('queued')), undefined, { timeout: 30_000 });
    assert.equal(watcher.of('session.error').filter((f) => f.payload.error_code === 'PROMPT_IN_PROGRESS').length, 1, 'only the raw master was refused');
    const ask = watcher.of('agent.interaction.request')[0];
    raw.send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'allow_once' });
    await waitFor(() => watcher.of('session.turn.end').length === 3, 'the queued follow-up ran as the next turn', 60_000);
    const followUp = watcher.of('control.prompt.request').find((f) => f.payload.prompt_text === 'read src/greeting.ts');
    assert.ok(followUp, 'the follow-up reached the other masters');
    const order = watcher.frames.filter((f) => f.type === 'session.turn.end' || f === followUp).map((f) => f.type);
    assert.deepEqual(order, ['session.turn.end', 'session.turn.end', 'control.prompt.request', 'session.turn.end'], 'sent after the running turn ended');
    assert.ok(watcher.of('tool.invoke.result').some((f) => JSON.stringify(f.payload).includes('Hello')), 'the follow-up read the file');

    // 4. The same full transcript after a reload, and on a second fresh page.
    const want = expected(watcher);
    await page.reload();
    await assertFullTranscript(page, want, 'after a reload the browser shows the full transcript');
    const second = await context.newPage();
    await second.goto(`${t.url}/#token=${t.token}&session=${t.session_id}`);
    await assertFullTranscript(second, want, 'a second fresh page shows the full transcript');
    await context.close();

    // 5. Permission rules granted through Claude Code and through the built-in agent (item 4).
    await permissionRulesOfBothAgents(t, mock, raw);
  } finally {
    raw.close();
    watcher.close();
  }
}

describe('host: one product behind every door — rawp serve and the editor host pass the same scenario (issue 11 "Done when")', function () {
  this.timeout(240_000);
  let browser: Browser;
  let mock: MockModelServer;
  const targets: Target[] = [];
  before(async () => {
    mock = await MockModelServer.start();
    installAnthropic(mock);
    assert.ok(existsSync(CHROMIUM), `Chromium at ${CHROMIUM}`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await mock?.stop();
  });
  afterEach(async () => {
    for (const t of targets.splice(0)) await t.close();
  });

  it('slash-commands §6 §17.3.2 §13.1 §17.3.1 a real rawp serve child process: workspace command expanded for a remote master, browser follow-up queued, fresh browser attach and reload show the full transcript, permission rules of Claude Code and the built-in agent both listed', async () => {
    const t = await serveTarget(mock);
    targets.push(t);
    await scenario(t, browser, mock);
  });

  it('slash-commands §6 §17.3.2 §13.1 §17.3.1 the editor host (SessionHost + its sharing server): the same scenario passes', async () => {
    const t = await editorTarget(mock);
    targets.push(t);
    await scenario(t, browser, mock);
  });
});
