// Decision 720: the Node backend (the one `rawp run` and `rawp serve` give an ACP agent) reads
// prefixes, so an ACP `fs/read_text_file` with line and limit inside the first 32 MiB of a bigger
// file is served there as in the editor (decision 716); before, it was refused (FILE_TOO_LARGE). A
// real child process asks, through the adapter's own fs (a NodeFsBackend on the workspace), and
// says as its text the answers it got.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_READ_BYTES } from '../../../src/tools/read';
import type { RecordingHost, TurnRecord } from '../../support/recordingHost';
import { assertStreamValid, FAKE_ACP_PREAMBLE, scriptedAcpAgent, turnWithin } from '../../support/fakeAcpAgent';

/** Lines of 20 bytes: line n (from 1) is n, zero-padded to 19 digits. */
const LINE_BYTES = 20;
const lineText = (n: number) => String(n).padStart(LINE_BYTES - 1, '0');
/** The last line that lies whole in the first MAX_READ_BYTES. */
const LAST_INSIDE = Math.floor(MAX_READ_BYTES / LINE_BYTES);

const AGENT = `${FAKE_ACP_PREAMBLE}
const at = (f) => require('path').join(__dirname, f);
const waiting = new Map();
let n = 0;
const read = (params) => new Promise((resolve) => {
  const id = 'r' + ++n;
  waiting.set(id, resolve);
  send({ id, method: 'fs/read_text_file', params: { sessionId: 'fake-1', ...params } });
});
async function run() {
  const answers = [];
  answers.push(await read({ path: at('big.log'), line: 3, limit: 2 }));
  answers.push(await read({ path: at('big.log'), line: ${LAST_INSIDE}, limit: 1 }));
  answers.push(await read({ path: at('big.log'), line: ${LAST_INSIDE + 10}, limit: 1 }));
  answers.push(await read({ path: at('big.log') }));
  answers.push(await read({ path: at('link.log'), line: 1, limit: 1 }));
  answers.push(await read({ path: at('fifo'), line: 1, limit: 1 }));
  say(JSON.stringify(answers.map((a) => a.result ? { content: a.result.content } : { code: a.error.data && a.error.data.code, message: a.error.message })));
}
let promptId;
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (!('method' in m)) {
    const resolve = waiting.get(m.id);
    waiting.delete(m.id);
    resolve?.(m);
    return;
  }
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'fake-1' } });
  else if (m.method === 'session/prompt') {
    promptId = m.id;
    void run().then(() => send({ id: m.id, result: { stopReason: 'end_turn' } }));
  }
});`;

/** A 40 MiB file of numbered lines. */
function bigFile(path: string): void {
  const bytes = 40 * 1024 * 1024;
  const buf = Buffer.allocUnsafe(bytes);
  for (let n = 1, off = 0; off < bytes; n++, off += LINE_BYTES) buf.write(`${lineText(n)}\n`, off, 'latin1');
  writeFileSync(path, buf);
}

describe('agents/acp: fs/read_text_file of a file over 32 MiB through the Node backend (decision 720)', function () {
  this.timeout(60_000);
  const agent = scriptedAcpAgent('rawp-acp-nodefs-prefix-', AGENT);

  type Answer = { content?: string; code?: string; message?: string };
  const answers = (host: RecordingHost, turn: TurnRecord): Answer[] => JSON.parse(host.ofType('agent.text.delta', turn.frames).map((f) => f.payload.text).join(''));

  it('a window inside its first 32 MiB is served; past them, or the whole file, is refused in FILE_TOO_LARGE\'s words; a symlink and a FIFO are refused', async () => {
    // No fs given: the adapter serves fs/* through a NodeFsBackend on the workspace, as in `rawp run`
    // and `rawp serve` (the workspace is the folder of the agent's script).
    const { host, adapter } = await agent.open('read', { fs: undefined });
    const ws = host.workspacePath;
    bigFile(join(ws, 'big.log'));
    mkdirSync(`${ws}-outside`);
    writeFileSync(join(`${ws}-outside`, 'secret.log'), 'the secret\n');
    symlinkSync(join(`${ws}-outside`, 'secret.log'), join(ws, 'link.log'));
    execFileSync('mkfifo', [join(ws, 'fifo')]);
    try {
      const turn = await turnWithin(host, adapter, 40_000);
      const [start, lastInside, past, whole, link, fifo] = answers(host, turn);
      assert.deepEqual(start, { content: `${lineText(3)}\n${lineText(4)}` });
      assert.deepEqual(lastInside, { content: lineText(LAST_INSIDE) });
      assert.equal(past.code, 'FILE_TOO_LARGE');
      assert.match(past.message ?? '', /^FILE_TOO_LARGE: "big\.log" is 40\.0 MB; files are read up to 32\.0 MB\. To see a part of it, ask for some of its first lines with line and limit \(only its first 32\.0 MB are read\), or read it with a shell command/);
      assert.equal(whole.code, 'FILE_TOO_LARGE');
      assert.equal(whole.message, past.message);
      assert.equal(link.code, 'FS_OUTSIDE_WORKSPACE', JSON.stringify(link));
      assert.ok(!JSON.stringify(link).includes('the secret'));
      assert.equal(fifo.code, 'FS_IO', JSON.stringify(fifo));
      assert.match(fifo.message ?? '', /is not a regular file/);
      assert.equal(turn.outcome.stop_reason, 'end_turn');
      assertStreamValid(host);
    } finally {
      rmSync(`${ws}-outside`, { recursive: true, force: true });
    }
  });
});
