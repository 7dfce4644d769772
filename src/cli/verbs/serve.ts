// `rawp serve` — the editor's session host without VS Code: argument parsing, then the same
// SessionHost (src/host) and its sharing server (src/remote), starting one shared session with the
// chosen agent. Prints one JSON line when it listens; stops cleanly on SIGINT/SIGTERM (masters
// closed with 1001, agent processes gone, sessions kept for the next start).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { DetectedAgents } from '../../host/detectedAgents';
import { environmentLanguage } from '../../agents/builtin/words';
import { defaultStateDir, workspaceStateDir } from '../../host/journal/stateDir';
import { SessionHost } from '../../host/sessionHost';
import { HostSharing } from '../../host/sharing';
import { LazyFileSearch } from '../../workspace/lazyFileSearch';
import { NodeFsBackend } from '../../workspace/nodeFsBackend';
import { tlsFromFiles, type RemoteServer } from '../../remote/server';
import { resolveServeToken, TOKEN_ARG_WARNING } from '../../remote/tokenSource';
import { hideSecretArgs } from '../hideSecretArgs';
import { scrubStartEnvironment } from '../startEnvironment';
import { logLine } from '../logLine';
import { silentLogger, type Logger } from '../../session/ports';
import type { Verb, VerbIo } from '../verb';
import { CONTEXT_WINDOW_USAGE, contextWindowArg, directoryArg, notADirectory, parseVerbArgs, usageError } from '../verbArgs';
import { hostPermissionBroker } from '../../host/permissions';

const HELP = `Usage: rawp serve --workspace DIR [--agent NAME] [--host H] [--port P]
                  [--token-file F | --token T] [--tls-cert F --tls-key F] [--allow-insecure-remote]

Runs one agent session on DIR and lets remote masters attach to it (rawp attach, a browser at the
printed URL, any RAWP-DPS master). Prints {"event":"listening","url":…,"session_id":…} on stdout.

  --workspace DIR          the folder the agent works in (required)
  --agent NAME             builtin (default), claude-code, codex, acp:<preset or command line>, openai
  --base-url URL --model M the OpenAI-compatible endpoint (with --agent openai; key in RAWP_OPENAI_API_KEY)
  --vision                 that model reads images: attached images go to it as image_url parts
  --context-window N       that model's context window in tokens: the conversation is kept within it
                           (without it, asked of the server — its model list, Ollama — or learned
                           from a refusal for length)
  --name NAME              the session's name
  --host H                 bind address (default 127.0.0.1); other than loopback needs TLS
  --port P                 port (default 0: any free port)
  --token-file F           read the token from F (must not be readable by others: chmod 600);
                           if F does not exist, generate one into it (mode 0600)
  --token T                the access token (at least 128 random bits, e.g. 32+ hex digits);
                           discouraged: other local users can read it in the process list
  --tls-cert F --tls-key F serve https/wss with this PEM certificate and key
  --allow-insecure-remote  allow a non-loopback bind without TLS (the token then travels in clear)
  --allow-origin O         also accept browser pages from origin O (repeatable)
  --public-host NAME       a name this host is reached by (repeatable); requests naming any other
                           host are refused (DNS rebinding); loopback names are always known
  --max-masters N          masters attached at once, over all sessions (default 32); beyond it an
                           attach gets 503 and rawp attach retries
  --max-sessions N         sessions this host holds when a master asks for another with
                           POST /v1/sessions (default 64); beyond it 503, in words
  --max-connections N      open connections at once (default 256, or --max-masters + 64 if more);
                           beyond it a new connection takes the place of one that has sent no
                           request yet, the oldest of the address holding the most such (else it
                           is closed at once); one that has not
                           sent its request headers within 10 s is closed too
  --state-dir DIR          where sessions are journaled, so they survive a restart or a crash
                           (default $XDG_STATE_HOME/rawp, else ~/.local/state/rawp; one folder
                           per workspace below it)
  --max-file-bytes N       largest file a master may upload or an agent may offer (§4.5.1 GET/PUT
                           /v1/files/{id}; default 20971520 = 20 MB); kept per session under the
                           state folder and deleted with the session
  --rules-file F           where "always allow" permission answers are kept
                           (default ~/.config/rawp/permission-rules.json)
  --permission-timeout S   seconds a permission question waits for a master before it counts as
                           rejected (default 300; 0: wait until answered)
  --include-ignored        the @ file picker also lists files .gitignore / .ignore hide
  --no-checkpoints         no snapshot of the workspace before each turn, so no review or rewind
                           of a turn's changes (for a repository too large to snapshot quickly)
  --verbose                log the server's events to stderr

The token may also come from the RAWP_TOKEN environment variable, which serve then removes from its
own environment (no process it starts inherits it). Without any of these a token is generated and
printed once on stderr.
`;

