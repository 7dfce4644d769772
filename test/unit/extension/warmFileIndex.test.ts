// Decision 638: the editor's @ index is built a few seconds after the chat is first shown, once,
// and only where sessions can start. The logic with real timers and an event like VS Code's.
import { strict as assert } from 'node:assert';
import { warmFileIndexWhenShown } from '../../../src/extension/warmFileIndex';

function visibility() {
  const listeners = new Set<(v: boolean) => void>();
  const event = (l: (v: boolean) => void) => {
    listeners.add(l);
    return { dispose: () => listeners.delete(l) };
  };
  return { event, fire: (v: boolean) => [...listeners].forEach((l) => l(v)), count: () => listeners.size };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('extension/warmFileIndex: §16.1 the @ index listed before the first @ (decision 638)', () => {
  it('shown: opened once after the delay (not at once), however often the chat shows; then it stops listening', async () => {
    const v = visibility();
    let opens = 0;
    const warm = warmFileIndexWhenShown(v.event, { blocked: () => undefined, open: async () => void opens++, delayMs: 30 });
    v.fire(false);
    await sleep(60);
    assert.equal(opens, 0, 'hidden: nothing');
    v.fire(true);
    assert.equal(opens, 0, 'not during the start-up');
    v.fire(true);
    await sleep(80);
    assert.equal(opens, 1);
    v.fire(true);
    await sleep(80);
    assert.equal(opens, 1, 'once');
    assert.equal(v.count(), 0, 'no listener left');
    warm.dispose();
  });

  it('where sessions cannot start (Restricted Mode, no folder) nothing is built; the next showing after that tries again; a failed open is not thrown', async () => {
    const v = visibility();
    let blocked: string | undefined = 'Restricted Mode';
    let opens = 0;
    const warm = warmFileIndexWhenShown(v.event, { blocked: () => blocked, open: async () => { opens++; throw new Error('listing failed'); }, delayMs: 20 });
    v.fire(true);
    await sleep(60);
    assert.equal(opens, 0);
    blocked = undefined;
    v.fire(true);
    await sleep(60);
    assert.equal(opens, 1, 'trusted now: built');
    warm.dispose();
  });

  it('disposed before the delay: nothing is built', async () => {
    const v = visibility();
    let opens = 0;
    const warm = warmFileIndexWhenShown(v.event, { blocked: () => undefined, open: async () => void opens++, delayMs: 20 });
    v.fire(true);
    warm.dispose();
    await sleep(60);
    assert.equal(opens, 0);
  });
});
