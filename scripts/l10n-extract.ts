// Lists every message the extension host localises: the literal first argument of each `.t('…')`
// call (vscode.l10n.t or the Words port) under src/extension. `node --import tsx
// scripts/l10n-extract.ts` rewrites l10n/bundle.l10n.json (English = key); the Korean bundle is
// written by hand and held to the same keys by test/unit/extension/l10nBundles.test.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export function hostMessages(dir = 'src/extension'): string[] {
  const found = new Set<string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (!name.endsWith('.ts')) continue;
    const file = join(dir, name);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 't') {
        const first = node.arguments[0];
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) found.add(first.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].sort();
}

if (process.argv[1]?.endsWith('l10n-extract.ts')) {
  const bundle = Object.fromEntries(hostMessages().map((m) => [m, m]));
  writeFileSync('l10n/bundle.l10n.json', `${JSON.stringify(bundle, null, 2)}\n`);
  console.log(`l10n/bundle.l10n.json: ${Object.keys(bundle).length} messages`);
}
