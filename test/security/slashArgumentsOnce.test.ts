// Decision 541: the arguments of a slash command are inserted once, into the body only. Chained
// passes ($1, then $ARGUMENTS, then $@, then {{…}}) re-expanded what the user typed, so a few KB of
// `$@ $@ …` became hundreds of MB, and the agent got different words from the ones typed.
import { strict as assert } from 'node:assert';
import { applyArguments, expandSlashCommand } from '../../src/commands/expand';
import { substituteArgs as substituteArgsDirect } from '../../src/commands/args';
import { ExpansionTooLargeError, MAX_EXPANSION_LENGTH, fillPlaceholders } from '../../src/commands/placeholders';
import { PromptPipeline } from '../../src/commands/pipeline';
import type { FileSlashCommand } from '../../src/commands/types';

const review: FileSlashCommand = { name: 'review', description: 'review', content: 'Review this: $ARGUMENTS', source: 'bundled', frontmatter: {} };

describe('security: slash-command arguments are substituted once (decision 541)', () => {
  it('placeholders typed inside the arguments reach the agent as typed', () => {
    const typed = '/review "price is $@ per unit" {{ARGUMENTS}} $1 {{args.0}} $ARGUMENTS';
    assert.equal(expandSlashCommand(typed, [review]), 'Review this: price is $@ per unit {{ARGUMENTS}} $1 {{args.0}} $ARGUMENTS');
    assert.equal(substituteArgsDirect('$1|$2', ['$ARGUMENTS', '$@']), '$ARGUMENTS|$@');
    assert.equal(applyArguments('<{{ARGUMENTS}}|$1>', 'a{{args.0}}'), '<a{{args.0}}|a{{args.0}}>');
  });

  it('every placeholder of the body is still filled, in any order and mixed', () => {
    const body = '{{args.1}} $2 $@ {{ arguments }} $ARGUMENTS {{args}} $3 {{other}}';
    assert.equal(applyArguments(body, 'x "y z"'), 'y z y z x y z x y z x y z x y z  {{other}}');
  });

  it('typed `$@ $@ …` grows the prompt by its own length, not by its square', async () => {
    const p = new PromptPipeline({ fileCommands: () => [review] });
    const args = Array(12000).fill('$@').join(' '); // 36 KB: a 432 MB prompt before the fix
    const a = await p.run(`/review ${args}`);
    assert.equal(a.kind, 'prompt');
    if (a.kind === 'prompt') assert.equal(a.payload.prompt_text, `Review this: ${args}`);
  });

  it('an expansion over the limit is refused with a clear error, before it is built', () => {
    // A body that repeats $ARGUMENTS 1000 times multiplies 5 KB of arguments into 5 MB.
    const body = Array(1000).fill('$ARGUMENTS').join('\n');
    const arg = 'a'.repeat(5000);
    assert.ok(1000 * arg.length > MAX_EXPANSION_LENGTH);
    assert.throws(() => applyArguments(body, arg), (e: unknown) => e instanceof ExpansionTooLargeError && /expands to more than 4194304 characters/.test(e.message));
    // Just under the limit is fine.
    assert.equal(fillPlaceholders('$1$1', ['abc'], 6), 'abcabc');
    assert.throws(() => fillPlaceholders('$1$1', ['abc'], 5), ExpansionTooLargeError);
  });

});
