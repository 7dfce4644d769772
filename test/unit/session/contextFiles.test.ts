import { strict as assert } from 'node:assert';
import { ContextFileError, type ContextFileSource } from '../../../src/session/contextFiles';
import { EngineHarness } from '../../support/engineHarness';

describe('session/contextFiles: the port adapters read context_files through (§6.1.1, §5.3.1)', () => {
  it('§6.1.1 without a file store every URL is refused with a typed ContextFileError', async () => {
    const h = await EngineHarness.start();
    const source = h.adapter.host?.contextFiles;
    assert.ok(source, 'the engine hands every adapter a context-file source');
    await assert.rejects(source.resolve('https://example.invalid/x.png'), (e: unknown) => e instanceof ContextFileError && e.code === 'unsupported_url');
  });

  it('§6.1.1 the host\'s source reaches the adapter unchanged', async () => {
    const calls: string[] = [];
    const mine: ContextFileSource = {
      resolve: async (url) => {
        calls.push(url);
        return { bytes: new Uint8Array([1]), mimeType: 'application/octet-stream', name: 'x', sha256: '4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a' };
      },
    };
    const h = await EngineHarness.start({}, { contextFiles: mine });
    const got = await h.adapter.host?.contextFiles?.resolve('rawp:test');
    assert.deepEqual(calls, ['rawp:test']);
    assert.equal(got?.name, 'x');
  });
});
