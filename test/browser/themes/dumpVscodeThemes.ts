// Regenerates vscode-themes.json: the theme CSS variables a real VS Code (code-server 1.139, from
// .cache/tools) gives our chat webview in Light 2026 (the default), Dark 2026, Light High Contrast
// and Dark High Contrast. They are read from the webview's own <html style> (what our CSS sees:
// VS Code resolves every registered colour with its theme defaults and leaves out the ones a theme
// sets to null), so the fixture page can be tested without starting VS Code.
//   npx tsx test/browser/themes/dumpVscodeThemes.ts
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, REPO, buildVsix, launchChromium, openChatView, openWorkbench, startCodeServer } from '../../unit/e2e/codeServer';

export const THEMES = ['Light 2026', 'Dark 2026', 'Default High Contrast Light', 'Default High Contrast'] as const;
/** The tokens kept: every family the view's CSS may pair (a small file, not all ~800). */
const KEEP = /^--vscode-(font-|editor-font-|foreground|descriptionForeground|errorForeground|icon-foreground|focusBorder|contrast|sideBar-|editor-background|editor-foreground|editorWidget-|panel-|widget-|badge-|button-|textPreformat-|textCodeBlock-|textLink-|textBlockQuote-|textSeparator-|editorWarning-|editorError-|editorInfo-|testing-icon|charts-|gitDecoration-|input-|inputOption-|inputValidation-|dropdown-|list-|toolbar-|diffEditor-|editorSuggestWidget-|editor-findMatchHighlight|checkbox-|progressBar-|notifications|disabledForeground|keybindingLabel-)/;

async function main(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'rawp-theme-ws-'));
  const vsix = process.env.RAWP_VSIX && existsSync(process.env.RAWP_VSIX) ? process.env.RAWP_VSIX : existsSync(join(REPO, '.cache/test-rawp-vscode.vsix')) ? join(REPO, '.cache/test-rawp-vscode.vsix') : buildVsix();
  const out: Record<string, { bodyClass: string; vars: Record<string, string> }> = {};
  const browser = await launchChromium();
  try {
    for (const theme of THEMES) {
      const cs = await startCodeServer({ workspace, vsixes: [vsix], settings: { ...DEFAULT_SETTINGS, 'workbench.colorTheme': theme } });
      try {
        const page = await openWorkbench(browser, cs, workspace);
        const frame = await openChatView(page);
        await frame.locator('main.chat').waitFor({ timeout: 60_000 });
        const dumped = await frame.locator('html').evaluate((html) => {
          const vars: Record<string, string> = {};
          const style = html.style;
          for (let i = 0; i < style.length; i++) {
            const name = style.item(i);
            if (name.startsWith('--vscode-')) vars[name] = style.getPropertyValue(name).trim();
          }
          return { bodyClass: document.body.className, vars };
        });
        const vars = Object.fromEntries(Object.entries(dumped.vars).filter(([k]) => KEEP.test(k)).sort(([a], [b]) => a.localeCompare(b)));
        if (Object.keys(vars).length < 50) throw new Error(`${theme}: only ${Object.keys(vars).length} variables found`);
        out[theme] = { bodyClass: dumped.bodyClass.split(/\s+/).filter((c) => c.startsWith('vscode-')).join(' '), vars };
        console.log(`${theme}: ${Object.keys(vars).length} variables, body ${out[theme].bodyClass}`);
        await page.close();
      } finally {
        await cs.stop();
      }
    }
  } finally {
    await browser.close();
  }
  writeFileSync(join(__dirname, 'vscode-themes.json'), JSON.stringify({ source: 'code-server 4.139.1 (VS Code 1.139.1), the chat webview of this extension', themes: out }, null, 1) + '\n');
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
