// The host's API for agent-produced files (§4.5.1 direction "download", §5.3.1 binary_ref): the
// bytes are stored, `agent.file.transfer` goes out through the session (every connection sees the
// same frame, checksum in it), a master fetches the file_url over real HTTP with its token, and
// deleting the session in the editor removes the files.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import type { FrameOf } from '../../../../src/protocol/frameTypes';
import { waitFor } from '../../remote/harness';
import { sharedHostPerTest } from './sharedHost';
import { ONE_PIXEL_PNG } from '../../../support/images';

const PNG = ONE_PIXEL_PNG;

function getBytes(url: string, token: string): Promise<{ status: number; body: Buffer; checksum?: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), checksum: res.headers['x-checksum-sha256'] as string | undefined }));
    })
      .on('error', reject)
      .end();
  });
}

describe('host/files: publishFile — agent-produced files for every connection (§4.5.1, §5.3.1)', () => {
  const fixture = sharedHostPerTest();
  const token = fixture.token;

  it('§4.5.1 §5.3.1 the host stores the bytes, the session emits agent.file.transfer (download, SHA-256 checksum, file_url), a master GETs it', async () => {
    const host = fixture.h.makeHost();
    const id = await host.create({ agent: 'builtin' });
    const payload = await host.publishFile(id, { bytes: PNG, file_name: 'chart.png', mime_type: 'image/png', context: { related_tool_invocation_id: 'inv-1' } });
    assert.equal(payload.direction, 'download');
    assert.equal(payload.checksum, createHash('sha256').update(PNG).digest('hex'));
    assert.equal(payload.size_bytes, PNG.length);
    assert.equal(payload.file_url, `/v1/files/${payload.transfer_id}`);
    const frame = host.log(id)!.all().find((f): f is FrameOf<'agent.file.transfer'> => f.type === 'agent.file.transfer');
    assert.deepEqual(frame?.payload, payload, 'the same frame every connection gets');
    // The editor's view reads it from the store folder (the webview's resource root).
    assert.ok(existsSync(host.fileStore!.pathOf(payload.transfer_id)!));

    const server = await fixture.share(host, id);
    const got = await getBytes(`${server.url}${payload.file_url}`, token);
    assert.equal(got.status, 200);
    assert.ok(got.body.equals(PNG));
    assert.equal(got.checksum, payload.checksum);
    // An unshared session's files are not served to masters (§2.4).
    await fixture.sharing!.stop(id);
    assert.equal((await getBytes(`${server.url}${payload.file_url}`, token)).status, 404);
  });

  it('§4.5.1 bytes that are not the announced type are not offered; §7.7 deleting the session in the editor removes its files', async () => {
    const host = fixture.h.makeHost();
    const id = await host.create({ agent: 'builtin' });
    await assert.rejects(host.publishFile(id, { bytes: Buffer.from('plain text'), file_name: 'x.png', mime_type: 'image/png' }), /not stored/);
    const p = await host.publishFile(id, { bytes: Buffer.from('# notes\n'), file_name: 'notes.md', mime_type: 'text/markdown' });
    const path = host.fileStore!.pathOf(p.transfer_id)!;
    assert.ok(existsSync(path));
    const ended: string[] = [];
    host.onEvent((e) => e.kind === 'ended' && ended.push(e.session_id));
    assert.equal(await host.delete(id), true);
    await waitFor(() => ended.includes(id), 'the session ended');
    assert.equal(existsSync(path), false, 'the file went with its session');
    assert.equal(host.fileStore!.get(p.transfer_id), undefined);
  });
});
