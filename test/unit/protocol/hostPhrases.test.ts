// hostPhrases: one table of the host's words for the view and the terminal verbs.
import { strict as assert } from 'node:assert';
import { HOST_PHRASES_EN, HOST_PHRASES_KO, hostNoticeIn, phrasedNotice } from '../../../src/protocol/hostPhrases';

describe('protocol/hostPhrases', () => {
  it('every phrase has Korean words of its own, with the same {n} arguments', () => {
    for (const [id, english] of Object.entries(HOST_PHRASES_EN)) {
      const korean = HOST_PHRASES_KO[id as keyof typeof HOST_PHRASES_EN];
      assert.ok(korean && korean !== english, id);
      assert.deepEqual(korean.match(/\{\d\}/g)?.sort() ?? [], english.match(/\{\d\}/g)?.sort() ?? [], id);
    }
  });

  it('a notice is said in the language asked; its English message is the table\'s', () => {
    const n = phrasedNotice('notice.renamed', ['Release notes']);
    assert.deepEqual(n, { message: 'The session is now called “Release notes”.', words: { id: 'renamed', args: ['Release notes'] } });
    assert.equal(hostNoticeIn(n, 'en'), n.message);
    assert.equal(hostNoticeIn(n, 'ko'), '세션 이름이 “Release notes”(으)로 바뀌었습니다.');
  });

  it('an unknown phrase (a newer host) or none at all shows the English message', () => {
    assert.equal(hostNoticeIn({ message: 'Something new.', words: { id: 'from_the_future' } }, 'ko'), 'Something new.');
    assert.equal(hostNoticeIn({ message: 'Plain.' }, 'ko'), 'Plain.');
  });

  it('/help: each host command\'s own description is translated; an agent\'s command of the same name keeps its words', () => {
    const message = ['/help — List the available slash commands', '/review — Review my way', '/deploy — Ship it', 'not a command line'].join('\n');
    assert.equal(hostNoticeIn({ message, words: { id: 'help' } }, 'ko'), ['/help — 사용할 수 있는 슬래시 명령어 보기', '/review — Review my way', '/deploy — Ship it', 'not a command line'].join('\n'));
    assert.equal(hostNoticeIn({ message, words: { id: 'help' } }, 'en'), message);
  });
});
