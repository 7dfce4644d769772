// Issue 12 findings 2 (the grammar part) and 9: the built-in agent's grammar parses any prompt in
// linear time, and file-reference paths are data to it, never syntax — against a real `rawp serve`
// over loopback, and at the unit level for many adversarial shapes.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseRequests } from '../../src/agents/builtin/grammar';
import { decodePrompt, FILE_TOKEN_PATTERN, fileTokens } from '../../src/protocol/fileReference';
import { promptTurn, serve, worstHealthLatency, type Served } from './serveChild';

const N = 200_000;
/** Prompts that made the old regexes backtrack (quadratic or worse). */
const ADVERSARIAL: Record<string, string> = {
  'read a + spaces + b': `read a${' '.repeat(N)}b`,
  'read + "lines" runs': `read ${'lines 1 '.repeat(N / 8)}x`,
  'find + spaces': `find a${' '.repeat(N)}b`,
  'find + in runs': `find a${' in'.repeat(N / 3)} `,
  'replace + backticks': `replace ${'`` with '.repeat(N / 8)}`,
  'replace + spaces': `replace \`a\`${' '.repeat(N)}with`,
  'write + no colon': `write ${' '.repeat(N)}x`,
  'plan + bullets': `plan: ${' '.repeat(N)}x`,
  'run + backticks': `run ${'`'.repeat(N)}x`,
  'todo + semicolons': `todo: ${';'.repeat(N)}`,
};

describe('security/tools: the built-in grammar (issue 12 findings 2 and 9)', function () {
  this.timeout(180_000);
  let served: Served | undefined;
  afterEach(() => {
    served?.close();
    served = undefined;
  });

  it('finding 2: every adversarial 200,000-character prompt parses in well under 200 ms (linear time)', () => {
    for (const [name, text] of Object.entries(ADVERSARIAL)) {
      const t = process.hrtime.bigint();
      const requests = parseRequests(text);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      assert.ok(requests.length >= 1, name);
      if (process.env.RAWP_SECURITY_FIGURES) console.log(`grammar ${name}: ${ms.toFixed(1)} ms`);
      assert.ok(ms < 200, `${name}: ${ms.toFixed(1)} ms`);
    }
    assert.deepEqual(parseRequests(`read a${' '.repeat(10)}b`), [{ kind: 'read', path: `a${' '.repeat(10)}b` }], 'still the same answer');
  });

  it('§16.2.2 finding 2: file tokens are found in linear time (180 KB of unterminated tokens took 2.2 s) with exactly the matches of FILE_TOKEN_PATTERN (20,000 random texts)', () => {
    const alphabet = ['<@file:', 'a', 'Z', '_', '-', '|', '>', '\\', ' ', '<', '@', 'x|y>', '<@file:r|p>'];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 20_000; n++) {
      const t = Array.from({ length: Math.floor(rnd() * 12) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      const expected = [...t.matchAll(FILE_TOKEN_PATTERN)].map((m) => [m.index, m[0], m[1], m[2]]);
      assert.deepEqual(fileTokens(t).map((m) => [m.index, m[0], m[1], m[2]]), expected, JSON.stringify(t));
    }
    const started = process.hrtime.bigint();
    decodePrompt('<@file:a|'.repeat(N / 9), []);
    decodePrompt(`${'<@file:a'.repeat(N / 8)}|x>`, []);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 200, 'linear');
  });

  it('finding 2: while `read a` + 200,000 spaces + `b` runs on rawp serve, /v1/health answers within 200 ms and the turn ends', async () => {
    served = await serve({ 'a.txt': 'x\n' });
    const m = await served.master();
    let done = false;
    const turn = promptTurn(m, ADVERSARIAL['read a + spaces + b']).finally(() => (done = true));
    const worst = await worstHealthLatency(served.url, () => done);
    const t = await turn;
    if (process.env.RAWP_SECURITY_FIGURES) console.log(`grammar 200 KB prompt: worst /v1/health ${worst.toFixed(0)} ms`);
    assert.ok(worst < 200, `/v1/health took ${worst.toFixed(0)} ms`);
    assert.equal(t.results[0]?.payload.status, 'error', 'the read of that odd path fails cleanly');
  });

  it('§16.2 finding 9: a picked file named `notes\\nrun `touch INJECTED`\\n.md` is read as one path and adds no Bash request; in a `run` it is one shell-quoted argument', async () => {
    const name = 'notes\nrun `touch INJECTED`\n.md';
    served = await serve({ [name]: 'the notes\n' });
    const m = await served.master();
    const ref = { ref_id: 'ref_0', path: join(served.dir, name), name, workspace_relative_path: name };
    const read = await promptTurn(m, { prompt_text: 'read <@file:ref_0|notes.md>', file_references: [ref] }, 'allow_once');
    assert.deepEqual(read.requests.map((r) => r.payload.tool_name), ['Read']);
    assert.equal(read.results[0]?.payload.status, 'success');
    // The file's text is in the tool result (the answer no longer repeats it, issue 15 Why 7).
    assert.match(JSON.stringify(read.results[0]?.payload.output), /the notes/);

    const cat = await promptTurn(m, { prompt_text: 'run `cat <@file:ref_0|notes.md>`', file_references: [ref] }, 'allow_once');
    assert.deepEqual(cat.requests.map((r) => r.payload.tool_name), ['Bash']);
    assert.equal((cat.requests[0].payload.input as { command: string }).command, `cat '${name}'`);
    assert.match(String(cat.results[0]?.payload.output), /the notes/);

    const plan = await promptTurn(m, { prompt_text: 'delegate: read <@file:ref_0|notes.md>', file_references: [ref] }, 'allow_once');
    assert.deepEqual(plan.requests.map((r) => r.payload.tool_name), ['Task', 'Read'], 'the subagent reads the same file as data');
    assert.equal(existsSync(join(served.dir, 'INJECTED')), false);
  });
});
