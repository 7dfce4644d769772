// Issue 15 "In English and Korean": no user-visible English literal left in the chat's components.
// A reasonable check, not a proof: JSX text, and string literals given to the attributes people
// read or hear (title, aria-label, placeholder, alt, label …) or rendered as a child — directly or
// as a branch of ?:, && and ?? — must come from t(). Symbols, numbers and punctuation may stay.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const VIEW = 'webview-ui/src/view';
const READ_ATTRIBUTES = new Set(['title', 'aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'placeholder', 'data-placeholder', 'alt', 'label']);
/** Words: two letters in a row (so "·", "+", "—", "/", "(", "%" and single letters as symbols pass). */
const WORDY = /[A-Za-z]{2}/;

export function userVisibleLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (n: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  // The values an expression renders: literals directly, or through ?:, &&, ||, ?? and +.
  const rendered = (e: ts.Expression): void => {
    if (ts.isParenthesizedExpression(e)) return rendered(e.expression);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) {
      if (WORDY.test(e.text)) found.push(`${at(e)} "${e.text}"`);
      return;
    }
    if (ts.isTemplateExpression(e)) {
      const parts = [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ');
      if (WORDY.test(parts)) found.push(`${at(e)} \`${parts.trim()}\``);
      return;
    }
    if (ts.isConditionalExpression(e)) {
      rendered(e.whenTrue);
      rendered(e.whenFalse);
      return;
    }
    if (ts.isBinaryExpression(e) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.PlusToken].includes(e.operatorToken.kind)) {
      if (e.operatorToken.kind === ts.SyntaxKind.PlusToken) rendered(e.left);
      rendered(e.right);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && WORDY.test(node.text)) found.push(`${at(node)} "${node.text.trim()}"`);
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) rendered(node.expression);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) rendered(node.initializer);
      else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) rendered(node.initializer.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('i18n: the chat components have no user-visible literal (issue 15)', () => {
  it('every JSX text and read-out attribute of webview-ui/src/view comes from the catalogue', () => {
    const files = readdirSync(VIEW).filter((f) => f.endsWith('.tsx'));
    assert.ok(files.length >= 8, `found ${files.length} components`);
    const left = files.flatMap((f) => userVisibleLiterals(join(VIEW, f), readFileSync(join(VIEW, f), 'utf8')));
    assert.deepEqual(left, [], 'use t(id) from webview-ui/src/i18n (and add the id to an area file of i18n/en and of i18n/ko)');
  });

  it('the check itself finds literals in text, attributes and branches, and passes symbols', () => {
    const sample = `const a = <div title="Open it" aria-label={x ? 'Yes' : t('no')}>Hello {n} · {y && 'More'} {\`\${n} files\`} + / — {'·'}</div>;`;
    const found = userVisibleLiterals('sample.tsx', sample).map((f) => f.replace(/^sample\.tsx:\d+ /, ''));
    assert.deepEqual(found.sort(), ['"Hello"', '"More"', '"Open it"', '"Yes"', '`files`'].sort());
  });
});
