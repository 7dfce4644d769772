// Issue 15 "In English and Korean" end to end: the packaged extension in a real VS Code
// (code-server 1.139, `--locale ko`) driven by Chromium. With Korean as VS Code's display language
// the chat view speaks Korean (the host passes vscode.env.language to the page, decision 370) and
// the command palette lists our commands by their package.nls.ko.json titles. The built-in agent
// answers in Korean too (decision 572).
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { buildVsix, openChatView, REPO } from './codeServer';
import { KOREAN } from '../../../src/agents/builtin/words';
import { useWorkbench } from './workbench';

/**
 * VS Code offers a display language only when a language pack contributes it (no Korean pack can
 * be downloaded here): test/fixtures/language-pack-ko is one with no translations, so VS Code's
 * own UI stays English while `vscode.env.language` is `ko` and extensions load their Korean.
 */
/** The language pack index VS Code keeps in its user data (the running server writes it when it
 *  installs a pack; `--install-extension` does not), so the first start already offers Korean. */
function registerKorean(d: { userDataDir: string; extensionsDir: string }): void {
  const folder = readdirSync(d.extensionsDir).find((f) => f.startsWith('rawp-test.rawp-test-language-pack-ko-'));
  if (!folder) throw new Error('the Korean test language pack is not installed');
  const pack = { hash: 'rawp-test-ko-1', extensions: [{ extensionIdentifier: { id: 'rawp-test.rawp-test-language-pack-ko' }, version: '1.0.0' }], translations: { vscode: join(d.extensionsDir, folder, 'translations/main.i18n.json') }, label: '한국어' };
  writeFileSync(join(d.userDataDir, 'languagepacks.json'), JSON.stringify({ ko: pack }));
}

function koreanLanguagePack(dir: string): string {
  cpSync(join(REPO, 'test/fixtures/language-pack-ko'), dir, { recursive: true });
  const out = join(dir, 'language-pack-ko.vsix');
  execFileSync(join(REPO, 'node_modules/.bin/vsce'), ['package', '--skip-license', '--allow-missing-repository', '-o', out], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return out;
}

describe('e2e: Korean display language in a real VS Code (issue 15)', function () {
  this.timeout(300_000);
  const w = useWorkbench({
    name: 'rawp-e2e-ko',
    start: () => {
      const pack = mkdtempSync(join(tmpdir(), 'rawp-lp-ko-'));
      w.atEnd(() => rmSync(pack, { recursive: true, force: true }));
      return { vsixes: [buildVsix(join(REPO, '.cache', 'test-rawp-vscode-words.vsix')), koreanLanguagePack(pack)], locale: 'ko', beforeStart: registerKorean };
    },
  });
  let chat: FrameLocator;
  before(async () => {
    chat = await openChatView(w.page).catch(w.fail);
  });

  it('the chat view is in Korean: page language, header, composer and the built-in agent’s state', async () => {
    await chat.locator('main.chat').waitFor({ timeout: 60_000 }).catch(w.fail);
    const root = chat.locator('#root');
    assert.equal(await root.getAttribute('data-locale'), 'ko', 'the host passed VS Code’s display language');
    assert.equal(await chat.locator('html').getAttribute('lang'), 'ko');
    await chat.locator('[role="textbox"][aria-label="에이전트에게 메시지 보내기"]').waitFor({ timeout: 30_000 }).catch(w.fail);
    assert.match((await chat.locator('.editor').getAttribute('data-placeholder')) ?? '', /에이전트에게 물어보세요/);
    await chat.locator('[role="status"][data-code="idle"]', { hasText: '준비됨' }).waitFor({ timeout: 60_000 }).catch(w.fail);
    const text = await chat.locator('main.chat').innerText();
    for (const words of ['세션', '에이전트', '모드']) assert.ok(text.includes(words), `“${words}” in the header`);
    // Agent names (“Built-in (offline)”, “Claude Agent (ACP)”) are names; our own words are Korean.
    assert.doesNotMatch(text, /\b(Session|Mode|Default|Plan|Review|Ready|Send|Stop|unavailable)\b/, `no English chrome: ${text}`);
    await w.shot('korean-chat');
  });

  it('the built-in agent answers in Korean and is described in Korean in the agent menu (decision 572)', async () => {
    const builtin = chat.locator('#agent-select option[value="builtin"]');
    assert.equal(await builtin.getAttribute('title'), KOREAN.agentDescription);
    await chat.locator('[role="textbox"]').first().click();
    await w.page.keyboard.type('read notes.txt');
    await w.page.keyboard.press('Enter');
    const reply = chat.locator('main.chat', { hasText: /notes\.txt 파일을 읽었습니다 \(\d+줄\)\./ });
    await reply.waitFor({ timeout: 60_000 }).catch(w.fail);
    await chat.locator('[role="status"][data-code="idle"]').first().waitFor({ timeout: 60_000 });
    await w.shot('korean-builtin-reply');
  });

  it('the command palette lists our commands in Korean (package.nls.ko.json)', async () => {
    const input = w.page.locator('.quick-input-widget input.input');
    await w.page.locator('.monaco-workbench').click({ position: { x: 900, y: 400 } });
    await w.page.keyboard.press('F1');
    await input.waitFor({ timeout: 10_000 });
    await input.fill('>RAWP: ');
    const rows = w.page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'RAWP: 새 세션' }).first().waitFor({ timeout: 20_000 }).catch(w.fail);
    const labels = (await rows.allInnerTexts()).join('\n');
    for (const title of ['RAWP: 세션 전환…', 'RAWP: 로그 보기']) {
      await input.fill(`>${title}`);
      await rows.filter({ hasText: title }).first().waitFor({ timeout: 10_000 }).catch(w.fail);
    }
    // VS Code shows the English original beside a localised title (so both can be searched); the
    // title itself is the Korean one.
    assert.ok(labels.includes('RAWP: 새 세션'), labels);
    await w.shot('korean-palette');
    await w.page.keyboard.press('Escape');
  });
});
