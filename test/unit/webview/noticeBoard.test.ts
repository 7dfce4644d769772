// The notice board (decisions 648, 657): what the banners show, kept apart from what came, so the
// polite live region says a notice the next one replaced before the view was drawn.
import { strict as assert } from 'node:assert';
import { NoticeBoard } from '../../../webview-ui/src/state/noticeBoard';
import { noticeAnnouncements } from '../../../webview-ui/src/state/announcements';

const said = (board: NoticeBoard, seen: number) => noticeAnnouncements(board.recent, seen, board.shown);

describe('webview/noticeBoard: what is shown and what is said (decision 657)', () => {
  it('a confirmation gives way on screen to the next notice, and both are said', () => {
    const board = new NoticeBoard();
    board.add('info', 'This session now uses Codex.');
    board.add('warning', 'Codex works with limits: no shell');
    assert.deepEqual(board.shown.map((n) => n.message), ['Codex works with limits: no shell']);
    assert.deepEqual(said(board, 0).news.map((a) => a.text), ['This session now uses Codex.', 'Codex works with limits: no shell']);
  });

  it('six errors in one frame: the five newest are drawn (their role=alert says them), the one pushed out before it was drawn is said', () => {
    const board = new NoticeBoard();
    for (let i = 1; i <= 6; i++) board.add('error', `error ${i}`);
    assert.deepEqual(board.shown.map((n) => n.message), ['error 2', 'error 3', 'error 4', 'error 5', 'error 6']);
    const r = said(board, 0);
    assert.deepEqual(r.news.map((a) => a.text), ['error 1']);
    assert.equal(r.seen, 6);
    assert.deepEqual(said(board, r.seen).news, [], 'nothing twice');
  });

  it('keeps the newest 20 that came; ids keep growing after another chat clears it; a dismissed notice was still said', () => {
    const board = new NoticeBoard();
    for (let i = 1; i <= 25; i++) board.add('info', `n${i}`);
    assert.deepEqual([board.recent.length, board.recent[0].message, board.recent.at(-1)?.id], [20, 'n6', 25]);
    board.dismiss(25);
    assert.deepEqual([board.shown.length, board.recent.length], [0, 20], 'dismissing hides, it does not unsay');
    board.clear();
    assert.deepEqual([board.shown, board.recent], [[], []]);
    board.add('warning', 'next chat');
    assert.equal(board.recent[0].id, 26, 'the live region reads past the last id it said: ids never start over');
    assert.deepEqual(said(board, 25).news.map((a) => a.text), ['next chat']);
  });
});
