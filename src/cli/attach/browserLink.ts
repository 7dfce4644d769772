// `rawp serve` prints a browser link, http://host:port/#token=…&session=… (the fragment never
// reaches a server). People paste that link into `rawp attach` too; it holds what attach needs,
// so attach takes it (decision 585): the URL without its fragment, and the token and session from it.

export interface BrowserLink {
  /** The URL without its fragment. */
  url: string;
  token?: string;
  session?: string;
}

export function browserLinkParts(raw: string): BrowserLink {
  const hash = raw.indexOf('#');
  if (hash < 0) return { url: raw };
  const fragment = new URLSearchParams(raw.slice(hash + 1));
  const token = fragment.get('token')?.trim() || undefined;
  const session = fragment.get('session')?.trim() || undefined;
  return { url: raw.slice(0, hash), ...(token ? { token } : {}), ...(session ? { session } : {}) };
}
