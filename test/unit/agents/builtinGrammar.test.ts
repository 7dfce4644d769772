import { strict as assert } from 'node:assert';
import { parseRequests } from '../../../src/agents/builtin/grammar';
import { referencedPrompt, resolveFileTokens } from '../../../src/agents/builtin/agent';

describe('agents/builtin: grammar', () => {
  it('builtin grammar: parses every documented request', () => {
    assert.deepEqual(parseRequests('read src/a.ts'), [{ kind: 'read', path: 'src/a.ts' }]);
    assert.deepEqual(parseRequests('read @src/a.ts lines 3-7'), [{ kind: 'read', path: 'src/a.ts', offset: 3, limit: 5 }]);
    assert.deepEqual(parseRequests('find foo\\(\\) in src'), [{ kind: 'find', pattern: 'foo\\(\\)', path: 'src' }]);
    assert.deepEqual(parseRequests('find `a b`'), [{ kind: 'find', pattern: 'a b' }]);
    assert.deepEqual(parseRequests('files **/*.ts'), [{ kind: 'files', pattern: '**/*.ts' }]);
    assert.deepEqual(parseRequests('ls'), [{ kind: 'ls', path: '.' }]);
    assert.deepEqual(parseRequests('replace `a` with `b` in `my file.txt`'), [{ kind: 'replace', old_string: 'a', new_string: 'b', path: 'my file.txt', all: false }]);
    assert.deepEqual(parseRequests('replace all ``x`y`` with `` in a.ts'), [{ kind: 'replace', old_string: 'x`y', new_string: '', path: 'a.ts', all: true }]);
    assert.deepEqual(parseRequests('write notes/a.md: hello\nworld'), [{ kind: 'write', path: 'notes/a.md', content: 'hello\nworld\n' }]);
    assert.deepEqual(parseRequests('run `npm test -- --grep x`'), [{ kind: 'run', command: 'npm test -- --grep x' }]);
    assert.deepEqual(parseRequests('todo: a; b ;c'), [{ kind: 'todo', items: ['a', 'b', 'c'] }]);
    assert.deepEqual(parseRequests('todos'), [{ kind: 'todos' }]);
    assert.deepEqual(parseRequests('plan: read a.ts; run `ls`\n3. something'), [{ kind: 'plan', text: 'read a.ts; run `ls`\n3. something', steps: ['read a.ts', 'run `ls`', 'something'], requests: [{ kind: 'read', path: 'a.ts' }, { kind: 'run', command: 'ls' }, { kind: 'unknown', text: 'something' }] }]);
    assert.deepEqual(parseRequests('delegate: find TODO'), [{ kind: 'delegate', prompt: 'find TODO' }]);
    assert.deepEqual(parseRequests('/compact keep the API notes'), [{ kind: 'compact', instruction: 'keep the API notes' }]);
    assert.deepEqual(parseRequests('help'), [{ kind: 'help' }]);
    assert.deepEqual(parseRequests('please refactor everything'), [{ kind: 'unknown', text: 'please refactor everything' }]);
    assert.deepEqual(parseRequests('read a.ts\nfind x'), [{ kind: 'read', path: 'a.ts' }, { kind: 'find', pattern: 'x' }]);
  });

  it('a `write` on a later line takes the rest of the prompt, as on the first (it was read as free text)', () => {
    assert.deepEqual(parseRequests('read d.txt\n  write d.txt: overwritten\nsecond line'), [
      { kind: 'read', path: 'd.txt' },
      { kind: 'write', path: 'd.txt', content: 'overwritten\nsecond line\n' },
    ]);
    assert.deepEqual(parseRequests('read c.txt\nwrite is a verb I like'), [{ kind: 'read', path: 'c.txt' }, { kind: 'unknown', text: 'write is a verb I like' }], 'no colon: not a write');
    assert.deepEqual(parseRequests('write a.txt: one\nwrite b.txt: two'), [{ kind: 'write', path: 'a.txt', content: 'one\nwrite b.txt: two\n' }], 'the first write takes the rest, as documented');
  });

  it('§16.2.1 file-reference tokens become paths; unmapped tokens still yield their path as an argument', () => {
    const refs = [{ ref_id: 'ref_0', path: '/w/src/a b.ts', name: 'a b.ts', workspace_relative_path: 'src/a b.ts' }];
    assert.equal(resolveFileTokens({ text: 'read <@file:ref_0|a b.ts>', file_references: refs }), 'read src/a b.ts');
    const { text, paths } = referencedPrompt({ text: 'read <@file:ref_0|a b.ts>', file_references: refs });
    assert.deepEqual(parseRequests(text, paths), [{ kind: 'read', path: 'src/a b.ts' }], 'a path with spaces is one argument');
    assert.equal(resolveFileTokens({ text: 'read <@file:zz|src/c.ts>', file_references: refs }), 'read src/c.ts');
    assert.equal(resolveFileTokens({ text: 'find \\<@file:x|y>', file_references: [] }), 'find <@file:x|y>', '§16.2.2 an escaped token stays literal');
  });
});
