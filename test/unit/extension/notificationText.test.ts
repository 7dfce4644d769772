// The words of the editor's session notifications: one line, bounded, never a link (decision 651).
import { strict as assert } from 'node:assert';
import { clip, plain } from '../../../src/extension/notificationText';

describe('extension: notification text', () => {
  it('security: a session name or a question cannot become a command link in a notification ([label](command:…))', () => {
    const hostile = '[Open settings](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D)';
    assert.equal(plain(hostile).includes(']('), false);
    assert.equal(plain(hostile), '[Open settings] (command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D)');
    assert.equal(clip(`Allow\n${hostile}?`).includes(']('), false);
  });

  it('clip: one line, at most 120 characters', () => {
    assert.equal(clip('a\n\tb'), 'a b');
    assert.equal(clip('x'.repeat(200)).length, 120);
  });
});
