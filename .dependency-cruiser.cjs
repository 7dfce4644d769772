// The layer rules of DESIGN.md, checked by dependency-cruiser on every `npm test`
// (test/unit/architecture/layers.test.ts runs it and fails on any violation; there are no exceptions).
//
//   cli, extension            wiring (extension is the only place that imports 'vscode')
//   host                      sessions as a product (the same for the editor and `rawp serve`)
//   remote > agents > commands > tools > workspace
//   session > protocol        pure layers
//
// An arrow may only point down this stack. Applies to every folder of the stack, including those
// that do not exist yet: a new src/host file is checked the moment it appears.
'use strict';

// Lowest first. cli and extension share the top rank: neither may import the other.
const STACK = [['protocol'], ['session'], ['workspace'], ['tools'], ['commands'], ['agents'], ['remote'], ['host'], ['cli', 'extension']];

const FS_LAYERS = ['workspace', 'host', 'cli', 'extension'];
const FS_MODULES = '^(node:)?fs(/promises)?$';

const upward = STACK.flatMap((rank, i) => {
  const above = STACK.slice(i + 1).flat();
  const peers = rank.length > 1 ? rank : [];
  return rank.map((layer) => {
    const forbidden = [...above, ...peers.filter((p) => p !== layer)];
    return {
      name: `layer-${layer}-no-upward-import`,
      comment: `src/${layer} may import only layers below it in DESIGN.md's stack (not ${forbidden.join(', ')})`,
      severity: 'error',
      from: { path: `^src/${layer}/` },
      to: { path: `^src/(${forbidden.join('|')})/` },
    };
  });
}).filter((rule) => !rule.to.path.endsWith('()/'));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'vscode-only-in-extension',
      comment: "DESIGN.md: src/extension is the only place that imports 'vscode'",
      severity: 'error',
      from: { pathNot: '^src/extension/' },
      // 'vscode' resolves to its type package @types/vscode; unresolved it is the bare name.
      to: { path: ['^vscode$', '(^|/)node_modules/@types/vscode/'] },
    },
    {
      name: 'protocol-imports-only-zod',
      comment: 'DESIGN.md: src/protocol is pure data and imports only zod (it is bundled into webview-ui)',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { pathNot: ['^src/protocol/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'session-imports-only-protocol',
      comment: 'DESIGN.md: src/session imports only src/protocol',
      severity: 'error',
      from: { path: '^src/session/' },
      to: { pathNot: ['^src/session/', '^src/protocol/'] },
    },
    {
      name: 'webview-ui-imports-only-protocol-from-src',
      comment: 'DESIGN.md: webview-ui imports only src/protocol from src/',
      severity: 'error',
      from: { path: '^webview-ui/' },
      to: { path: '^src/', pathNot: '^src/protocol/' },
    },
    {
      name: 'webview-ui-no-preact-compat',
      comment: 'decision 514: importing preact/compat installs its React emulation on every element the view creates; the view uses core Preact (memo: webview-ui/src/view/memo.ts)',
      severity: 'error',
      from: { path: '^webview-ui/' },
      to: { path: 'node_modules/preact/compat/' },
    },
    {
      name: 'src-never-imports-webview-ui',
      comment: 'webview-ui is a separate bundle at the top; nothing in src/ depends on it',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^webview-ui/' },
    },
    {
      name: 'node-fs-only-in-io-layers',
      comment: `DESIGN.md: node:fs only in ${FS_LAYERS.map((l) => `src/${l}`).join(', ')}; elsewhere go through src/workspace (FsBackend, local files, scanner, watcher) or a port`,
      severity: 'error',
      from: { pathNot: `^src/(${FS_LAYERS.join('|')})/` },
      to: { path: FS_MODULES },
    },
    ...upward,
    {
      name: 'no-unresolvable-import',
      comment: "every import must resolve, so no rule can be dodged by an import the checker cannot see ('vscode' is provided by the editor)",
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^vscode$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