export const serveVerb: Verb = {
  name: 'serve',
  summary: 'run an agent session headless and let remote masters attach over WebSocket',
  help: HELP,
  async run(argv, io) {
    const parsed = parseVerbArgs(serveVerb, io, {
      args: argv,
      options: {
        workspace: { type: 'string' },
        agent: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        vision: { type: 'boolean' },
        'context-window': { type: 'string' },
        name: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'allow-insecure-remote': { type: 'boolean' },
        'allow-origin': { type: 'string', multiple: true },
        'public-host': { type: 'string', multiple: true },
        'max-masters': { type: 'string' },
        'max-sessions': { type: 'string' },
        'max-connections': { type: 'string' },
        'rules-file': { type: 'string' },
        'permission-timeout': { type: 'string' },
        'state-dir': { type: 'string' },
        'max-file-bytes': { type: 'string' },
        verbose: { type: 'boolean' },
        'include-ignored': { type: 'boolean' },
        'no-checkpoints': { type: 'boolean' },
      },
    });
    if (typeof parsed === 'number') return parsed;
    const { values } = parsed;
    const fail = (message: string) => usageError(serveVerb, io, message);
    if (!values.workspace) return fail('--workspace DIR is required');
    const workspace = directoryArg(values.workspace);
    if (!workspace) return fail(notADirectory(values.workspace));
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) return fail('--port must be an integer from 0 to 65535');
    if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) return fail('--tls-cert and --tls-key go together');
    const permissionTimeout = values['permission-timeout'] === undefined ? undefined : Number(values['permission-timeout']);
    if (permissionTimeout !== undefined && !(Number.isInteger(permissionTimeout) && permissionTimeout >= 0 && permissionTimeout <= 86_400)) return fail('--permission-timeout must be a whole number of seconds from 0 to 86400');
    const maxMasters = values['max-masters'] === undefined ? undefined : Number(values['max-masters']);
    if (maxMasters !== undefined && (!Number.isInteger(maxMasters) || maxMasters < 1)) return fail('--max-masters must be a whole number of at least 1');
    const contextWindow = contextWindowArg(values['context-window']);
    if (contextWindow === null) return fail(CONTEXT_WINDOW_USAGE);
    const maxSessions = wholeArg(values['max-sessions']);
    if (maxSessions === null) return fail('--max-sessions must be a whole number of at least 1');
    const maxConnections = wholeArg(values['max-connections']);
    if (maxConnections === null) return fail('--max-connections must be a whole number of at least 1');
    const maxFileBytes = values['max-file-bytes'] === undefined ? undefined : Number(values['max-file-bytes']);
    if (maxFileBytes !== undefined && (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < 1)) return fail('--max-file-bytes must be a whole number of bytes, at least 1');

    let token;
    let tls;
    try {
      // RAWP_TOKEN leaves process.env here, and /proc/PID/environ: no child of the host inherits
      // it, none reads it from us (decision 549); the other credentials leave /proc/PID/environ
      // only, for the agents that need them (decision 668).
      token = resolveServeToken({ token: values.token, tokenFile: values['token-file'] });
      scrubStartEnvironment();
      tls = values['tls-cert'] && values['tls-key'] ? tlsFromFiles(values['tls-cert'], values['tls-key']) : undefined;
    } catch (e) {
      return fail((e as Error).message);
    }

    if (token.kind === 'given') {
      io.stderr.write(`rawp serve: warning: ${TOKEN_ARG_WARNING}\n`);
      hideSecretArgs(token.token, 'rawp serve');
    }

    const logger = values.verbose ? stderrLogger(io) : undefined;
    const rulesFile = values['rules-file'] ?? join(homedir(), '.config', 'rawp', 'permission-rules.json');
    const requestedAgent = values.agent ?? 'builtin';
    // The host's agents: the known CLIs detected here, and the one ACP command line the operator
    // configured with --agent. A master's POST /v1/sessions may only name one of these: its
    // `agent` string is an id, never a command line (issue 12 #5: "acp:sh -c '…'" ran anything).
    const agents = new DetectedAgents({
      openai: { baseUrl: values['base-url'], model: values.model, ...(values.vision ? { vision: true } : {}), ...(contextWindow ? { contextWindow } : {}) },
      acpCommands: requestedAgent.startsWith('acp:') ? [requestedAgent.slice(4)] : [],
      // The built-in agent answers in the locale's language (LANG=ko_KR.UTF-8: Korean; decision 572).
      language: environmentLanguage(process.env),
    });
    // §16.1: masters' @-pickers search the workspace (file_search_fuzzy is announced because of it).
    // Its watch is set up in a worker thread: Node's recursive watch walks the tree synchronously (watchWorker.ts).
    const search = new LazyFileSearch(() => [workspace], () => (watchFs ??= new NodeFsBackend([workspace], { watchInWorker: true })), { includeIgnored: values['include-ignored'] === true });
    let watchFs: NodeFsBackend | undefined;
    let defaultAgent: string;
    // The same session host as the editor window (src/host): slash commands of the workspace and
    // the home folder, one prompt admission for every master, history on every attach.
    const host = new SessionHost({
      logger: logger ?? silentLogger,
      agents: () => agents.choices(),
      detectAgentsAgain: () => agents.detectAgain(),
      defaultAgent: () => defaultAgent,
      workspacePath: workspace,
      workspaceOtherName: resolve(values.workspace),
      fileSearch: search.run,
      commands: { home: homedir(), workspaceFolders: [workspace], watch: true },
      origin: 'remote',
      // One permission policy and rules store for every session and agent (issue 11 item 4).
      permissions: hostPermissionBroker({ rulesFile, timeoutSec: permissionTimeout, workspace: () => workspace, onRulesProblem: (m) => void io.stderr.write(`rawp serve: ${m}\n`) }),
      // Every session journaled as its frames are sent (docs/decisions/120-125); the journal's own
      // warnings (torn or corrupt lines) reach stderr even without --verbose.
      // §4.5.1 files: in the state folder's files/, per session, gone with their session.
      files: {
        ...(maxFileBytes !== undefined ? { maxBytes: maxFileBytes } : {}),
        // context_files URLs naming this host by a --public-host name are read from the store.
        ownHostNames: () => new Set((values['public-host'] ?? []).map((h) => h.toLowerCase())),
      },
      ...(values['no-checkpoints'] ? { checkpoints: false as const } : {}),
      state: { dir: workspaceStateDir(values['state-dir'] ? resolve(values['state-dir']) : defaultStateDir(), workspace), logger: logger ?? warningsLogger(io) },
    });
    const sharing = new HostSharing({
      host,
      logger: logger ?? silentLogger,
      resolveAgent: (requested) => agents.resolve(requested),
      settings: async () => ({ token: token.token, host: values.host, port, tls, allowInsecureRemote: values['allow-insecure-remote'], allowedOrigins: values['allow-origin'], publicHosts: values['public-host'], maxMasters, maxSessions, maxConnections }),
    });
    let server: RemoteServer;
    let session_id: string;
    try {
      defaultAgent = await agents.resolve(requestedAgent);
      // The state folder's lock first: a second rawp serve on this workspace stops here, clearly.
      host.openJournal();
      // Sessions a previous run left (stopped or killed) come back under their ids (§7.8.2).
      const restored = await host.restoreAll();
      session_id = restored.at(-1) ?? (await host.create({ agent: defaultAgent, name: values.name }));
      server = await sharing.start();
    } catch (e) {
      await host.dispose();
      search.dispose();
      return fail((e as Error).message);
    }

    // Serving goes on when whoever reads our output goes away (`rawp serve | head -1` to take the
    // URL): a line that cannot be written is dropped (and main.ts then does not stop the process).
    for (const stream of [io.stdout, io.stderr]) stream.on('error', () => undefined);
    io.stdout.write(`${JSON.stringify({ event: 'listening', url: server.url, session_id })}\n`);
    if (token.kind === 'generated') {
      io.stderr.write(`rawp serve: access token (shown once, not stored): ${token.token}\n`);
      io.stderr.write(`rawp serve: browser master: ${server.browserUrl({ session_id, token: token.token })}\n`);
    } else if (token.kind === 'generated_to_file') {
      io.stderr.write(`rawp serve: a new access token was written to ${token.file}\n`);
    }

    const signal = await new Promise<string>((resolveSignal) => {
      const on = (s: string) => () => resolveSignal(s);
      process.once('SIGINT', on('SIGINT'));
      process.once('SIGTERM', on('SIGTERM'));
    });
    io.stderr.write(`rawp serve: ${signal}: stopping; the sessions come back at the next start\n`);
    // Masters first, with 1001 (going away): the sessions are not deleted — their journals bring
    // them back at the next start, and a master reattaches by itself then (§7.8; decision 581).
    // Telling them session.deleted made every master give up on a session that was coming back.
    await sharing.close();
    await host.dispose();
    search.dispose();
    return 0;
  },
};

/** A count option: undefined when not given, null when not a whole number of at least 1. */
function wholeArg(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** Warnings and errors only (the journal's, without --verbose). */
function warningsLogger(io: VerbIo): Logger {
  const line = (level: string) => (message: string, data?: Record<string, unknown>) => io.stderr.write(logLine(`rawp serve: ${level}: `, message, data));
  return { debug: () => undefined, info: () => undefined, warn: line('warning'), error: line('error') };
}

function stderrLogger(io: VerbIo): Logger {
  // What peers send is in messages and data (a frame type, an answer): logLine shows it, never obeys it.
  const line = (level: string) => (message: string, data?: Record<string, unknown>) => io.stderr.write(logLine(`[${level}] `, message, data));
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}
