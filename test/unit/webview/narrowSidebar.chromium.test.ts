// VS Code's side bar can be dragged down to 170 px. A new-user trial found the header broken there:
// the session select 0 px wide under its label and five actions, the agent select empty, answer
// buttons running out of their card and the composer's actions 1 px past the page. Below 240 px
// the header's labels are for screen readers only and the session select has its own row; answer
// badges wrap under their words; Stop keeps its icon (its words in its name). Real Chromium.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { RESULTS_DIR, feed, hostSays, pageErrors, rendered, startHarness, type Harness } from '../../browser/harness';
import { SESSION, interactionsStream } from '../../browser/streams';

const lists = [
  { kind: 'session.list', payload: { sessions: [{ session_id: SESSION, name: 'Refactor the payment module', agent: 'builtin', state: 'idle', created_at: '2026-12-04T10:00:00.000Z', shared: false }], active_session_id: SESSION } },
  { kind: 'agent.list', payload: { agents: [{ id: 'builtin', name: 'Built-in agent', available: true }], selected: 'builtin' } },
];

describe('webview in Chromium: the narrowest side bar (170 px) in English and Korean', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(async () => h?.close());

  for (const [width, locale] of [[170, 'en-US'], [170, 'ko-KR'], [239, 'en-US']] as const) {
    it(`nothing runs past the page, every select has room and keeps its name, answers stay in their card (${width} px, ${locale})`, async () => {
      const page = await h.open({ width, height: 800, locale });
      await hostSays(page, lists);
      await feed(page, SESSION, interactionsStream(), true);
      await rendered(page);
      await page.evaluate('window.__name = (f) => f'); // tsx names the helpers below; the page has no __name
      const m = await page.evaluate(() => {
        const doc = document.documentElement;
        const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
        const named = (id: string) => [...(document.getElementById(id) as HTMLSelectElement).labels].map((l) => l.textContent).join('');
        const card = document.querySelector('.interaction:not(.status-answered)')!.getBoundingClientRect();
        const buttons = [...document.querySelectorAll('.interaction:not(.status-answered) .interaction-buttons .button')].map((b) => b.getBoundingClientRect());
        const stop = [...document.querySelectorAll<HTMLButtonElement>('.composer-actions .button')].find((b) => b.querySelector('.codicon-debug-stop'))!;
        return {
          overflow: doc.scrollWidth - doc.clientWidth,
          sessionWidth: box('#session-select').width,
          agentWidth: box('#agent-select').width,
          modeWidth: box('#mode-select').width,
          // What the mode select's widest word needs, in the font the page has: the test machine may
          // lack a Korean font, so its words' width is measured, not assumed (decision 739).
          modeWords: (() => {
            const select = document.getElementById('mode-select') as HTMLSelectElement;
            const cs = getComputedStyle(select);
            const ctx = document.createElement('canvas').getContext('2d')!;
            ctx.font = cs.font;
            const words = Math.max(...[...select.options].map((o) => ctx.measureText(o.text).width));
            return words + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth);
          })(),
          labels: [named('session-select'), named('agent-select'), named('mode-select')],
          buttonsInside: buttons.length > 0 && buttons.every((b) => b.left >= card.left && b.right <= card.right),
          actionsRight: Math.max(...[...document.querySelectorAll('.composer-actions .button')].map((b) => b.getBoundingClientRect().right)),
          stopName: stop.getAttribute('aria-label'),
          stopWords: (stop.querySelector('.button-words') as HTMLElement | null)?.offsetWidth ?? -1,
        };
      });
      assert.equal(m.overflow, 0, 'no horizontal scrolling');
      assert.ok(m.sessionWidth >= 120, `the session select is ${m.sessionWidth} px wide`);
      assert.ok(m.agentWidth >= 60, `agent ${m.agentWidth} px`);
      assert.ok(m.modeWidth >= Math.max(30, m.modeWords), `mode ${m.modeWidth} px, its widest word needs ${m.modeWords} px`);
      assert.ok(m.labels.every((l) => l.length > 0), `each select keeps its label: ${m.labels.join(', ')}`);
      assert.ok(m.buttonsInside, 'every answer button inside its card');
      assert.ok(m.actionsRight <= width, `the composer's actions end at ${m.actionsRight} px`);
      assert.ok(m.stopName && m.stopName.length > 0, 'Stop keeps its name');
      if (width < 217) assert.equal(m.stopWords, 0, 'Stop shows its icon only');
      assert.deepEqual(pageErrors(page), []);
      await page.screenshot({ path: join(RESULTS_DIR, `webview-narrow-${width}-${locale}.png`) });
      await page.close();
    });
  }

  it('at the default side bar width the labels and Stop’s words are shown', async () => {
    const page = await h.open({ width: 300, height: 600 });
    await hostSays(page, lists);
    await feed(page, SESSION, interactionsStream(), true);
    await rendered(page);
    const m = await page.evaluate(() => ({
      label: (document.querySelector('label[for=session-select]') as HTMLElement).offsetWidth,
      stopWords: (document.querySelector('.composer-actions .button-words') as HTMLElement | null)?.offsetWidth ?? -1,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    assert.ok(m.label > 10 && m.stopWords > 10, JSON.stringify(m));
    assert.equal(m.overflow, 0);
    await page.close();
  });
});
