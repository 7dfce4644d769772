import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { makeEnv, type Env } from './_env';

describe('tools: Read, Glob, Grep, LS, TodoRead/TodoWrite', () => {
  let env: Env;
  beforeEach(() => {
    env = makeEnv();
    mkdirSync(env.p('src/lib'), { recursive: true });
    mkdirSync(env.p('node_modules/x'), { recursive: true });
    writeFileSync(env.p('src/a.ts'), 'export const alpha = 1;\nexport const beta = 2;\n');
    writeFileSync(env.p('src/lib/b.ts'), 'import { alpha } from "../a";\nconsole.log(alpha);\n');
    writeFileSync(env.p('README.md'), '# Title\nAlpha and omega\n');
    writeFileSync(env.p('ignored.log'), 'alpha\n');
    writeFileSync(env.p('.gitignore'), '*.log\n');
    writeFileSync(env.p('node_modules/x/i.ts'), 'alpha\n');
    utimesSync(env.p('src/a.ts'), new Date(1000_000), new Date(1000_000));
  });
  afterEach(() => {
    env.host.assertAllFramesAccepted();
    env.cleanup();
  });

  it('§5.3.3 Read returns numbered lines as file_content; a default-capped read is truncated: true', async () => {
    const r = await env.call('Read', { file_path: 'src/a.ts' });
    assert.equal(r.output_type, 'file_content');
    assert.equal(r.output, '     1\texport const alpha = 1;\n     2\texport const beta = 2;');
    assert.equal(r.truncated, undefined);
    const w = await env.call('Read', { file_path: env.p('src/a.ts'), offset: 2, limit: 1 });
    assert.equal(w.output, '     2\texport const beta = 2;');
    writeFileSync(env.p('long.txt'), Array.from({ length: 2100 }, (_, i) => `l${i}`).join('\n'));
    const long = await env.call('Read', { file_path: env.p('long.txt') });
    assert.equal(long.truncated, true);
    assert.match(String(long.output), /100 more lines; read on with offset 2001/);
    assert.equal(env.host.ofType('tool.invoke.result').at(-1)!.payload.truncated, true);
    const dir = await env.call('Read', { file_path: env.p('src') });
    assert.equal(dir.error_code, 'FS_IS_DIRECTORY');
  });

  it('§5.3.3 Glob lists matching files newest first as file_list, skipping .gitignore and node_modules', async () => {
    const r = await env.call('Glob', { pattern: '**/*.ts' });
    assert.equal(r.output_type, 'file_list');
    assert.deepEqual(r.output, ['src/lib/b.ts', 'src/a.ts']);
    const sub = await env.call('Glob', { pattern: '*.ts', path: 'src' });
    assert.deepEqual(sub.output, ['src/a.ts']);
    const logs = await env.call('Glob', { pattern: '*.log' });
    assert.deepEqual(logs.output, []);
  });

  it('§5.3.3 Grep: files_with_matches is a file_list; content and count are text', async () => {
    const files = await env.call('Grep', { pattern: 'alpha' });
    assert.equal(files.output_type, 'file_list');
    assert.deepEqual(files.output, ['src/a.ts', 'src/lib/b.ts']);
    const ci = await env.call('Grep', { pattern: 'alpha', '-i': true, include: '*.md' });
    assert.deepEqual(ci.output, ['README.md']);
    const content = await env.call('Grep', { pattern: 'alpha', output_mode: 'content', '-n': true, path: 'src/lib' });
    assert.equal(content.output_type, 'text');
    assert.equal(content.output, 'src/lib/b.ts:1:import { alpha } from "../a";\nsrc/lib/b.ts:2:console.log(alpha);');
    const ctx = await env.call('Grep', { pattern: 'beta', output_mode: 'content', '-B': 1 });
    // A context line is not a match: the lines are not the count, so the result says the count (decision 577).
    assert.equal(ctx.output, 'src/a.ts:export const alpha = 1;\nsrc/a.ts:export const beta = 2;\n(1 matching line in 1 file)');
    const count = await env.call('Grep', { pattern: 'alpha', output_mode: 'count', glob: '**/*.ts' });
    assert.equal(count.output, 'src/a.ts:1\nsrc/lib/b.ts:2');
    const limited = await env.call('Grep', { pattern: 'alpha', head_limit: 1 });
    assert.deepEqual(limited.output, ['src/a.ts']);
    assert.equal(limited.truncated, true);
    const bad = await env.call('Grep', { pattern: '(' });
    assert.equal(bad.error_code, 'INVALID_INPUT');
  });

  it('§5.3.3 LS lists a directory as file_list with directories marked', async () => {
    const r = await env.call('LS', { path: env.p('src') });
    assert.equal(r.output_type, 'file_list');
    assert.deepEqual(r.output, ['src/a.ts', 'src/lib/']);
    const ig = await env.call('LS', { path: env.dir, ignore: ['node_modules', '.*'] });
    assert.deepEqual(ig.output, ['README.md', 'ignored.log', 'src/']);
    assert.equal((await env.call('LS', { path: 'nope' })).error_code, 'FS_NOT_FOUND');
  });

  it('§8.2 TodoWrite and TodoRead return structured §8.1 task objects', async () => {
    const w = await env.call('TodoWrite', { todos: [{ content: 'write tests', status: 'in_progress', priority: 'high' }, { content: 'ship', status: 'pending' }] });
    assert.equal(w.output_type, 'structured');
    const out = w.output as { success: boolean; count: number; todos: { id: string; content: string; status: string; created_at: string }[] };
    assert.equal(out.success, true);
    assert.equal(out.count, 2);
    assert.ok(out.todos.every((t) => t.id && t.created_at));
    const r = await env.call('TodoRead', {});
    assert.equal(r.output_type, 'structured');
    assert.deepEqual((r.output as { todos: unknown[] }).todos, out.todos);
    const keep = await env.call('TodoWrite', { todos: [{ id: out.todos[0].id, content: 'write tests', status: 'completed' }] });
    const kept = (keep.output as typeof out).todos[0];
    assert.equal(kept.created_at, out.todos[0].created_at);
    assert.equal(kept.status, 'completed');
    const bad = await env.call('TodoWrite', { todos: [{ content: 'x', status: 'done' }] });
    assert.equal(bad.error_code, 'INVALID_INPUT');
  });

  it('§15.1 a tool not in the catalog is refused; bad input is a clear INVALID_INPUT', async () => {
    const r = await env.call('WebFetch', { url: 'https://example.com' });
    assert.equal(r.error_code, 'UNKNOWN_TOOL');
    const bad = await env.call('Read', { path: 'x' });
    assert.equal(bad.error_code, 'INVALID_INPUT');
    assert.match(String(bad.output), /file_path/);
    const results = env.host.ofType('tool.invoke.result');
    assert.ok(results.every((x) => typeof x.payload.duration_ms === 'number' && x.payload.output_type === 'text'));
  });

  it('a path longer than any file system takes (4 MB in a prompt) is refused before it is resolved, and the answer does not echo it', async () => {
    const huge = `src/${'a'.repeat(4 * 1024 * 1024)}.ts`;
    for (const [name, input] of [['Read', { file_path: huge }], ['Write', { file_path: huge, content: 'x' }], ['LS', { path: huge }]] as const) {
      const r = await env.call(name, input);
      assert.equal(r.error_code, 'INVALID_INPUT', name);
      assert.match(String(r.output), /4,194,311 characters long, more than any file system takes \(4,096\)/);
      assert.ok(String(r.output).length < 400, `${name}: the answer names the path's start only`);
    }
    const atLimit = await env.call('Read', { file_path: `src/${'b'.repeat(4092)}` });
    assert.notEqual(atLimit.error_code, 'INVALID_INPUT', 'a path of exactly 4,096 characters is looked up (and not found)');
  });
});
