// parseArgs's errors in our words (src/cli/argErrors.ts), from real node:util parseArgs errors.
import { strict as assert } from 'node:assert';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { argumentErrorWords } from '../../../src/cli/argErrors';

const options = { 'max-turns': { type: 'string' }, token: { type: 'string' }, verbose: { type: 'boolean' } } as const;

/** The words for what parseArgs throws on `args`. */
function wordsFor(args: string[], allowPositionals = true): string {
  const config: ParseArgsConfig = { args, options, allowPositionals, strict: true };
  try {
    parseArgs(config);
  } catch (e) {
    return argumentErrorWords(e, args);
  }
  throw new Error(`parseArgs took ${args.join(' ')}`);
}

describe('cli: argument errors in plain words (decision 700)', () => {
  it('an unknown option, with the "--" way only where words are taken', () => {
    assert.equal(wordsFor(['--bogus']), 'unknown option "--bogus" (words that start with "-" go after "--": … -- "--bogus")');
    assert.equal(wordsFor(['--bogus'], false), 'unknown option "--bogus"');
  });

  it('a missing value, a value for a flag, a word where none is taken', () => {
    assert.equal(wordsFor(['--max-turns']), '--max-turns needs a value');
    assert.equal(wordsFor(['--verbose=yes']), '--verbose takes no value');
    assert.equal(wordsFor(['extra'], false), 'unexpected argument "extra": this verb takes options only');
  });

  it('a value that starts with "-" is named with the way to give it; a secret option\'s is not', () => {
    assert.equal(wordsFor(['--max-turns', '-1']), '--max-turns needs a value, and "-1" after it reads as an option: write --max-turns=-1 if it is the value');
    const token = wordsFor(['--token', '-abc']);
    assert.equal(token, '--token needs a value, and the word after it reads as an option: write --token=VALUE if it is the value');
  });

  it('a message it does not know is passed on whole', () => {
    assert.equal(argumentErrorWords(new Error('something new')), 'something new');
    assert.equal(argumentErrorWords(Object.assign(new Error("Unknown option shape"), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })), 'Unknown option shape');
    assert.equal(argumentErrorWords('text'), 'text');
  });
});
