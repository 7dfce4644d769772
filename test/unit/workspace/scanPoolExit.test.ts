// The scan workers never keep a process alive (decision 534): a real process that indexes a big
// folder, with or without searching it, exits on its own once its work is done. In Node 20 a
// 'message' listener added after `worker.unref()` refs the worker's port again, so a process that
// indexed a big folder and never searched it used to run until it was killed.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const PROBE = resolve(__dirname, '../../support/scanPoolExitProbe.ts');
/** Far beyond the probe's own time (about 1–2 s here): only a process that would never end reaches it. */
const LIMIT_MS = 30_000;

function runProbe(args: string[]): Promise<{ code: number | null; killed: boolean; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', PROBE, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let killed = false;
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, LIMIT_MS);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, killed, out });
    });
  });
}

describe('workspace/scanPool: the workers never keep a process alive (decision 534)', function () {
  this.timeout(LIMIT_MS * 2 + 10_000);

  it('§16.1 a process that indexed a big folder, its workers started, exits without a search', async () => {
    const r = await runProbe([]);
    assert.equal(r.killed, false, `the process did not exit within ${LIMIT_MS} ms`);
    assert.equal(r.code, 0);
    assert.match(r.out, /workers started true/, 'the folder was big enough to start the workers');
  });

  it('§16.1 and after a search the workers answered', async () => {
    const r = await runProbe(['--search']);
    assert.equal(r.killed, false, `the process did not exit within ${LIMIT_MS} ms`);
    assert.equal(r.code, 0);
    assert.match(r.out, /hits [1-9]/);
    assert.match(r.out, /workers started true/);
  });
});
