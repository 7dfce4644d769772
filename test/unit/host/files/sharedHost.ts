// The set-up of the §4.5.1 file tests over the real sharing server: a fresh host harness per test,
// one bearer token, and the editor's HostSharing for a session — closed and cleaned after each test.
import { HostSharing } from '../../../../src/host/sharing';
import type { SessionHost } from '../../../../src/host/sessionHost';
import { generateToken } from '../../../../src/remote/auth';
import { silentLogger } from '../../../../src/session/ports';
import { harness, type Harness } from '../harness';

export interface SharedHostFixture {
  readonly h: Harness;
  readonly token: string;
  /** The sharing of the current test, once `share` made it. */
  readonly sharing: HostSharing | undefined;
  /** Shares session `id` of `host` with the fixture's token; returns the server (its url). */
  share(host: SessionHost, id: string): Promise<Awaited<ReturnType<HostSharing['share']>>>;
}

/** Call in a describe block: beforeEach makes the harness, afterEach closes the sharing and cleans up. */
export function sharedHostPerTest(): SharedHostFixture {
  const token = generateToken();
  let h: Harness | undefined;
  let sharing: HostSharing | undefined;
  beforeEach(() => (h = harness()));
  afterEach(async () => {
    await sharing?.close();
    sharing = undefined;
    await h?.cleanup();
  });
  return {
    get h() {
      if (!h) throw new Error('the harness is made in beforeEach');
      return h;
    },
    token,
    get sharing() {
      return sharing;
    },
    async share(host, id) {
      sharing = new HostSharing({ host, logger: silentLogger, settings: async () => ({ token }) });
      return sharing.share(id);
    },
  };
}
