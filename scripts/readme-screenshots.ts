// `npm run screenshots:readme`: the Marketplace README's pictures, taken from a real VS Code
// (code-server from .cache/tools, the packaged VSIX, the built-in agent, the sample workspace):
// the side bar with a file picked by @, its Read result and an edit waiting for permission, in
// Light 2026 and Dark 2026; then the edit allowed, its diff in the chat. Writes
// media/readme/chat-{light,dark}.png and chat-diff-dark.png (commit them when they change).
// Uses Chromium and code-server: run it alone (not beside other Chromium or code-server runs on a shared machine).
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatFrameHandle, composer, idle, sendPrompt, setColorTheme, shootSideBar } from '../test/unit/e2e/chatDriver';
import { buildVsix, launchChromium, openChatView, REPO, startCodeServer } from '../test/unit/e2e/codeServer';

const OUT = join(REPO, 'media', 'readme');

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const workspace = join(mkdtempSync(join(tmpdir(), 'rawp-shots-')), 'sample-workspace');
  cpSync(join(REPO, 'media/sample-workspace'), workspace, { recursive: true });
  const vsix = buildVsix(join(mkdtempSync(join(tmpdir(), 'rawp-shots-vsix-')), 'rawp-vscode.vsix'));
  const cs = await startCodeServer({ workspace, vsixes: [vsix], settings: { 'workbench.colorTheme': 'Light 2026' } });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 780 } });
    await page.goto(`${cs.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    const chat = await openChatView(page);
    await idle(chat).waitFor({ timeout: 60_000 });
    const frame = await chatFrameHandle(chat);
    await composer(chat).click();
    await page.keyboard.type('read @greet');
    await chat.locator('[role="listbox"][aria-label="Files"] [role="option"]', { hasText: 'greeting.ts' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await chat.locator('article.tool-card.status-success[aria-label^="Tool Read"]').first().waitFor({ timeout: 30_000 });
    await idle(chat).waitFor({ timeout: 30_000 });
    await sendPrompt(page, chat, ['replace `Hello` with `Hi` in src/greeting.ts']);
    const ask = chat.locator('section.interaction.status-pending[aria-label^="Permission request"]').first();
    await ask.waitFor({ timeout: 60_000 });
    // Collapse the thinking blocks: the picture is about the request and its answer.
    await frame.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = false)));
    await page.mouse.move(0, 0);
    await shootSideBar(page, join(OUT, 'chat-light.png'));
    await setColorTheme(page, chat, 'Dark 2026');
    await page.mouse.move(0, 0);
    await shootSideBar(page, join(OUT, 'chat-dark.png'));
    await ask.getByRole('button', { name: /Allow once/ }).click();
    await chat.locator('article.tool-card[data-output-type="diff"]').last().waitFor({ timeout: 30_000 });
    await idle(chat).waitFor({ timeout: 30_000 });
    await page.mouse.move(0, 0);
    await shootSideBar(page, join(OUT, 'chat-diff-dark.png'));
    for (const f of ['chat-light.png', 'chat-dark.png', 'chat-diff-dark.png']) console.log(`${join('media/readme', f)} ${statSync(join(OUT, f)).size} bytes`);
  } finally {
    await browser.close();
    await cs.stop();
    rmSync(join(workspace, '..'), { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
