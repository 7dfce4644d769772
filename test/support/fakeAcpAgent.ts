// Pieces shared by the tests whose fake ACP agent is a real child process writing lines the reader
// may not read (decisions 551, 556): the start of the agent's script, and a turn that fails with
// what happened instead of a mocha timeout when the agent is left waiting.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentAdapter } from '../../src/session/agentAdapter';
import { AcpAdapter, type AcpAdapterOptions } from '../../src/agents/acp/adapter';
import { MAX_LINE_CHARS } from '../../src/agents/process/jsonLines';
import { RecordingHost, type TurnOptions, type TurnRecord } from './recordingHost';

/**
 * The script's first lines: its scenario (first argument), stdin lines, `line`, `send` (a JSON-RPC
 * message), `say` (an agent_message_chunk of session fake-1), and `long` (one line of the reader's
 * limit + 1000 characters, written in pieces: head, padding, tail).
 */
export const FAKE_ACP_PREAMBLE = `
const [scenario] = process.argv.slice(2);
const rl = require('readline').createInterface({ input: process.stdin });
const line = (s) => process.stdout.write(s + '\\n');
const send = (m) => line(JSON.stringify({ jsonrpc: '2.0', ...m }));
const say = (text) => send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
function long(head, tail) {
  process.stdout.write(head);
  const piece = 'x'.repeat(1 << 20);
  for (let n = 0; n < ${MAX_LINE_CHARS} + 1000; n += piece.length) process.stdout.write(piece);
  line(tail);
}
`;

/** The turn, or a failure naming the frames seen instead of a mocha timeout (the agent still waiting). */
export async function turnWithin(host: RecordingHost, adapter: AgentAdapter, ms: number, opts: TurnOptions = {}): Promise<TurnRecord> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the turn did not end within ${ms} ms (the agent still waits for an answer?); frames: ${host.frames.map((f) => f.type).join(', ')}`)), ms);
  });
  try {
    return await Promise.race([host.turn(adapter, 'hi', opts), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every frame parsed, and the stream passes `rawp validate` without errors. */
export function assertStreamValid(host: RecordingHost): void {
  assert.deepEqual(host.invalid, []);
  assert.equal(host.validate().problems.filter((p) => p.severity === 'error').length, 0, host.problems());
}

/**
 * A fake ACP agent (the script `source`, run by node) for each test of the calling `describe`: a
 * fresh folder holding it (the session's workspace too), and `open(scenario)` to start it as
 * "Fake ACP" under a RecordingHost (`more`: other adapter options, e.g. a trace). After each test
 * the adapter is disposed and the folder removed. Call it inside `describe`.
 */
export function scriptedAcpAgent(prefix: string, source: string): { open(scenario: string, more?: Partial<AcpAdapterOptions>): Promise<{ host: RecordingHost; adapter: AcpAdapter }> } {
  let dir: string;
  let adapter: AcpAdapter | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    writeFileSync(join(dir, 'agent.js'), source);
  });
  afterEach(async () => {
    await adapter?.dispose();
    adapter = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    async open(scenario, more = {}) {
      adapter = new AcpAdapter({ id: 'acp:fake', displayName: 'Fake ACP', command: process.execPath, args: [join(dir, 'agent.js'), scenario], fs: 'none', killGraceMs: 500, ...more });
      const host = new RecordingHost(dir);
      await host.open(adapter);
      return { host, adapter };
    },
  };
}
