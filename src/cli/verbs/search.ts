// `rawp search` — the @-file picker from the command line: indexes a workspace and prints the
// `session.file.candidates` payload (§16.1.2) for one query as JSON.
import { newId } from '../../protocol/build';
import { FileIndex } from '../../workspace/fileIndex';
import { MAX_RESULTS } from '../../workspace/fileSearch';
import { WorkspaceSearch } from '../../workspace/workspaceSearch';
import { ScanPool } from '../../workspace/scanPool';
import type { Verb } from '../verb';
import { directoryArg, notADirectory, parseVerbArgs, usageError } from '../verbArgs';

const HELP = `Usage: rawp search --workspace DIR [--max N] [--ext .ts,.md] [--exclude GLOB]... [--scope S] QUERY

Fuzzy-searches the files of DIR like the @-file picker and prints the session.file.candidates
payload (§16.1.2) as JSON. An empty QUERY ("") lists recently modified files.

  --workspace DIR   workspace folder (repeat for a multi-root workspace)
  --max N           max_results, 1–${MAX_RESULTS} (default 20)
  --ext LIST        only these extensions, comma-separated (.ts,.md or ts,md)
  --exclude GLOB    exclude paths matching GLOB (repeatable)
  --scope S         workspace | project | global (default workspace)
  --include-ignored also list files that .gitignore / .ignore hide (the rawp.search.includeIgnored setting)
  --folders         offer folders too (paths ending in /), as the chat's @ picker does
`;

export const searchVerb: Verb = {
  name: 'search',
  summary: 'fuzzy-search workspace files like the @-file picker, print the candidates as JSON',
  help: HELP,
  async run(argv, io) {
    const parsed = parseVerbArgs(searchVerb, io, {
      args: argv,
      allowPositionals: true,
      options: {
        workspace: { type: 'string', multiple: true },
        max: { type: 'string' },
        ext: { type: 'string', multiple: true },
        exclude: { type: 'string', multiple: true },
        scope: { type: 'string' },
        'include-ignored': { type: 'boolean' },
        folders: { type: 'boolean' },
      },
    });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    const usage = (message: string, withHelp = false) => usageError(searchVerb, io, message, withHelp);
    if (!values.workspace?.length) return usage('--workspace DIR is required', true);
    const roots: string[] = [];
    for (const dir of values.workspace) {
      const root = directoryArg(dir);
      if (!root) return usage(notADirectory(dir));
      roots.push(root);
    }
    if (positionals.length > 1) return usage(`one QUERY expected, got ${positionals.length} (quote a query with spaces)`);
    let max: number | undefined;
    if (values.max !== undefined) {
      max = Number(values.max);
      if (!Number.isInteger(max) || max < 1 || max > MAX_RESULTS) return usage(`--max must be an integer from 1 to ${MAX_RESULTS}`);
    }
    const scope = values.scope;
    if (scope !== undefined && scope !== 'workspace' && scope !== 'project' && scope !== 'global') return usage('--scope must be workspace, project or global');
    // `--ext txt` as `--ext .txt`: the filter compares names' endings with the dot (§16.1.1), and
    // an extension without one matched nothing, in silence (the review of 2026-12-06).
    const extensions = (values.ext ?? []).flatMap((e) => e.split(',')).map((e) => e.trim()).filter(Boolean).map((e) => (e.startsWith('.') ? e : `.${e}`));
    const exclude_patterns = values.exclude ?? [];
    const index = await FileIndex.open({ roots, ...(values['include-ignored'] ? { includeIgnored: true } : {}) });
    const search = new WorkspaceSearch(index, { folders: values.folders === true });
    try {
      const body = await search.run({
        query: positionals[0] ?? '',
        scope,
        max_results: max,
        filters: extensions.length || exclude_patterns.length ? { extensions, exclude_patterns } : undefined,
      });
      io.stdout.write(JSON.stringify({ query_id: newId(), ...body }, null, 2) + '\n');
      // The answer is the same either way, but a user with a huge workspace should know why it was slow.
      const failure = ScanPool.shared()?.failure;
      if (failure) io.stderr.write(`rawp search: the search workers could not run (${failure}); searched in this thread instead\n`);
      return 0;
    } finally {
      search.dispose();
      index.dispose();
    }
  },
};
