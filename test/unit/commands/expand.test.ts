import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { expandSlashCommand, parseCommandArgs, parseInvocation, renderTemplate, substituteArgs } from '../../../src/commands';

describe('commands: argument parsing and expansion', () => {
  it('slash-commands §6 parseCommandArgs splits on spaces and tabs, collapsing runs', () => {
    assert.deepEqual(parseCommandArgs('a  b\tc '), ['a', 'b', 'c']);
    assert.deepEqual(parseCommandArgs(''), []);
    assert.deepEqual(parseCommandArgs('   '), []);
  });

  it('slash-commands §6 single and double quotes keep spaces and are stripped', () => {
    assert.deepEqual(parseCommandArgs(`"hello world" 'a b' c`), ['hello world', 'a b', 'c']);
    assert.deepEqual(parseCommandArgs(`say"it loud"now`), ['sayit loudnow']);
    assert.deepEqual(parseCommandArgs(`"it's" 'say "hi"'`), [`it's`, 'say "hi"']);
  });

  it('slash-commands §6 no backslash escapes: a backslash is an ordinary character', () => {
    assert.deepEqual(parseCommandArgs('a\\ b'), ['a\\', 'b']);
    // Spelled out: `"a\"` closes at the second quote, then `b`, then ` c"` opens an unmatched quote.
    assert.deepEqual(parseCommandArgs('"a\\"b c"'), ['a\\b', 'c']);
  });

  it('slash-commands §6 an unmatched quote is no error: it consumes to the end', () => {
    assert.deepEqual(parseCommandArgs('one "two three'), ['one', 'two three']);
    assert.deepEqual(parseCommandArgs("x 'y  z   "), ['x', 'y  z   ']);
  });

  it('slash-commands §6 empty quotes produce no argument', () => {
    assert.deepEqual(parseCommandArgs(`a "" b ''`), ['a', 'b']);
  });

  it('slash-commands §6 parseCommandArgs never throws and never yields empty arguments (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const args = parseCommandArgs(s);
        return args.every((a) => a.length > 0);
      }),
    );
  });

  it('slash-commands §6 $1, $2 … positional, missing ones become empty, $10 is the tenth', () => {
    assert.equal(substituteArgs('[$1] [$2] [$3]', ['a', 'b']), '[a] [b] []');
    const ten = Array.from({ length: 10 }, (_v, i) => `v${i + 1}`);
    assert.equal(substituteArgs('$10 $1', ten), 'v10 v1');
  });

  it('slash-commands §6 $ARGUMENTS and $@ are all arguments joined by one space', () => {
    assert.equal(substituteArgs('all=$ARGUMENTS at=$@', ['a b', 'c']), 'all=a b c at=a b c');
    assert.equal(substituteArgs('none=[$ARGUMENTS]', []), 'none=[]');
  });

  it('slash-commands §6 positional substitution runs first: an argument containing $2 is not substituted again', () => {
    assert.equal(substituteArgs('$1|$2', ['$2', 'B']), '$2|B');
    // …but aggregate values are inserted after, literally.
    assert.equal(substituteArgs('$ARGUMENTS', ['$1']), '$1');
  });

  it('slash-commands §6 template rendering with { args, ARGUMENTS, arguments }', () => {
    const cmds = [{ name: 't', content: 'first={{args.0}} second={{ args[1] }} all={{ARGUMENTS}} lower={{arguments}} list={{args}} keep={{other}}' }];
    assert.equal(expandSlashCommand('/t "x y" z', cmds), 'first=x y second=z all=x y z lower=x y z list=x y z keep={{other}}');
    assert.equal(renderTemplate('{{args.5}}', { args: ['a'] }), '');
  });

  it('slash-commands §6 expansion: name is the first token, exact match only, rest parsed as arguments', () => {
    const cmds = [
      { name: 'review', content: 'Review $1 focusing on $ARGUMENTS' },
      { name: 'rev', content: 'short' },
    ];
    assert.equal(expandSlashCommand('/review src/a.ts perf', cmds), 'Review src/a.ts focusing on src/a.ts perf');
    assert.equal(expandSlashCommand('/rev', cmds), 'short');
    assert.equal(expandSlashCommand('/revie x', cmds), '/revie x');
    assert.equal(expandSlashCommand('/Review x', cmds), '/Review x');
  });

  it('slash-commands §6 expansion runs only when the text starts with /', () => {
    const cmds = [{ name: 'x', content: 'EXPANDED' }];
    assert.equal(expandSlashCommand(' /x', cmds), ' /x');
    assert.equal(expandSlashCommand('please /x', cmds), 'please /x');
    assert.equal(expandSlashCommand('/x', cmds), 'EXPANDED');
  });

  it('slash-commands §7 an unknown /command comes back unchanged', () => {
    assert.equal(expandSlashCommand('/nope a "b c"', [{ name: 'x', content: 'X' }]), '/nope a "b c"');
    assert.equal(expandSlashCommand('/', [{ name: 'x', content: 'X' }]), '/');
  });

  it('slash-commands §6 the name ends at any whitespace (a newline too); later lines stay in the arguments', () => {
    assert.deepEqual(parseInvocation('/fix\nthe bug'), { name: 'fix', argsText: 'the bug' });
    assert.equal(expandSlashCommand('/fix\nthe bug', [{ name: 'fix', content: 'Fix: $ARGUMENTS' }]), 'Fix: the bug');
    // Newlines are not separators inside the arguments (only space and tab are).
    assert.deepEqual(parseCommandArgs('a\nb c'), ['a\nb', 'c']);
  });
});
