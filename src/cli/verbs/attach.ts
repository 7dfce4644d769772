// `rawp attach` — a terminal master for a shared session (`rawp serve` or an editor that shares).
import { readFileSync } from 'node:fs';
import { httpBaseOf, resolveTarget } from '../attach/target';
import { continueEnded } from '../attach/continueEnded';
import { attachPhrase } from '../attach/attachPhrases';
import { browserLinkParts } from '../attach/browserLink';
import { TerminalMaster } from '../attach/terminalMaster';
import { readClientToken, TOKEN_ARG_WARNING } from '../../remote/tokenSource';
import { hideSecretArgs } from '../hideSecretArgs';
import { showControls } from '../controlPictures';
import { terminalLanguage } from '../terminalLanguage';
import type { Verb } from '../verb';
import { parseVerbArgs, usageError } from '../verbArgs';

/** The browser link's token is in the process list as --token's is. */
const LINK_TOKEN_WARNING = `the link's token is in the process list (ps, /proc/PID/cmdline) where every local user can read it; prefer the host's URL with --token-file F or the RAWP_TOKEN environment variable`;

const HELP = `Usage: rawp attach URL [--token-file F | --token T] [--session ID | --continue ID] [--ca F]

Attaches to a shared session as a master: shows the session so far (what the host's history holds;
a ⚠ line says when it no longer holds the start), then the transcript live, sends each line you type
as a prompt, answers questions (type the option's number), cancels the running turn on Ctrl-C (a
second Ctrl-C quits), and reconnects by itself after a drop without losing anything.

  URL              the host (http://127.0.0.1:PORT as rawp serve prints it), a session URL, the
                   ws(s)://…/v1/sessions/ID/stream of a session, or the browser link rawp serve
                   prints (…/#token=…&session=…: its token and session are used)
  --token-file F   read the host's access token from F (must not be readable by others: chmod 600)
  --token T        the token itself (discouraged: other local users can read it in the process
                   list); without either, the RAWP_TOKEN environment variable
  --session ID     which session (default: the one in the URL, else the first shared session)
  --continue ID    a shared session an error ended (an agent's crash, an API error): the host
                   starts a new session with the same agent, going on with its conversation, and
                   attaches to it (the one that already goes on with it, if there is one)
  --ca F           trust this PEM certificate (a self-signed wss:// host)

Lines starting with / are sent as slash commands; /cancel cancels the turn, /quit leaves.
Ctrl-D on a terminal leaves at once; piped input (printf 'run the tests\n' | rawp attach URL)
leaves once the turns its lines started have ended.

Files (RAWP-DPS §4.5.1) are shown as one line each — number, name, type, size, whether the agent
made it or a master uploaded it — with the host's URL to fetch it (GET with the access token).
/save [N] [DIR] fetches file N (default the newest) into DIR (default the current folder), checks
its SHA-256 and never overwrites: a taken name becomes "name (1).ext".
`;

export const attachVerb: Verb = {
  name: 'attach',
  summary: 'attach to a shared session as a terminal master (prompts, answers, Ctrl-C cancels, auto-reconnect)',
  help: HELP,
  async run(argv, io) {
    const parsed = parseVerbArgs(attachVerb, io, {
      args: argv,
      allowPositionals: true,
      options: { token: { type: 'string' }, 'token-file': { type: 'string' }, session: { type: 'string' }, continue: { type: 'string' }, ca: { type: 'string' } },
    });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    if (positionals.length !== 1) return usageError(attachVerb, io, 'one URL expected', true);
    if (values.continue !== undefined && values.session !== undefined) return usageError(attachVerb, io, '--session and --continue name different sessions: give one');
    // The browser link `rawp serve` prints carries the token and session in its fragment.
    const link = browserLinkParts(positionals[0]);
    const fromLink = link.token !== undefined && values.token === undefined && values['token-file'] === undefined;
    let token: string;
    let ca: Buffer | undefined;
    try {
      token = readClientToken({ token: fromLink ? link.token : values.token, tokenFile: values['token-file'] });
      if (values.token !== undefined || link.token !== undefined) {
        // Like --token, a link with the token is in the process list: said, and hidden there.
        io.stderr.write(`rawp attach: warning: ${values.token !== undefined ? TOKEN_ARG_WARNING : LINK_TOKEN_WARNING}\n`);
        hideSecretArgs((values.token ?? link.token) as string, 'rawp attach');
      }
      ca = values.ca ? readFileSync(values.ca) : undefined;
    } catch (e) {
      return usageError(attachVerb, io, (e as Error).message);
    }
    let target;
    try {
      // The new session that goes on with an ended one's conversation (decision 647).
      const continued = values.continue !== undefined ? await continueEnded(httpBaseOf(link.url), values.continue, token, ca) : undefined;
      if (continued !== undefined) io.stderr.write(`rawp attach: ${showControls(attachPhrase('notice.continuing', [values.continue as string, continued], terminalLanguage(process.env)))}\n`);
      target = await resolveTarget(link.url, { token, session: continued ?? values.session ?? link.session, ca });
    } catch (e) {
      // Shown, not obeyed: the message may quote the host (decision 703).
      io.stderr.write(`rawp attach: ${showControls((e as Error).message)}\n`);
      return 1;
    }
    const master = new TerminalMaster({ url: target.streamUrl, token, session_id: target.session_id, stdin: io.stdin, stdout: io.stdout, ca, language: terminalLanguage(process.env) });
    const onSigint = () => master.interrupt();
    const onSigterm = () => master.stop();
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    try {
      master.start();
      return await master.done;
    } finally {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      // stdin keeps the process alive otherwise.
      (io.stdin as NodeJS.ReadStream).pause?.();
      (io.stdin as NodeJS.ReadStream).unref?.();
    }
  },
};
