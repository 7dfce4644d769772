// §16.3 adapter conversion of file-reference tokens, on a real temporary workspace.
import { strict as assert } from 'node:assert';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFileReferences, interpretsFileReferences } from '../../../src/agents/fileReferences';
import { encodePrompt, type FileReference } from '../../../src/protocol/fileReference';
import { makeTmp, removeTmp, writeTree } from '../workspace/tmpWorkspace';

describe('agents/fileReferences: §16.3 conversions', () => {
  let root: string;
  let outside: string;
  let prompt: { prompt_text: string; file_references: FileReference[] };
  beforeEach(() => {
    root = makeTmp();
    outside = makeTmp('rawp-outside-');
    writeTree(root, { 'src/auth.ts': 'export const auth = 1;\n', 'docs/a b.md': '# A\n' });
    writeTree(outside, { 'secret.txt': 'top secret' });
    prompt = encodePrompt([
      { kind: 'text', text: 'fix ' },
      { kind: 'file', path: 'src/auth.ts' },
      { kind: 'text', text: ' and \\<@file:forged|x> see ' },
      { kind: 'file', path: 'docs/a b.md', display_path: 'a b.md' },
    ]);
  });
  afterEach(() => {
    removeTmp(root);
    removeTmp(outside);
  });

  it('§16.3-1 plain LLM (label): tokens become [File: path]; a forged token stays literal text', async () => {
    const r = await convertFileReferences(prompt.prompt_text, prompt.file_references, { roots: [root], strategy: { kind: 'label' } });
    assert.equal(r.text, 'fix [File: src/auth.ts] and \\<@file:forged|x> see [File: docs/a b.md]');
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.files.map((f) => f.absolute), [join(root, 'src/auth.ts'), join(root, 'docs/a b.md')]);
  });

  it('§16.3 plain LLM (inline): the content follows [File: path] in a fence', async () => {
    const r = await convertFileReferences(prompt.prompt_text, prompt.file_references, { roots: [root], strategy: { kind: 'inline' } });
    assert.ok(r.text.startsWith('fix [File: src/auth.ts]\n```\nexport const auth = 1;\n```\n and '), r.text);
    assert.ok(r.text.includes('[File: docs/a b.md]\n```\n# A\n```\n'));
  });

  it('§16.3 plain LLM (inline): content over the size limit is cut with a clear note; binary files are not inlined', async () => {
    writeTree(root, { 'big.txt': 'x'.repeat(5000), 'fence.md': 'a\n```\nb\n' });
    writeFileSync(join(root, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    const p = encodePrompt([
      { kind: 'file', path: 'big.txt' },
      { kind: 'file', path: 'bin.dat' },
      { kind: 'file', path: 'fence.md' },
    ]);
    const r = await convertFileReferences(p.prompt_text, p.file_references, { roots: [root], strategy: { kind: 'inline', maxBytesPerFile: 1000 } });
    assert.ok(r.text.includes('x'.repeat(1000) + '\n```\n[… truncated: showing the first 1000 of 5000 bytes]'), r.text.slice(0, 200));
    assert.ok(!r.text.includes('x'.repeat(1001)));
    assert.ok(r.text.includes('[File: bin.dat] (binary file, 4 bytes, not inlined)'));
    assert.ok(r.text.includes('````\na\n```\nb\n````'), 'a fence longer than any inside the content');
  });

  it('§16.3-1 agents that load files themselves (separate): tokens leave the text, files are returned', async () => {
    const r = await convertFileReferences(prompt.prompt_text, prompt.file_references, { roots: [root], strategy: { kind: 'separate' } });
    assert.equal(r.text, 'fix and \\<@file:forged|x> see');
    assert.deepEqual(r.files.map((f) => f.path), ['src/auth.ts', 'docs/a b.md']);
    const mention = await convertFileReferences(prompt.prompt_text, prompt.file_references, { roots: [root], strategy: { kind: 'separate', mention: (p) => `@${p}` } });
    assert.equal(mention.text, 'fix @src/auth.ts and \\<@file:forged|x> see @docs/a b.md');
  });

  it('§16.3 CLI/script agents (arguments): absolute paths as process arguments, the text keeps the display paths', async () => {
    const r = await convertFileReferences(prompt.prompt_text, prompt.file_references, { roots: [root], strategy: { kind: 'arguments' } });
    assert.deepEqual(r.args, [join(root, 'src/auth.ts'), join(root, 'docs/a b.md')]);
    assert.equal(r.text, 'fix src/auth.ts and \\<@file:forged|x> see a b.md');
  });

  it('§12.2.1-4 a client without file_reference gets the literal fallback: display_path as text', async () => {
    assert.equal(interpretsFileReferences({ file_reference: false }), false);
    assert.equal(interpretsFileReferences(undefined), false);
    assert.equal(interpretsFileReferences({ file_reference: true }), true);
    const r = await convertFileReferences(prompt.prompt_text, prompt.file_references, { roots: [root], strategy: { kind: 'inline' }, interpretTokens: false });
    assert.equal(r.strategy, 'literal');
    assert.equal(r.text, 'fix src/auth.ts and \\<@file:forged|x> see a b.md');
    assert.deepEqual(r.files, []);
  });

  it('§16.3 paths that leave the workspace are refused with a clear error and fall back to literal text', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'linkdir'));
    const refs: FileReference[] = [
      { ref_id: 'up', path: '../x', name: 'x', workspace_relative_path: '../' + outside.split('/').pop() + '/secret.txt' },
      { ref_id: 'abs', path: join(outside, 'secret.txt'), name: 'secret.txt', workspace_relative_path: join(outside, 'secret.txt') },
      { ref_id: 'sym', path: 'link.txt', name: 'link.txt', workspace_relative_path: 'link.txt' },
      { ref_id: 'symdir', path: 'linkdir/secret.txt', name: 'secret.txt', workspace_relative_path: 'linkdir/secret.txt' },
      { ref_id: 'gone', path: 'nope.ts', name: 'nope.ts', workspace_relative_path: 'nope.ts' },
    ];
    const text = refs.map((r) => `<@file:${r.ref_id}|${r.ref_id}-shown>`).join(' ');
    const r = await convertFileReferences(text, refs, { roots: [root], strategy: { kind: 'inline' } });
    assert.equal(r.text, 'up-shown abs-shown sym-shown symdir-shown gone-shown');
    assert.ok(!r.text.includes('top secret'));
    assert.deepEqual(r.files, []);
    assert.deepEqual(
      r.errors.map((e) => [e.ref_id, e.code]),
      [
        ['up', 'FS_OUTSIDE_WORKSPACE'],
        ['abs', 'FS_OUTSIDE_WORKSPACE'],
        ['sym', 'FS_OUTSIDE_WORKSPACE'],
        ['symdir', 'FS_OUTSIDE_WORKSPACE'],
        ['gone', 'FS_NOT_FOUND'],
      ],
    );
    for (const e of r.errors) assert.ok(e.message.includes(e.ref_id === 'abs' ? 'secret.txt' : e.ref_id === 'gone' ? 'nope.ts' : ''), e.message);
  });

  it('§16.2.1-4 §16.2.1-5 unmapped tokens are kept literally by every strategy', async () => {
    for (const kind of ['label', 'separate', 'arguments', 'literal'] as const) {
      const r = await convertFileReferences('a <@file:nope|x.ts> b', [], { roots: [root], strategy: { kind } });
      assert.equal(r.text, 'a <@file:nope|x.ts> b', kind);
      assert.deepEqual(r.unmapped, ['<@file:nope|x.ts>']);
    }
  });
});
