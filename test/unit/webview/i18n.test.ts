// The words of the product in English and Korean (issue 15 "In English and Korean"): the view's
// catalogue, the host's l10n bundles and the manifest's package.nls files each have every message
// in both languages with the same {n} arguments, and the Korean is Korean.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { AREAS as EN_AREAS, en } from '../../../webview-ui/src/i18n/en';
import { AREAS as KO_AREAS, ko } from '../../../webview-ui/src/i18n/ko';
import { format, resolveLocale, setLocale, t } from '../../../webview-ui/src/i18n';
import { hostMessages } from '../../../scripts/l10n-extract';
import { webviewHtml } from '../../../src/extension/webviewHtml';

const json = (p: string): Record<string, string> => JSON.parse(readFileSync(p, 'utf8')) as Record<string, string>;
const args = (s: string): string => [...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]).sort().join(',');
const HANGUL = /[\uac00-\ud7a3]/;
/** Messages that are names or symbols in both languages. */
const SAME_IN_KOREAN = new Set(['RAWP Agent Client', 'RAWP', 'RAWP Agent Client — {0}: {1}', '{0}({1})']);

function checkPair(what: string, english: Record<string, string>, korean: Record<string, string>): void {
  assert.deepEqual(Object.keys(korean).sort(), Object.keys(english).sort(), `${what}: the Korean has exactly the English ids`);
  for (const [id, text] of Object.entries(english)) {
    const k = korean[id];
    assert.ok(typeof k === 'string' && k.trim().length > 0, `${what} ${id}: Korean is empty`);
    assert.equal(args(k), args(text), `${what} ${id}: the Korean uses the same {n} arguments`);
    if (!SAME_IN_KOREAN.has(text) && /[A-Za-z]{3}/.test(text.replace(/\{\d+\}/g, ''))) assert.match(k, HANGUL, `${what} ${id}: “${k}” is not Korean`);
  }
}

describe('i18n: English and Korean for every message (issue 15)', () => {
  afterEach(() => setLocale('en'));

  it('the view catalogue: every id has Korean with the same arguments', () => {
    checkPair('webview', en, ko);
  });

  it('the view catalogue: each id lives in exactly one area file, and each Korean area has its English area’s ids', () => {
    // en/index.ts spreads the areas into one object: an id in two areas would silently take the
    // later one's words, so the areas' sizes must add up to the catalogue's.
    const sizes = Object.values(EN_AREAS).map((a) => Object.keys(a).length);
    assert.equal(sizes.reduce((n, s) => n + s, 0), Object.keys(en).length, 'an id is in two English area files');
    assert.deepEqual(Object.keys(KO_AREAS), Object.keys(EN_AREAS), 'the Korean has the same areas');
    for (const [name, area] of Object.entries(EN_AREAS)) {
      checkPair(`webview ${name}`, area, KO_AREAS[name as keyof typeof KO_AREAS]);
    }
  });

  it('the host bundle: every vscode.l10n.t message of src/extension is in bundle.l10n.json and its Korean', () => {
    const english = json('l10n/bundle.l10n.json');
    const used = hostMessages();
    assert.ok(used.length > 30, `found ${used.length} host messages`);
    for (const m of used) assert.ok(m in english, `“${m}” is missing from l10n/bundle.l10n.json (run node --import tsx scripts/l10n-extract.ts)`);
    assert.deepEqual(Object.keys(english).sort(), [...used].sort(), 'no stale message in l10n/bundle.l10n.json');
    checkPair('l10n bundle', english, json('l10n/bundle.l10n.ko.json'));
  });

  it('the multi-file diff of a turn is titled without a count: VS Code adds "(N files)" itself', () => {
    const used = hostMessages();
    assert.ok(used.includes('Changes made by the turn'), 'the title of the changes editor');
    assert.deepEqual(used.filter((m) => /files? changed by the turn/.test(m)), [], 'no title that counts the files again');
    assert.equal(json('l10n/bundle.l10n.ko.json')['Changes made by the turn'], '이 턴에서 바뀐 내용');
  });

  it('the manifest: every %key% of package.json is in package.nls.json and package.nls.ko.json', () => {
    const manifest = readFileSync('package.json', 'utf8');
    const keys = [...manifest.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
    assert.ok(keys.length > 30, `found ${keys.length} keys`);
    const literal = [...manifest.matchAll(/"(title|description|markdownDescription|name|contextualTitle|displayName)": "([^%"][^"]*)"/g)].map((m) => `${m[1]}: ${m[2]}`);
    assert.deepEqual(literal.filter((l) => !/^name: rawp-vscode$/.test(l)), [], 'every user-visible manifest string is a %key% of package.nls.json');
    const english = json('package.nls.json');
    for (const k of keys) assert.ok(k in english, `${k} is missing from package.nls.json`);
    assert.deepEqual(Object.keys(english).sort(), [...new Set(keys)].sort(), 'no stale key in package.nls.json');
    checkPair('package.nls', english, json('package.nls.ko.json'));
    assert.equal((JSON.parse(manifest) as { l10n?: string }).l10n, './l10n', 'package.json names the l10n folder');
  });

  it('the view follows the first supported language: VS Code tags and navigator.languages', () => {
    assert.equal(resolveLocale(['ko']), 'ko');
    assert.equal(resolveLocale(['ko-KR', 'en-US']), 'ko');
    assert.equal(resolveLocale(['fr-FR', 'ko']), 'ko');
    assert.equal(resolveLocale(['zh-cn']), 'en');
    assert.equal(resolveLocale([undefined, 'EN_gb']), 'en');
    assert.equal(resolveLocale([]), 'en');
  });

  it('the chat view page names VS Code’s display language (lang, data-locale), and only as a language tag', () => {
    const html = webviewHtml({ cspSource: 'vscode-resource:', nonce: 'n', scriptUri: 'x.js', locale: 'ko' });
    assert.match(html, /<html lang="ko">/);
    assert.match(html, /<div id="root" data-locale="ko">/);
    const hostile = webviewHtml({ cspSource: 'vscode-resource:', nonce: 'n', scriptUri: 'x.js', locale: 'ko"><script>x</script>' });
    assert.match(hostile, /data-locale="koscriptxscript"/);
    assert.doesNotMatch(hostile, /<script>x/);
  });

  it('t() gives the current language and fills {n} arguments', () => {
    assert.equal(t('turn.toolCallsN', 3), '3 tool calls');
    setLocale('ko');
    assert.equal(t('turn.toolCallsN', 3), '도구 호출 3회');
    assert.equal(t('header.session'), '세션');
    assert.equal(format('{1} of {0} {2}', ['a', 'b']), 'b of a {2}', 'a missing argument stays visible, never “undefined”');
  });

  it('numbers are grouped as the language groups them, the same after switching back and forth', () => {
    for (const lang of ['en', 'ko', 'en'] as const) {
      setLocale(lang);
      assert.equal(format('{0} frames', [1234567.5]), `${(1234567.5).toLocaleString(lang)} frames`, lang);
      assert.equal(format('{0}', [1234567]), '1,234,567', lang);
    }
  });
});
