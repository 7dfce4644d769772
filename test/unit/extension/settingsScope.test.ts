// Security property "a repository cannot loosen the user's security or redirect secrets": settings
// that decide where the stored API key is sent, which shell runs, whether paths outside the
// workspace may be used, and how the sharing server is exposed must not be settable from a
// workspace's .vscode/settings.json (a cloned repository's committed file). VS Code ignores
// workspace values of `machine`/`application` scoped settings.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
};

const USER_ONLY = [
  'rawp.openai.baseUrl',
  'rawp.permissions.allowOutsideWorkspace',
  'rawp.tools.shell',
  'rawp.remote.host',
  'rawp.remote.allowInsecure',
  'rawp.remote.allowedOrigins',
  // §4.5.1: a cloned repository must not let masters fill the disk.
  'rawp.files.maxBytes',
];

describe('extension manifest: security-sensitive settings are user-only', () => {
  for (const key of USER_ONLY) {
    it(`security: ${key} cannot be set by a workspace (scope machine or application)`, () => {
      const prop = manifest.contributes.configuration.properties[key];
      assert.ok(prop, `${key} is contributed`);
      assert.ok(prop.scope === 'machine' || prop.scope === 'application', `${key} has scope ${prop.scope ?? '(window, settable by a workspace)'}`);
    });
  }
});
