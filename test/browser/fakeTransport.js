// A fake transport for the fixture page: the test feeds host messages (recorded frame streams)
// and reads what the webview sent. It also records CSP violations, which must stay empty.
(function () {
  var listeners = [];
  var STATE_KEY = 'rawpFake.state';
  var fake = {
    sent: [],
    violations: [],
    files: {},
    fileRequests: [],
    host: function (message) {
      listeners.slice().forEach(function (l) { l(message); });
    },
    attach: function (sessionId) {
      fake.host({ kind: 'session.attached', payload: { session_id: sessionId, live: true } });
    },
    feed: function (sessionId, frames) {
      fake.host({ kind: 'frames', payload: { session_id: sessionId, frames: frames } });
    },
    sentFrames: function (type) {
      return fake.sent
        .filter(function (m) { return m.kind === 'frame' && (!type || m.payload.frame.type === type); })
        .map(function (m) { return m.payload.frame; });
    },
  };
  document.addEventListener('securitypolicyviolation', function (e) {
    fake.violations.push(e.violatedDirective + ' ' + e.blockedURI);
  });
  window.rawpFake = fake;
  window.rawpTransport = {
    send: function (message) { fake.sent.push(JSON.parse(JSON.stringify(message))); },
    onMessage: function (l) {
      listeners.push(l);
      return function () { listeners = listeners.filter(function (x) { return x !== l; }); };
    },
    // Like VS Code's webview state: kept (as JSON) while the view is thrown away and built again,
    // here across a reload of the page (decision 672).
    getState: function () {
      var raw = sessionStorage.getItem(STATE_KEY);
      return raw === null ? undefined : JSON.parse(raw);
    },
    setState: function (s) { sessionStorage.setItem(STATE_KEY, JSON.stringify(s)); },
    // A test opens fixture.html#place=browser to be the browser page of rawp serve (decision 607).
    place: /(^#|&)place=browser(&|$)/.test(location.hash) ? 'browser' : undefined,
    // §4.5.1: the URL a test put in rawpFake.files for a transfer, else none.
    resolveFile: function (sessionId, transfer) {
      fake.fileRequests.push(transfer.transfer_id);
      return Promise.resolve(fake.files[transfer.transfer_id]);
    },
  };
})();
