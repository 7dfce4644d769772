// Where a path really leads (realLocation.ts), for the permission rules of agents that write files
// themselves: a path under a symlink to a folder outside the workspace is outside, however it is
// written; a workspace reached through a symlink of its own is still inside.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { permissionQuestion } from '../../../src/agents/acp/permission';
import { resolvesOutside } from '../../../src/workspace/realLocation';

describe('workspace/realLocation: a path that leads out through a symlink is outside (the headless trial of 2026-12-05)', () => {
  let base: string;
  let ws: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'rawp-real-'));
    ws = join(base, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(base, 'outside'), join(ws, 'src', 'link'));
    symlinkSync(ws, join(base, 'ws-alias'));
    writeFileSync(join(ws, 'src', 'a.ts'), 'a\n');
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('security: inside, new files inside, and a workspace named through its own symlink are inside; a path through a symlink to outside is outside, existing or not', () => {
    assert.equal(resolvesOutside(join(ws, 'src', 'a.ts'), [ws]), false);
    assert.equal(resolvesOutside(join(ws, 'src', 'new', 'deep.ts'), [ws]), false);
    assert.equal(resolvesOutside('src/a.ts', [ws]), false);
    assert.equal(resolvesOutside(join(base, 'ws-alias', 'src', 'a.ts'), [ws]), false);
    assert.equal(resolvesOutside(join(ws, 'src', 'a.ts'), [join(base, 'ws-alias')]), false);
    assert.equal(resolvesOutside(join(ws, 'src', 'link', 'via_link.txt'), [ws]), true);
    assert.equal(resolvesOutside('src/link/x/y.txt', [ws]), true);
    assert.equal(resolvesOutside(join(ws, '..', 'outside', 'z'), [ws]), true);
  });

  it('security: an ACP ask for a path through the symlink is outside the workspace, so no rule can allow it', () => {
    const q = permissionQuestion({ tool_name: 'Write', title: 'Write', input: {}, paths: [join(ws, 'src', 'link', 'via_link.txt')] }, [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }], [ws]);
    assert.equal(q.call.outsideWorkspace, true);
    const inside = permissionQuestion({ tool_name: 'Write', title: 'Write', input: {}, paths: [join(ws, 'src', 'a.ts')] }, [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }], [ws]);
    assert.equal(inside.call.outsideWorkspace, undefined);
  });
});
