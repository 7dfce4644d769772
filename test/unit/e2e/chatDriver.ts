// Driving our chat inside a real code-server, for the end-to-end tests and the README screenshot
// script: typing a prompt, waiting for the agent, switching VS Code's colour theme live, and
// measuring the webview (contrast over every row of the virtualized transcript, axe-core).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { measureContrast, type Measured } from '../../browser/themes/contrast';
import { AXE_TAGS } from '../../support/axe';

/** VS Code's six default themes (as vscode-themes.json names them) and the body classes each gives a webview, sorted. */
export const THEME_CLASSES = {
  'Light 2026': 'vscode-light',
  'Dark 2026': 'vscode-dark',
  'Default High Contrast Light': 'vscode-high-contrast vscode-high-contrast-light',
  'Default High Contrast': 'vscode-high-contrast',
  // Decision 674: Light+'s muted text was 4.40:1. Last, so each switch changes the body class too.
  'Light+': 'vscode-light',
  'Dark+': 'vscode-dark',
} as const;

/** The surface and muted colours each theme gives the webview (vscode-themes.json): how a switch
 *  between two themes of one body class (Light 2026 and Light+) is seen to have arrived. */
const THEME_MARKS = Object.fromEntries(
  Object.entries((JSON.parse(readFileSync(join(__dirname, '../../browser/themes/vscode-themes.json'), 'utf8')) as { themes: Record<string, { vars: Record<string, string> }> }).themes).map(([name, t]) => [
    name,
    { '--vscode-sideBar-background': t.vars['--vscode-sideBar-background'], '--vscode-descriptionForeground': t.vars['--vscode-descriptionForeground'] },
  ]),
);
export type ThemeName = keyof typeof THEME_CLASSES;

export const composer = (chat: FrameLocator) => chat.locator('[role="textbox"][aria-label="Message the agent"]');
/** The status bar's agent state by its protocol code (its label is in the user's language). */
export const idle = (chat: FrameLocator) => chat.locator('[role="status"].agent-state[data-code="idle"]');

/** Types a prompt (lines joined by Shift+Enter) into the composer and sends it. */
export async function sendPrompt(page: Page, chat: FrameLocator, lines: string[]): Promise<void> {
  await composer(chat).click();
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(lines[i]);
  }
  await page.keyboard.press('Enter');
}

/** The playwright Frame our HTML lives in (for evaluate). */
export async function chatFrameHandle(chat: FrameLocator): Promise<Frame> {
  const root = await chat.locator('#root').elementHandle({ timeout: 30_000 });
  const frame = await root?.ownerFrame();
  if (!frame) throw new Error('no frame for the chat');
  return frame;
}

/** The label VS Code's theme picker shows for each theme id. */
export const THEME_LABELS: Record<ThemeName, string> = {
  'Light 2026': 'Light 2026',
  'Dark 2026': 'Dark 2026',
  'Default High Contrast Light': 'Light High Contrast',
  'Default High Contrast': 'Dark High Contrast',
  'Light+': 'Light+',
  'Dark+': 'Dark+',
};

/**
 * Switches the colour theme as a user does (F1 → "Preferences: Color Theme" → the theme), so the
 * chat keeps its state, and waits until the webview has exactly the theme's body class.
 */
export async function setColorTheme(page: Page, chat: FrameLocator, theme: ThemeName): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  await page.locator('.monaco-workbench').click({ position: { x: 900, y: 400 } });
  await page.keyboard.press('F1');
  await input.waitFor({ timeout: 10_000 });
  await input.fill('>Preferences: Color Theme');
  // Not the first row: "Browse Color Themes in Marketplace" sorts above it.
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: /Preferences: Color Theme(?!s)/ }).first().click({ timeout: 10_000 });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: THEME_LABELS['Dark 2026'] }).first().waitFor({ timeout: 10_000 });
  await input.fill(THEME_LABELS[theme]);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: THEME_LABELS[theme] }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const want = THEME_CLASSES[theme];
  const frame = await chatFrameHandle(chat);
  // A light theme's class is also part of the high-contrast-light one: check the exact set.
  await frame.waitForFunction((w) => [...document.body.classList].filter((c) => c.startsWith('vscode-')).sort().join(' ') === w, want, { timeout: 30_000 });
  // And the theme's own colours, which a switch between two themes of one class changes alone.
  await frame.waitForFunction((marks) => Object.entries(marks).every(([k, v]) => document.documentElement.style.getPropertyValue(k).trim() === v), THEME_MARKS[theme], { timeout: 30_000 });
  // The variables arrive with the class; two more frames for the styles to apply.
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Contrast of every text, icon and status dot of the chat, over the whole transcript: the rows are
 * virtualized, so the list is scrolled from top to bottom and measured at every step (each
 * element once, keyed by where it is, its text and its colours).
 */
export async function measureWholeChat(frame: Frame): Promise<Measured[]> {
  const seen = new Map<string, Measured>();
  await frame.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
  const height = await frame.locator('.transcript-scroll').evaluate((el) => el.clientHeight);
  await frame.locator('.transcript-scroll').evaluate((el) => el.scrollTo(0, 0));
  for (let step = 0; step < 200; step++) {
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await frame.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    for (const m of await measureContrast(frame)) seen.set(`${m.where}|${m.text}|${m.fg}|${m.bg}`, m);
    const atEnd = await frame.locator('.transcript-scroll').evaluate((el, h) => {
      const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
      if (!end) el.scrollBy(0, Math.max(100, h - 60));
      return end;
    }, height);
    if (atEnd) break;
  }
  return [...seen.values()];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core injected into the chat's own frame (the workbench around it is VS Code's, not ours). */
export async function axeChat(frame: Frame): Promise<AxeResults> {
  await frame.evaluate(AXE_SOURCE);
  return frame.evaluate((tags) => (window as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<AxeResults> } }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }), AXE_TAGS);
}

/** A screenshot of the side bar only (the chat at its real width). */
export async function shootSideBar(page: Page, path: string): Promise<void> {
  const bar = page.locator('.part.sidebar').first();
  await bar.screenshot({ path });
}
