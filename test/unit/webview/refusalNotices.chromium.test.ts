// A refused prompt in real Chromium (issue 16, issue 15 Why 6): the host's notice names the
// refusal's code (x-rawp.notice `error_code`, §2.2 session.error for a raw master); the view says
// that code's own sentence in the view's language, keeps the host's words (which name the file or
// the command) after it, and puts the code in the tooltip, as the error and tool cards do.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { hostSays, pageErrors, startHarness, violations, type Harness } from '../../browser/harness';

/** The refusals a prompt can get before its turn starts, with what the host says about each. */
const REFUSALS: Array<{ code: string; message: string; en: string; ko: string }> = [
  { code: 'ATTACHMENT_NOT_SUPPORTED', message: 'Built-in cannot take photo.png (image/png); nothing was sent to the agent.', en: 'This agent cannot take that kind of file, so nothing was sent to it.', ko: '이 에이전트는 그런 종류의 파일을 받을 수 없어서 에이전트에게 아무것도 보내지 않았습니다.' },
  { code: 'ATTACHMENT_TOO_LARGE', message: 'The attached file big.bin could not be read (over 20971520 bytes); nothing was sent to Built-in.', en: 'The attached file is larger than the size limit, so nothing was sent to the agent.', ko: '첨부한 파일이 크기 제한보다 커서 에이전트에게 아무것도 보내지 않았습니다.' },
  { code: 'ATTACHMENT_TYPE_MISMATCH', message: 'fake.png could not be attached: its bytes are not image/png; nothing was sent to the agent.', en: 'The attached file’s contents do not match its file type, so nothing was sent to the agent.', ko: '첨부한 파일의 내용이 파일 형식과 맞지 않아서 에이전트에게 아무것도 보내지 않았습니다.' },
  { code: 'ATTACHMENT_UNAVAILABLE', message: 'The attached file gone.txt could not be read (no such file); nothing was sent to Built-in.', en: 'The attached file could not be read, so nothing was sent to the agent.', ko: '첨부한 파일을 읽을 수 없어서 에이전트에게 아무것도 보내지 않았습니다.' },
  { code: 'COMMAND_FAILED', message: '/rename: Usage: /rename <new name>', en: 'The command could not be run.', ko: '명령을 실행할 수 없었습니다.' },
  { code: 'MAX_TURNS', message: 'max_turns must be a positive integer', en: 'The agent reached its step limit for this turn.', ko: '에이전트가 이번 턴의 단계 제한에 도달했습니다.' },
];

/** Sends one refusal notice and waits (bounded) until its banner is on screen; returns the banner's parts. */
async function refuse(page: Page, r: (typeof REFUSALS)[number]): Promise<{ sentence: string; title: string | null; detail: string; role: string | null }> {
  await hostSays(page, [{ kind: 'notice', payload: { level: 'error', message: r.message, error_code: r.code } }]);
  const banner = page.locator('.banners .banner', { has: page.locator(`.notice-sentence[data-code="${r.code}"]`) }).last();
  await banner.waitFor({ state: 'visible', timeout: 10_000 });
  const sentence = banner.locator('.notice-sentence');
  return { sentence: await sentence.innerText(), title: await sentence.getAttribute('title'), detail: await banner.locator('.notice-detail').innerText(), role: await banner.getAttribute('role') };
}

describe('webview in Chromium: a refused prompt says why in plain words (issue 16, §6.1.1, §2.2)', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('§6.1.1 §2.2 each refusal code shows its own English sentence, the host\'s words after it, the code in the tooltip', async () => {
    const page = await h.open();
    const seen = new Set<string>();
    for (const r of REFUSALS) {
      const got = await refuse(page, r);
      assert.equal(got.sentence, r.en, r.code);
      assert.equal(got.title, `Code: ${r.code}`);
      assert.equal(got.detail.trim(), r.message, 'the host\'s own words (the file, the command) stay');
      assert.equal(got.role, 'alert');
      seen.add(got.sentence);
    }
    assert.equal(seen.size, REFUSALS.length, 'no two refusals share a sentence');
    const text = await page.locator('.banners').innerText();
    assert.doesNotMatch(text, /\bATTACHMENT_|COMMAND_FAILED|MAX_TURNS/, 'no code on screen');
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(pageErrors(page), []);
  });

  it('§6.1.1 §2.2 a Korean view shows each refusal\'s Korean sentence; the code stays in the Korean tooltip', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    for (const r of REFUSALS) {
      const got = await refuse(page, r);
      assert.equal(got.sentence, r.ko, r.code);
      assert.equal(got.title, `코드: ${r.code}`);
    }
    assert.deepEqual(pageErrors(page), []);
  });

  it('a code the view has no sentence for shows the host\'s words (never the bare code, never a blank); a notice without a code is unchanged', async () => {
    const page = await h.open();
    await hostSays(page, [
      { kind: 'notice', payload: { level: 'error', message: 'The host refused this for a new reason.', error_code: 'SOMETHING_NEW' } },
      { kind: 'notice', payload: { level: 'info', message: 'Attach URL copied (without the token).' } },
    ]);
    const unknown = page.locator('.notice-sentence[data-code="SOMETHING_NEW"]');
    await unknown.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await unknown.innerText(), 'The host refused this for a new reason.');
    assert.equal(await unknown.getAttribute('title'), 'Code: SOMETHING_NEW');
    const plain = page.locator('.banners .banner.info', { hasText: 'Attach URL copied' });
    await plain.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await plain.locator('.notice-sentence').count(), 0);
  });
});
