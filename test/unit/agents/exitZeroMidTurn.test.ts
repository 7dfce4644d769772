// §17.2.2-1: an agent process that exits with code 0 in the middle of a turn ended normally — the
// turn ends `end_turn`, with no fatal agent.error. The long-lived adapters (Claude Code, ACP) run
// real child processes here: small scripts that speak just enough of each protocol and then exit 0
// while the turn runs (no real agent CLI does that on purpose).
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpAdapter } from '../../../src/agents/acp/adapter';
import { ClaudeCodeAdapter } from '../../../src/agents/claudeCode/adapter';
import { validateText } from '../../../src/protocol/conformance';
import type { Frame, FrameOf } from '../../../src/protocol/frameTypes';
import type { AgentAdapter } from '../../../src/session/agentAdapter';
import { AgentSession } from '../../../src/session/engine';
import { until } from '../../support/settle';

const ACP_AGENT = `
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'all done' } } } });
    setTimeout(() => process.exit(0), 50);
  }
});`;

const CLAUDE_AGENT = `#!${process.execPath}
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'control_request' && m.request.subtype === 'initialize') send({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response: { commands: [] } } });
  else if (m.type === 'user') {
    send({ type: 'system', subtype: 'init', session_id: 'fake-claude', tools: ['Read'], model: 'fake', permissionMode: 'default' });
    send({ type: 'assistant', message: { id: 'msg_1', role: 'assistant', model: 'fake', content: [{ type: 'text', text: 'all done' }] }, session_id: 'fake-claude' });
    setTimeout(() => process.exit(0), 50);
  }
});`;

async function runTurn(adapter: AgentAdapter, dir: string): Promise<Frame[]> {
  const frames: Frame[] = [];
  const session = new AgentSession({ adapter, out: (f) => void frames.push(f), workspacePath: dir });
  try {
    await session.start();
    session.prompt({ prompt_text: 'hi' });
    await until(() => frames.some((f) => f.type === 'session.usage'), 'the turn to end', 20_000);
  } finally {
    await session.end();
  }
  return frames;
}

function assertCleanEnd(frames: Frame[]): void {
  const end = frames.find((f): f is FrameOf<'session.turn.end'> => f.type === 'session.turn.end');
  assert.equal(end?.payload.stop_reason, 'end_turn');
  const errors = frames.filter((f): f is FrameOf<'agent.error'> => f.type === 'agent.error');
  assert.deepEqual(errors.filter((e) => e.payload.severity === 'fatal').map((e) => e.payload.message), [], 'no fatal agent.error for exit 0');
  assert.ok(frames.some((f) => f.type === 'agent.text.done'), 'what the agent said is kept');
  const r = validateText(frames.map((f) => JSON.stringify(f)).join('\n'));
  assert.deepEqual(r.problems.filter((p) => p.severity === 'error'), []);
}

describe('agents: exit 0 in the middle of a turn (§17.2.2)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rawp-exit0-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('§17.2.2-1 an ACP agent that exits 0 mid-turn: session.turn.end end_turn, no fatal error', async () => {
    writeFileSync(join(dir, 'agent.js'), ACP_AGENT);
    const frames = await runTurn(new AcpAdapter({ id: 'acp:fake', displayName: 'Fake ACP', command: process.execPath, args: [join(dir, 'agent.js')], fs: 'none' }), dir);
    assertCleanEnd(frames);
  });

  it('§17.2.2-1 Claude Code exiting 0 mid-turn: session.turn.end end_turn, no fatal error', async () => {
    const claude = join(dir, 'claude');
    writeFileSync(claude, CLAUDE_AGENT);
    chmodSync(claude, 0o755);
    const frames = await runTurn(new ClaudeCodeAdapter({ command: claude }), dir);
    assertCleanEnd(frames);
  });
});
