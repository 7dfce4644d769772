// Issue 15 (first run, notifications) in a real VS Code (code-server) driven by Chromium, with the
// packaged VSIX: a turn that finishes while the chat is hidden puts a badge on the activity-bar
// item and a notification whose "Open Chat" brings the chat back and clears the badge
// (decision 382); the real Claude Code CLI found through `rawp.agents.claude.path` (decision 380)
// with no credentials shows the login card, whose button opens a VS Code terminal running
// `claude auth login` (decision 381). Screenshots go to test-results/e2e/. Every state asserted is
// waited for (bounded) first: the machine is shared and code-server is slow under load.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { resolveClaudeCommand } from '../../../src/agents/claudeCode';
import { buildVsix, openChatView, REPO } from './codeServer';
import { composer, idle } from './chatDriver';
import { useWorkbench } from './workbench';

describe('e2e: first run and notifications in a real VS Code (issue 15, decisions 380–383)', function () {
  this.timeout(300_000);
  const w = useWorkbench({
    name: 'rawp-firstrun-ws',
    finalShot: 'firstrun-zz-final',
    start: () => ({
      // rawp.agents.*.path is machine-scoped.
      machineSettings: { 'rawp.agents.claude.path': resolveClaudeCommand() },
      vsixes: [buildVsix(join(REPO, '.cache', 'test-rawp-vscode-firstrun.vsix'))],
      // The terminal's text in the DOM (no WebGL renderer in headless Chromium), so it can be read.
      settings: { 'terminal.integrated.gpuAcceleration': 'off' },
      // Claude Code offline and without credentials: the throwaway HOME has none, no key is set,
      // and its API is a closed loopback port (it never gets that far).
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_ERROR_REPORTING: '1', ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) },
    }),
  });
  let chat: FrameLocator;
  /** Runs a command from the palette, as a user does (F1, its title, Enter). */
  const runCommand = async (title: string) => {
    const input = w.page.locator('.quick-input-widget input.input');
    await w.page.locator('.monaco-workbench').click({ position: { x: 900, y: 300 } });
    await w.page.keyboard.press('F1');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`>${title}`);
    await w.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first().waitFor({ timeout: 10_000 });
    await w.page.keyboard.press('Enter');
  };
  const ourItem = () => w.page.locator('.activitybar .action-item').filter({ has: w.page.locator('[aria-label^="RAWP Agent"]') }).first();

  it('first run: the empty session names the built-in agent and how to switch', async () => {
    try {
      chat = await openChatView(w.page);
      await idle(chat).waitFor({ timeout: 60_000 });
      await chat.locator('.first-run-agent', { hasText: 'You are talking to Built-in (offline).' }).waitFor({ timeout: 30_000 });
      await chat.locator('.first-run-hint', { hasText: 'pick it in the Agent menu above' }).waitFor({ timeout: 30_000 });
      await chat.locator('.first-run-hint', { hasText: 'rawp.agents.<name>.path' }).waitFor({ timeout: 30_000 });
      await w.shot('firstrun-01-hint');
    } catch (e) {
      w.fail(e);
    }
  });

  it('Claude Code without credentials: the login card; its button opens a terminal running claude auth login', async () => {
    try {
      // Claude Code (found through rawp.agents.claude.path, decision 380) for the empty session:
      // picking it switches this session (decision 361), so its hint names Claude Code.
      const agentSelect = chat.locator('#agent-select');
      await chat.locator('#agent-select option[value="claude-code"]').waitFor({ state: 'attached', timeout: 90_000 });
      await agentSelect.selectOption('claude-code');
      await chat.locator('.first-run-agent', { hasText: /You are talking to Claude Code/ }).waitFor({ timeout: 60_000 });
      await idle(chat).waitFor({ timeout: 60_000 });
      await composer(chat).click();
      await w.page.keyboard.type('hello');
      await w.page.keyboard.press('Enter');
      const card = chat.locator('.login-card');
      await card.waitFor({ timeout: 90_000 });
      await chat.locator('.login-card .login-title', { hasText: 'Claude Code is not logged in.' }).waitFor({ timeout: 30_000 });
      await chat.locator('.login-card code', { hasText: 'claude auth login' }).waitFor({ timeout: 30_000 });
      // The turn is over (back to idle): only then is "no other error card" a final answer.
      await idle(chat).waitFor({ timeout: 60_000 });
      assert.equal(await chat.locator('.login-card').count(), 1, 'one login card');
      assert.equal(await chat.locator('.error-block').count(), 0, 'no error card besides it');
      assert.doesNotMatch(await chat.locator('main.chat').innerText(), /Please run \/login/, 'not the CLI’s words as chat text');
      await w.shot('firstrun-02-login-card');
      await card.getByRole('button', { name: 'Log in in a terminal' }).click();
      await w.page.locator('.terminal-tabs-entry, .single-terminal-tab, .tabs-list .terminal-tabs-entry, .panel .pane-header, .composite.title', { hasText: 'Log in: Claude Code' }).first().waitFor({ timeout: 30_000 });
      await w.page.locator('.xterm-rows', { hasText: 'auth login' }).first().waitFor({ timeout: 30_000 });
      // Claude's login opens its sign-in page: in code-server VS Code asks first (a modal dialog).
      const dialog = w.page.locator('.monaco-dialog-box', { hasText: 'open the external website' });
      await dialog.waitFor({ timeout: 60_000 });
      await dialog.locator('.dialog-message-detail, .dialog-message-text', { hasText: 'claude.com' }).first().waitFor({ timeout: 10_000 });
      await w.shot('firstrun-03-login-terminal');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      // The login waits for a sign-in that never comes here: close its terminal.
      await runCommand('Terminal: Kill All Terminals');
      await w.page.locator('.xterm-rows', { hasText: 'auth login' }).first().waitFor({ state: 'detached', timeout: 30_000 });
    } catch (e) {
      w.fail(e);
    }
  });
  it('a turn that finishes while the chat is hidden: badge "1" on the activity-bar item and a notification whose Open Chat shows the chat', async () => {
    try {
      // The Claude Code session has a turn now: picking the built-in agent offers a new session.
      await chat.locator('#agent-select').selectOption('builtin');
      const newWith = chat.getByRole('button', { name: /New session with Built-in/ });
      await newWith.waitFor({ timeout: 30_000 });
      await newWith.click();
      await chat.locator('.first-run-agent', { hasText: 'You are talking to Built-in (offline).' }).waitFor({ timeout: 60_000 });
      await idle(chat).waitFor({ timeout: 60_000 });
      await composer(chat).click();
      // Long enough to hide the chat after allowing it, however slow the shared machine is.
      await w.page.keyboard.type('run `sleep 10`');
      await w.page.keyboard.press('Enter');
      const permission = chat.locator('section.interaction[aria-label^="Permission request"]');
      await permission.waitFor({ timeout: 30_000 });
      await permission.getByRole('button', { name: /Allow once/ }).click();
      // Hide the chat: show the Explorer in the side bar instead.
      const explorer = w.page.locator('.activitybar .action-item').filter({ has: w.page.locator('[aria-label^="Explorer"]') }).first();
      await explorer.click();
      await w.page.locator('.sidebar .title-label', { hasText: /Explorer/i }).first().waitFor({ timeout: 30_000 });
      // The badge counts the one unseen finished turn.
      const badge = ourItem().locator('.badge .badge-content', { hasText: /^\s*1\s*$/ });
      await badge.waitFor({ timeout: 60_000 });
      // The session took its first prompt's words as its name (decision 651): the toast names it.
      const toast = w.page.locator('.notification-toast', { hasText: 'Built-in (offline) finished (run `sleep 10`).' });
      await toast.waitFor({ timeout: 30_000 });
      await w.shot('firstrun-04-badge-and-notification');
      // "Open Chat" shows the chat again, and seeing it clears the badge.
      await toast.getByRole('button', { name: 'Open Chat' }).click();
      await w.page.locator('.sidebar .title-label', { hasText: /RAWP Agent/ }).first().waitFor({ timeout: 30_000 });
      await ourItem().locator('.badge .badge-content').waitFor({ state: 'hidden', timeout: 30_000 });
      await w.shot('firstrun-05-seen');
    } catch (e) {
      w.fail(e);
    }
  });

});
