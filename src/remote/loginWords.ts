// The browser master's token form in English and Korean (issue 15: the browser master follows the
// browser's language). It runs before the chat bundle, in the page's own inline script, so its few
// words travel in the page's config; the chat itself uses webview-ui/src/i18n.
export const LOGIN_WORDS = {
  en: {
    title: 'Attach to a RAWP session',
    intro: "Paste the host's access token. It is kept in this tab only (sessionStorage) and never put in a URL.",
    token: 'Token',
    attach: 'Attach',
    notAccepted: 'That token was not accepted.',
    tooMany: 'Too many failed attempts; wait a minute.',
    answered: 'The host answered {0}.',
    noSession: 'The host shares no session right now.',
  },
  ko: {
    title: 'RAWP 세션에 연결',
    intro: '호스트의 액세스 토큰을 붙여 넣으세요. 토큰은 이 탭에만(sessionStorage) 보관하며 URL에는 절대 넣지 않습니다.',
    token: '토큰',
    attach: '연결',
    notAccepted: '토큰이 받아들여지지 않았습니다.',
    tooMany: '실패한 시도가 너무 많습니다. 1분 뒤에 다시 시도하세요.',
    answered: '호스트가 {0} 상태로 응답했습니다.',
    noSession: '지금 호스트가 공유 중인 세션이 없습니다.',
  },
} as const satisfies Record<string, Record<string, string>>;
