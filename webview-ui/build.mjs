// The webview bundle's esbuild options, shared by esbuild.config.mjs (dist/) and the browser tests
// and benchmark (which build into a temp folder). Output: webview.js (IIFE, no eval), webview.css
// (our styles plus codicons) and the codicon font next to it.
export function webviewTarget(common, outdir = 'dist') {
  return {
    ...common,
    entryPoints: { webview: 'webview-ui/src/main.tsx' },
    outdir,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.ttf': 'file' },
    // A stable font name, so a host's CSP/resource roots need not know a hash.
    assetNames: '[name]',
  };
}
