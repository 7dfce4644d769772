// The VSIX's README is the user's guide (issue 15 "A user-facing README"; decision 393): package.sh
// stages README.marketplace.md as the VSIX's README, the guide names every setting and every command
// the manifest contributes, its screenshots exist and are small PNGs, and the repository's README
// keeps the developers' two commands.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const guide = readFileSync(join(ROOT, 'README.marketplace.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, unknown> }; commands: Array<{ command: string; title: string }> };
};
const nls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (s: string) => (s.startsWith('%') && s.endsWith('%') ? (nls[s.slice(1, -1)] ?? s) : s);

describe('the Marketplace README (issue 15, decision 393)', () => {
  it('is what scripts/package.sh puts into the VSIX as its README', () => {
    const script = readFileSync(join(ROOT, 'scripts/package.sh'), 'utf8');
    assert.match(script, /cp README\.marketplace\.md "\$stage\/README\.md"/);
    assert.doesNotMatch(script, /cp [^\n]*\bREADME\.md\b[^\n]*"\$stage\/"/, 'the developer README is not staged');
  });

  it('names every setting the manifest contributes', () => {
    const keys = Object.keys(manifest.contributes.configuration.properties);
    assert.ok(keys.length > 15);
    assert.deepEqual(keys.filter((k) => !guide.includes(`\`${k}\``) && !guide.includes(`${k}\``) && !guide.includes(`\`${k},`)), []);
  });

  it('names every command by the title the palette shows', () => {
    const titles = manifest.contributes.commands.map((c) => text(c.title));
    const flat = guide.replace(/\s+/g, ' ');
    assert.deepEqual(titles.filter((t) => !flat.includes(t)), []);
  });

  it('shows the chat in a light and a dark theme, from committed small PNGs', () => {
    const images = [...guide.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((m) => ({ alt: m[1], path: m[2] }));
    assert.ok(images.some((i) => /light/i.test(i.path)) && images.some((i) => /dark/i.test(i.path)), 'light and dark screenshots');
    for (const i of images) {
      assert.ok(i.alt.length > 20, `${i.path} has a description`);
      const file = join(ROOT, i.path);
      assert.ok(existsSync(file), `${i.path} exists`);
      assert.deepEqual([...readFileSync(file).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], `${i.path} is a PNG`);
      assert.ok(statSync(file).size < 150_000, `${i.path} is small (${statSync(file).size} bytes)`);
    }
  });

  it('the repository README keeps the developers\' two commands', () => {
    const dev = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.match(dev, /\.\/scripts\/run\.sh/);
    assert.match(dev, /\.\/scripts\/test\.sh/);
  });
});
