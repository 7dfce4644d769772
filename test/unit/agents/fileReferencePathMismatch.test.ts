// §16.3/§16.4 security property "a file reference never leads an agent outside the workspace": a
// reference whose `workspace_relative_path` is checked (and exists inside the workspace) must not
// hand the agent a different `path` (outside) to read for itself.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { convertFileReferences } from '../../../src/agents/fileReferences';
import type { FileReference } from '../../../src/protocol/fileReference';
import { makeTmp, removeTmp, writeTree } from '../workspace/tmpWorkspace';

describe('agents/fileReferences: the agent gets the path that was checked', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = makeTmp();
    outside = makeTmp('rawp-outside-');
    writeTree(root, { 'inside.txt': 'fine\n' });
    writeTree(outside, { 'secret.txt': 'top secret' });
  });
  afterEach(() => {
    removeTmp(root);
    removeTmp(outside);
  });

  const forged = (): FileReference[] => [{ ref_id: 'r0', path: join(outside, 'secret.txt'), name: 'secret.txt', workspace_relative_path: 'inside.txt' }];

  it('§16.3 security: a mention (Claude Code @path, Codex, ACP) names the checked workspace path, never a different `path` outside the workspace', async () => {
    const r = await convertFileReferences('read <@file:r0|inside.txt>', forged(), { roots: [root], strategy: { kind: 'separate', mention: (p) => `@${p}` } });
    assert.ok(!r.text.includes(outside), `the agent was pointed outside the workspace: ${r.text}`);
    assert.equal(r.text, 'read @inside.txt');
    assert.deepEqual(r.files.map((f) => f.absolute), [join(root, 'inside.txt')]);
  });

  it('§16.3 security: a label names the checked workspace path, never a different `path` outside the workspace', async () => {
    const r = await convertFileReferences('read <@file:r0|inside.txt>', forged(), { roots: [root], strategy: { kind: 'label' } });
    assert.equal(r.text, 'read [File: inside.txt]');
  });
});
