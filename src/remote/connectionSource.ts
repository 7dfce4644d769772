// Which source a connection comes from, for the connection cap's share per source (decision 574).
// An IPv4 address is one source. An IPv6 host is usually given a whole /64 and may pick any address
// in it (privacy addresses, or an attacker's choice), so the /64 is one source, not each address.

/** The source key of a peer address (`socket.remoteAddress`); '' when it is not known. */
export function connectionSource(address: string | undefined): string {
  if (address === undefined || address === '') return '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  return groups === undefined ? address.toLowerCase() : `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as hex without leading zeros; undefined if it is not one. */
function ipv6Groups(address: string): string[] | undefined {
  const bare = address.split('%')[0].toLowerCase();
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  // A dotted IPv4 tail (`::1.2.3.4`) is the last two groups.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const missing = 8 - width(head) - width(tail);
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const all = [...head, ...new Array<string>(missing).fill('0'), ...tail];
  const out: string[] = [];
  for (const g of all) {
    if (g.includes('.')) {
      const bytes = g.split('.').map(Number);
      if (bytes.length !== 4 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255)) return undefined;
      out.push(((bytes[0] << 8) | bytes[1]).toString(16), ((bytes[2] << 8) | bytes[3]).toString(16));
    } else {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16).toString(16));
    }
  }
  return out;
}
