// Audit (decision 545): GET /v1/files/{id} piped the file's read stream into the response with
// `pipe`, so a client that went away mid-download left the stream — and its fd — open until the
// process ended (40 aborted downloads: 40 fds, still open after server.close()). Real RemoteServer,
// real FileStore on disk, real HTTP clients on loopback; the fds are counted in /proc/self/fd.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '../../../src/host/files/fileStore';
import { generateToken } from '../../../src/remote/auth';
import { RemoteServer } from '../../../src/remote/server';
import { Hub } from '../../../src/session/hub';
import { silentLogger } from '../../../src/session/ports';
import { SessionRegistry } from '../../../src/session/registry';
import { removeTree } from '../../support/removeTree';
import { ScriptedAdapter } from '../../support/scriptedAdapter';
import { waitFor } from './harness';

function fdsUnder(dir: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)) n++;
    } catch {
      // closed while we looked
    }
  }
  return n;
}

describe('remote/files: an aborted download closes its file (decision 545)', function () {
  this.timeout(60_000);

  it('§4.5.1 20 GETs of a 16 MB file, each abandoned after its first chunk: no fd to the store stays open', async function () {
    if (process.platform !== 'linux') this.skip();
    const registry = new SessionRegistry(new Hub());
    const session = await registry.create({ adapter: new ScriptedAdapter(), origin: 'remote', name: 's' });
    const dir = mkdtempSync(join(tmpdir(), 'rawp-abort-'));
    const store = FileStore.open({ dir, logger: silentLogger, maxBytes: 20_000_000 });
    const f = await store.store({ session_id: session.session_id, file_name: 'big.txt', mime_type: 'text/plain', bytes: Buffer.alloc(16 * 1024 * 1024, 0x41) });
    const token = generateToken();
    const server = await RemoteServer.start({ registry, token, files: store });
    try {
      for (let i = 0; i < 20; i++) {
        await new Promise<void>((resolve) => {
          const req = request(`${server.url}/v1/files/${f.transfer_id}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          });
          req.on('error', () => resolve());
          req.end();
        });
      }
      await waitFor(() => fdsUnder(dir) === 0, `no fd left to the store (${fdsUnder(dir)} open)`, 10_000);
      // And a download read to its end still gets every byte.
      const got = await new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}/v1/files/${f.transfer_id}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
          let n = 0;
          res.on('data', (c: Buffer) => (n += c.length));
          res.on('end', () => resolve(n));
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(got, 16 * 1024 * 1024);
    } finally {
      await server.close();
      await registry.disposeAll();
      removeTree(dir);
    }
  });
});
