// The master client's own liveness check, and where `rawp serve` / `rawp attach` get their token.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { MasterClient } from '../../../src/cli/attach/masterClient';
import { generateToken } from '../../../src/remote/auth';
import { readClientToken, resolveToken } from '../../../src/remote/tokenSource';
import { waitFor } from './harness';

describe('remote/client: liveness and tokens', () => {
  it('a connection on which nothing arrives (no frame, no heartbeat ping) is taken for dead and reconnected', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    let accepted = 0;
    wss.on('connection', () => accepted++); // a host that went silent: never sends anything
    const port = (wss.address() as { port: number }).port;
    const disconnects: number[] = [];
    const client = new MasterClient({
      url: `ws://127.0.0.1:${port}/v1/sessions/s1/stream`,
      token: generateToken(),
      session_id: 's1',
      idleTimeoutMs: 30,
      reconnect: { initialMs: 5, maxMs: 5 },
      handlers: { disconnected: ({ code }) => disconnects.push(code) },
    });
    client.start();
    await waitFor(() => accepted >= 3, 'reconnected after silent connections');
    client.stop();
    assert.ok(disconnects.length >= 2);
    assert.ok(disconnects.every((c) => c === 1006), 'cut locally, not closed by the host');
    await new Promise((resolve) => wss.close(resolve));
  });

  it('rawp serve tokens: --token is checked; --token-file is read (never one others can read), or generated into a new 0600 file; then RAWP_TOKEN; else generated', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-token-'));
    try {
      const given = generateToken();
      assert.deepEqual(resolveToken({ token: given }), { kind: 'given', token: given });
      assert.throws(() => resolveToken({ token: 'short' }), /--token is unusable/);
      assert.throws(() => resolveToken({ token: given, tokenFile: join(dir, 'x') }), /not both/);

      const file = join(dir, 'token');
      const made = resolveToken({ tokenFile: file });
      assert.equal(made.kind, 'generated_to_file');
      assert.equal(readFileSync(file, 'utf8').trim(), made.token);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(resolveToken({ tokenFile: file }), { kind: 'file', token: made.token, file });

      writeFileSync(join(dir, 'bad'), 'too short\n', { mode: 0o600 });
      assert.throws(() => resolveToken({ tokenFile: join(dir, 'bad') }), /unusable/);
      // A token file others can read is refused, on both ends, with the fix in the message.
      writeFileSync(join(dir, 'open'), `${given}\n`, { mode: 0o644 });
      assert.throws(() => resolveToken({ tokenFile: join(dir, 'open') }), /accessible to other users \(mode 0644\).*chmod 600/);
      assert.throws(() => readClientToken({ tokenFile: join(dir, 'open') }), /chmod 600/);
      // RAWP_TOKEN is the third way in, checked like the others; flags win over it.
      assert.deepEqual(resolveToken({ env: `${given}\n` }), { kind: 'env', token: given });
      assert.throws(() => resolveToken({ env: 'a'.repeat(40) }), /looks weak/);
      assert.equal(resolveToken({ tokenFile: file, env: given }).kind, 'file');
      const gen = resolveToken({});
      assert.equal(gen.kind, 'generated');
      assert.notEqual(gen.token, made.token);

      assert.equal(readClientToken({ tokenFile: file }), made.token);
      assert.throws(() => readClientToken({ tokenFile: join(dir, 'missing') }), /cannot read the token file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
