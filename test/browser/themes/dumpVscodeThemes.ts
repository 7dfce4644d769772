// Regenerates vscode-themes.json: the theme CSS variables a real VS Code (code-server 1.139, from
// .cache/tools) gives our chat webview in Light 2026 (the default), Dark 2026, Light+ and Dark+
// (VS Code's defaults for years and still chosen by many; "Default Light+" / "Default Dark+" in
// older versions), Light High Contrast and Dark High Contrast. They are read from the webview's own
// <html style> (what our CSS sees: VS Code resolves every registered colour with its theme defaults
// and leaves out the ones a theme sets to null), so the fixture page can be tested without starting
// VS Code. Named themes are dumped alone and merged into the file (the others kept as they were):
//   npx tsx test/browser/themes/dumpVscodeThemes.ts [theme id…]
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, REPO, buildVsix, launchChromium, openChatView, openWorkbench, startCodeServer } from '../../unit/e2e/codeServer';

export const THEMES = ['Light 2026', 'Dark 2026', 'Light+', 'Dark+', 'Default High Contrast Light', 'Default High Contrast'] as const;
/** The tokens kept: every family the view's CSS may pair (a small file, not all ~800). */
const KEEP = /^--vscode-(font-|editor-font-|foreground|descriptionForeground|errorForeground|icon-foreground|focusBorder|contrast|sideBar-|editor-background|editor-foreground|editorWidget-|panel-|widget-|badge-|button-|textPreformat-|textCodeBlock-|textLink-|textBlockQuote-|textSeparator-|editorWarning-|editorError-|editorInfo-|testing-icon|charts-|gitDecoration-|input-|inputOption-|inputValidation-|dropdown-|list-|toolbar-|diffEditor-|editorSuggestWidget-|editor-findMatchHighlight|checkbox-|progressBar-|notifications|disabledForeground|keybindingLabel-)/;

const FILE = join(__dirname, 'vscode-themes.json');
const THEME_DEFAULTS = join(REPO, '.cache/tools/node_modules/code-server/lib/vscode/extensions/theme-defaults/package.json');

/**
 * The class VS Code puts on .monaco-workbench for a theme of its theme-defaults extension (made of
 * the theme file's path). An id VS Code does not know falls back to the default theme without a
 * word, so the dump checks that the theme asked for is the one shown.
 */
function workbenchClass(theme: string): string {
  const manifest = JSON.parse(readFileSync(THEME_DEFAULTS, 'utf8')) as { contributes: { themes: Array<{ id: string; path: string }> } };
  const entry = manifest.contributes.themes.find((t) => t.id === theme);
  if (!entry) throw new Error(`${theme}: not a theme of this VS Code (${manifest.contributes.themes.map((t) => t.id).join(', ')})`);
  return entry.path.replace(/^\.\//, '').replace(/[/.]/g, '-');
}

async function main(): Promise<void> {
  const named = process.argv.slice(2);
  for (const theme of named) if (!(THEMES as readonly string[]).includes(theme)) throw new Error(`${theme}: not one of ${THEMES.join(', ')}`);
  const workspace = mkdtempSync(join(tmpdir(), 'rawp-theme-ws-'));
  const vsix = process.env.RAWP_VSIX && existsSync(process.env.RAWP_VSIX) ? process.env.RAWP_VSIX : existsSync(join(REPO, '.cache/test-rawp-vscode.vsix')) ? join(REPO, '.cache/test-rawp-vscode.vsix') : buildVsix();
  const dumped: Record<string, { bodyClass: string; vars: Record<string, string> }> = {};
  const browser = await launchChromium();
  try {
    for (const theme of named.length > 0 ? named : THEMES) {
      const cs = await startCodeServer({ workspace, vsixes: [vsix], settings: { ...DEFAULT_SETTINGS, 'workbench.colorTheme': theme } });
      try {
        const page = await openWorkbench(browser, cs, workspace);
        // The workbench starts in the theme it cached (plain "vs") and loads the chosen one a moment later.
        const wanted = workbenchClass(theme);
        await page.waitForFunction((c) => document.querySelector('.monaco-workbench')?.className.includes(c) === true, wanted, { timeout: 30_000 }).catch(async () => {
          throw new Error(`${theme}: VS Code shows another theme (${await page.locator('.monaco-workbench').getAttribute('class')})`);
        });
        const frame = await openChatView(page);
        await frame.locator('main.chat').waitFor({ timeout: 60_000 });
        const got = await frame.locator('html').evaluate((html) => {
          const vars: Record<string, string> = {};
          const style = html.style;
          for (let i = 0; i < style.length; i++) {
            const name = style.item(i);
            if (name.startsWith('--vscode-')) vars[name] = style.getPropertyValue(name).trim();
          }
          return { bodyClass: document.body.className, vars };
        });
        const vars = Object.fromEntries(Object.entries(got.vars).filter(([k]) => KEEP.test(k)).sort(([a], [b]) => a.localeCompare(b)));
        if (Object.keys(vars).length < 50) throw new Error(`${theme}: only ${Object.keys(vars).length} variables found`);
        dumped[theme] = { bodyClass: got.bodyClass.split(/\s+/).filter((c) => c.startsWith('vscode-')).join(' '), vars };
        console.log(`${theme}: ${Object.keys(vars).length} variables, body ${dumped[theme].bodyClass}`);
        await page.close();
      } finally {
        await cs.stop();
      }
    }
  } finally {
    await browser.close();
  }
  // In THEMES' order, the ones not dumped now kept from the file.
  const before = named.length > 0 ? (JSON.parse(readFileSync(FILE, 'utf8')) as { themes: typeof dumped }).themes : {};
  const themes = Object.fromEntries(THEMES.flatMap((t) => (dumped[t] ?? before[t] ? [[t, dumped[t] ?? before[t]]] : [])));
  writeFileSync(FILE, JSON.stringify({ source: 'code-server 4.139.1 (VS Code 1.139.1), the chat webview of this extension', themes }, null, 1) + '\n');
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
