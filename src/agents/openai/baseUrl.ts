// The OpenAI-compatible agent's base URL (decision 582): where a chat completion goes, how the URL
// is shown (errors, the agent's capability frame every master gets, logs), and what is wrong with
// one. A base URL may carry what must not be shown — a user name and password, or a key in its
// query (`?api_key=…`; Azure's `?api-version=…` is only a version) — and a query must stay after
// the path (`…/v1?api-version=1` + `/chat/completions` is `…/v1/chat/completions?api-version=1`).

/** Query parameters whose values are shown as `***`. */
const SECRET_PARAM = /key|token|secret|password|passwd|sig|auth|credential/i;

/** `{base}/chat/completions`, with the base's query kept after the path. */
export function chatCompletionsUrl(baseUrl: string): string {
  return endpointUrl(baseUrl, 'chat/completions');
}

/** `{base}/models` (the model list, decision 738), the same way. */
export function modelsUrl(baseUrl: string): string {
  return endpointUrl(baseUrl, 'models');
}

function endpointUrl(baseUrl: string, path: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `${baseUrl.replace(/\/+$/, '')}/${path}`;
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  url.hash = '';
  return url.href;
}

/** The URL as it may be shown: no user name or password, secret-looking query values as `***`. */
export function shownUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(not a URL)';
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.set(name, '***');
  return url.href.replace(/%2A%2A%2A/g, '***');
}

/** Why the agent cannot use this base URL, in words that show no secret; undefined when it can. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `the base URL "${shownUrl(baseUrl)}" is not a URL (e.g. http://localhost:11434/v1)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the base URL ${shownUrl(baseUrl)} is not http or https`;
  if (url.username || url.password) return `the base URL ${shownUrl(baseUrl)} holds a user name or password, which requests cannot carry; put the key in RAWP_OPENAI_API_KEY instead`;
  return undefined;
}
