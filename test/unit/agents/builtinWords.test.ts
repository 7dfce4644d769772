// Decision 572: the built-in agent's words in English and Korean. Every phrase of the catalogue is
// called with sample arguments (the table is typed, so a new phrase without a sample does not
// compile): the Korean one is Korean and keeps every path, pattern, command and number of the
// English one.
import { strict as assert } from 'node:assert';
import { builtinLanguage, environmentLanguage, ENGLISH, KOREAN, type BuiltinWords } from '../../../src/agents/builtin/words';
import { agentLogin } from '../../../src/protocol/agentLogin';

type Samples = { [K in keyof BuiltinWords]: BuiltinWords[K] extends (...args: infer A) => string ? A : null };
const counts = { total: 3, inProgress: 1, pending: 2, completed: 0, cancelled: 4 };
const samples: Samples = {
  agentDescription: null,
  compactCommand: null,
  compactInstruction: null,
  helpCommand: null,
  grammarHelp: null,
  connectHelp: null,
  parsed: [['read', 'run'], 'plan'],
  recap: [['Read `a.txt` (3 lines).', 'Running `make` failed (TOOL_FAILED): exit 2'], 1],
  subagentWorking: [2, 'look at `src`'],
  failed: ['`src/a.ts`', 'FS_NOT_FOUND', 'no such file'],
  cancelled: ['`make`'],
  reading: ['src/a.ts'],
  read: ['src/a.ts', 12, true],
  readBinary: ['logo.png'],
  notUnderstood: ['make it faster'],
  pipedContextUnread: [7],
  readEmpty: ['empty.txt'],
  readPastEnd: ['src/a.ts', 3, 10],
  searchingFor: ['TODO:?'],
  noMatches: ['TODO:?'],
  found: [7, 'TODO:?', true],
  notSearched: [2],
  glob: null,
  noFilesMatch: ['**/*.rs'],
  listing: ['src'],
  isEmpty: ['src'],
  listed: ['`src`', 5, true],
  writing: ['notes.md'],
  created: ['notes.md', 9],
  unchanged: ['notes.md'],
  updated: ['notes.md', 3, 2],
  existsUnread: ['notes.md'],
  running: ['npm test'],
  finished: ['npm test', true],
  timedOut: ['npm test'],
  commandCancelled: ['npm test'],
  commandFailed: ['npm test', '2'],
  updatingTasks: null,
  readingTasks: null,
  tasks: [counts, true],
  noTasks: null,
  subagent: null,
  subagentFinished: null,
  subagentCannotCompact: null,
  compacted: ['S.'],
  summary: [6, ['a.ts', 'b.ts'], ['ship it'], 'the plan'],
  replacingIn: ['src/a.ts'],
  staleHint: ['src/a.ts'],
  replaced: ['src/a.ts', 4, 5, 6, true, 'quotes normalized'],
  planTitle: null,
  planSkipped: null,
  planQuestion: [8],
  approve: null,
  reject: null,
  planDismissed: null,
  planNoAnswer: null,
  planRejected: null,
  planApproved: [8, 'review'],
  attachedNotText: ['logo.bin', 1234],
  attached: ['log.txt', 40, 2048],
  moreLines: [20],
};

function phrase(words: BuiltinWords, key: keyof BuiltinWords): string {
  const value = words[key];
  const args = samples[key];
  return typeof value === 'function' ? (value as (...a: unknown[]) => string)(...(args as unknown[])) : value;
}

/** What must come through any translation untouched: code spans and numbers, in any order. */
const kept = (text: string) => [...(text.match(/`[^`\n]+`/g) ?? []), ...(text.replace(/`[^`\n]+`/g, ' ').match(/\d+/g) ?? [])].sort();
/** The help texts translate their placeholders (`<path>` → `<경로>`): the request words and the names they give are kept. */
const HELP = new Set<keyof BuiltinWords>(['grammarHelp', 'connectHelp']);
const keptInHelp = (text: string) => [...new Set([...text.matchAll(/(`+)(.+?)\1/g)].map((m) => m[2].trim().split(/[\s<]/)[0]))].sort();

describe('agents/builtin: its words in English and Korean (decision 572)', () => {
  for (const key of Object.keys(samples) as (keyof BuiltinWords)[]) {
    it(`"${key}" in Korean is Korean and keeps the English one's paths, patterns, commands and numbers`, () => {
      const en = phrase(ENGLISH, key);
      const ko = phrase(KOREAN, key);
      assert.match(ko, /[\uac00-\ud7a3]/, `Korean: ${ko}`);
      const keep = HELP.has(key) ? keptInHelp : kept;
      assert.deepEqual(keep(ko), keep(en), `${en}\n${ko}`);
    });
  }

  it('the language comes from a VS Code display language or a POSIX locale; anything else is English', () => {
    for (const tag of ['ko', 'ko-KR', 'KO-kr', 'ko_KR.UTF-8', 'ko_KR@euro']) assert.equal(builtinLanguage(tag), 'ko', tag);
    for (const tag of [undefined, '', 'en', 'en-US', 'C.UTF-8', 'kok', 'kor', 'de-DE']) assert.equal(builtinLanguage(tag), 'en', String(tag));
    assert.equal(environmentLanguage({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'ko_KR.UTF-8' }), 'ko_KR.UTF-8', 'LC_MESSAGES before LANG');
    assert.equal(environmentLanguage({ LANG: 'ko_KR.UTF-8', LC_ALL: 'C.UTF-8' }), 'C.UTF-8', 'LC_ALL first');
    assert.equal(environmentLanguage({ LANG: '' }), undefined);
  });

  it('the "talk to a real agent" help names the login commands the login card runs (the UI trial of 2026-12-06), in both languages', () => {
    for (const words of [ENGLISH, KOREAN]) {
      for (const agent of ['claude-code', 'codex']) assert.ok(words.connectHelp.includes(`\`${agentLogin(agent)!.loginDisplay}\``), `${agent} in ${words === ENGLISH ? 'English' : 'Korean'}`);
      assert.doesNotMatch(words.connectHelp, /`claude login`|rawp serve --agent/);
    }
  });
});
