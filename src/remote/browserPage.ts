// The browser master's page (GET /): the same chat UI bundle as the webview (dist/webview.js),
// under a strict CSP with a per-response nonce. The token never travels in a logged URL: it comes
// from the URL fragment (`#token=…`, never sent to any server) or is pasted by the user, is kept
// in sessionStorage (this tab only), and the fragment is wiped from the address bar at once.
//
// Contract with the bundle (docs/remote.md "Browser master"): before the bundle runs, the page
// sets `data-token`, `data-session-id` and `data-server` on #root (what the bundle's browser
// transport reads) and `globalThis.__RAWP_REMOTE__ = { protocol, session_id, sessions, token,
// subprotocols, streamUrl(session_id, last_message_id?) }`.
import { LOGIN_WORDS } from './loginWords';
import { randomBytes } from 'node:crypto';
import { BEARER_SUBPROTOCOL_PREFIX, DPS_SUBPROTOCOL, REATTACH_PARAM } from './controlPlane';

export const TOKEN_STORAGE_KEY = 'rawp.token';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** Security headers of the page; `wsOrigin` is the ws(s):// origin the page may connect to. */
export function pageHeaders(nonce: string, wsOrigin: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}' 'self'`,
    `connect-src 'self' ${wsOrigin}`,
    // blob: — §4.5.1 files the page fetched with its token (previews and download links).
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/** The page. `hasCss`: link dist/webview.css too. */
export function browserPage(nonce: string, options: { hasCss: boolean }): string {
  const config = JSON.stringify({
    protocol: DPS_SUBPROTOCOL,
    bearerPrefix: BEARER_SUBPROTOCOL_PREFIX,
    reattachParam: REATTACH_PARAM,
    storageKey: TOKEN_STORAGE_KEY,
    words: LOGIN_WORDS,
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>RAWP Agent Client — browser master</title>
<link rel="icon" href="data:,">
${options.hasCss ? `<link rel="stylesheet" href="/webview.css" nonce="${nonce}">` : ''}
<style nonce="${nonce}">
  body { font-family: system-ui, sans-serif; margin: 0; }
  #rawp-login { max-width: 32rem; margin: 4rem auto; padding: 1rem; }
  #rawp-login input { width: 100%; font-family: monospace; padding: .4rem; box-sizing: border-box; }
  #rawp-login .error { color: #b00020; }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<form id="rawp-login" hidden>
  <h1 id="rawp-login-title">Attach to a RAWP session</h1>
  <p id="rawp-login-intro">Paste the host's access token. It is kept in this tab only (sessionStorage) and never put in a URL.</p>
  <label><span id="rawp-login-token">Token</span> <input id="rawp-token" type="password" autocomplete="off" spellcheck="false" required></label>
  <p class="error" id="rawp-error" role="alert"></p>
  <button type="submit" id="rawp-login-attach">Attach</button>
</form>
<div id="root"></div>
<script nonce="${nonce}">
(function () {
  "use strict";
  var C = ${config};
  var nonce = ${JSON.stringify(nonce)};
  var form = document.getElementById("rawp-login");
  var errorBox = document.getElementById("rawp-error");
  var wanted;
  // The form's words follow the browser's languages: the first of English and Korean it lists.
  var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  var lang = "en";
  for (var i = 0; i < langs.length; i++) {
    var primary = String(langs[i]).toLowerCase().split(/[-_]/)[0];
    if (primary === "ko" || primary === "en") { lang = primary; break; }
  }
  var W = C.words[lang];
  document.documentElement.lang = lang;
  ["title", "intro", "token", "attach"].forEach(function (k) { document.getElementById("rawp-login-" + k).textContent = W[k]; });
  // 1. A token in the fragment: keep it in this tab, wipe it from the address bar and history.
  var frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("token")) sessionStorage.setItem(C.storageKey, frag.get("token"));
  if (frag.get("session")) wanted = frag.get("session");
  if (location.hash) history.replaceState(null, "", location.pathname);
  function wsBase() { return (location.protocol === "https:" ? "wss://" : "ws://") + location.host; }
  // The token field takes focus whenever the form shows, a refused token selected for retyping:
  // a keyboard user was left on BODY after "token not accepted" (decision 605).
  function ask(message) {
    errorBox.textContent = message || "";
    form.hidden = false;
    var input = document.getElementById("rawp-token");
    input.focus();
    if (message) input.select();
  }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var t = document.getElementById("rawp-token").value.trim();
    if (!t) return;
    sessionStorage.setItem(C.storageKey, t);
    form.hidden = true;
    start();
  });
  function start() {
    var token = sessionStorage.getItem(C.storageKey);
    if (!token) return ask();
    fetch("/v1/sessions", { headers: { authorization: "Bearer " + token }, cache: "no-store" }).then(function (res) {
      if (res.status === 401 || res.status === 429) {
        sessionStorage.removeItem(C.storageKey);
        throw new Error(res.status === 401 ? W.notAccepted : W.tooMany);
      }
      if (!res.ok) throw new Error(W.answered.replace("{0}", String(res.status)));
      return res.json();
    }).then(function (body) {
      var sessions = body.sessions || [];
      var chosen = sessions.filter(function (s) { return s.session_id === wanted; })[0] || sessions[0];
      if (!chosen) throw new Error(W.noSession);
      globalThis.__RAWP_REMOTE__ = {
        protocol: C.protocol,
        session_id: chosen.session_id,
        sessions: sessions,
        token: token,
        subprotocols: [C.protocol, C.bearerPrefix + token],
        streamUrl: function (id, last) {
          var u = wsBase() + "/v1/sessions/" + encodeURIComponent(id) + "/stream";
          return last ? u + "?" + C.reattachParam + "=" + encodeURIComponent(last) : u;
        }
      };
      // The bundle's browser transport reads these (src: webview-ui/src/main.tsx); they live in
      // this page only and are never sent anywhere but in the WebSocket subprotocol.
      var root = document.getElementById("root");
      root.dataset.token = token;
      root.dataset.sessionId = chosen.session_id;
      root.dataset.server = location.origin;
      var s = document.createElement("script");
      s.nonce = nonce;
      s.src = "/webview.js";
      document.body.appendChild(s);
    }).catch(function (e) { ask(e.message); });
  }
  start();
})();
</script>
</body>
</html>
`;
}
