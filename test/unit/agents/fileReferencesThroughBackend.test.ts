// §16.3 conversions for agents whose files go through an FsBackend (the OpenAI-compatible adapter):
// references resolve and inline through the backend, so a folder that exists only behind VS Code's
// workspace.fs (a virtual workspace, issue 13) works like a disk folder. The backend here is an
// in-memory one standing in for VS Code's provider; the provider itself is tested in code-server
// (test/vscode/suite/virtualFolder.test.ts).
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { convertFileReferences } from '../../../src/agents/fileReferences';
import { FsError, type FsBackend, type FsStat, type FsVersion } from '../../../src/workspace/fsBackend';
import { encodePrompt } from '../../../src/protocol/fileReference';

/** Files of a folder that is not on the local disk (`/rawp-virtual` does not exist here). */
function memoryBackend(files: Record<string, string | Buffer>): Pick<FsBackend, 'roots' | 'stat' | 'readText'> {
  const version = (b: string | Buffer) => createHash('sha256').update(b).digest('hex') as FsVersion;
  return {
    roots: ['/rawp-virtual'],
    async stat(path): Promise<FsStat | undefined> {
      const f = files[path];
      return f === undefined ? undefined : { type: 'file', size: Buffer.byteLength(f), mtimeMs: 0, version: version(f) };
    },
    async readText(path) {
      const f = files[path];
      if (f === undefined) throw new FsError(`${path} not found`, 'FS_NOT_FOUND');
      if (Buffer.isBuffer(f)) throw new FsError(`${path} is not UTF-8 text`, 'FS_NOT_TEXT');
      return { text: f, version: version(f) };
    },
  };
}

describe('agents/fileReferences through the FsBackend (issue 13: virtual folders)', () => {
  const fs = memoryBackend({ '/rawp-virtual/notes.md': 'virtual notes\n', '/rawp-virtual/img.bin': Buffer.from([0xff, 0xfe, 0x00, 0x01]), '/rawp-virtual/long.txt': 'é'.repeat(100) });

  it('§16.3-1 inline: a file that exists only behind the backend is inlined with its content', async () => {
    const p = encodePrompt([{ kind: 'text', text: 'summarise ' }, { kind: 'file', path: 'notes.md' }]);
    const r = await convertFileReferences(p.prompt_text, p.file_references, { roots: fs.roots, strategy: { kind: 'inline' }, fs });
    assert.deepEqual(r.errors, []);
    assert.equal(r.files[0].absolute, '/rawp-virtual/notes.md');
    assert.match(r.text, /^summarise \[File: notes\.md\]\n```\nvirtual notes\n```\n$/);
    // Without the backend the same reference is checked on the local disk, where it does not exist.
    const disk = await convertFileReferences(p.prompt_text, p.file_references, { roots: fs.roots, strategy: { kind: 'inline' } });
    assert.equal(disk.errors[0]?.code, 'FS_NOT_FOUND');
  });

  it('§16.3 a path that climbs out of the folder or names a missing file falls back to literal text with the reason', async () => {
    const p = encodePrompt([{ kind: 'file', path: '../etc/passwd' }, { kind: 'text', text: ' ' }, { kind: 'file', path: 'missing.md' }]);
    const r = await convertFileReferences(p.prompt_text, p.file_references, { roots: fs.roots, strategy: { kind: 'inline' }, fs });
    assert.deepEqual(r.errors.map((e) => e.code), ['FS_OUTSIDE_WORKSPACE', 'FS_NOT_FOUND']);
    assert.equal(r.files.length, 0);
    assert.equal(r.text, '../etc/passwd missing.md');
  });

  it('§16.3 a file that is not text is named, not inlined; a long one is cut on a character boundary with a note', async () => {
    const p = encodePrompt([{ kind: 'file', path: 'img.bin' }, { kind: 'text', text: '\n' }, { kind: 'file', path: 'long.txt' }]);
    const r = await convertFileReferences(p.prompt_text, p.file_references, { roots: fs.roots, strategy: { kind: 'inline', maxBytesPerFile: 51 }, fs });
    assert.match(r.text, /\[File: img\.bin\] \(binary file, 4 bytes, not inlined\)/);
    assert.match(r.text, new RegExp(`\\n${'é'.repeat(25)}\\n\`\`\`\\n\\[… truncated: showing the first 50 of 200 bytes\\]`));
    assert.ok(!r.text.includes('\uFFFD'), 'no character was split');
  });
});
