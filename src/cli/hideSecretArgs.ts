// A secret given on the command line (`--token T`) is readable by every local user in the process
// list (/proc/PID/cmdline, `ps`) for as long as the process runs. Setting process.title makes
// Node (libuv) overwrite the whole original argv area, so from here on the list shows only the
// title. The window between exec and this call remains: the warning says to prefer a file or the
// environment (issue 12 #11, decision 163).

/** Overwrite this process's command line with `title` when it carries `secret`; true if it did. */
export function hideSecretArgs(secret: string, title: string): boolean {
  if (!process.argv.some((a) => a.includes(secret))) return false;
  try {
    process.title = title;
    return true;
  } catch {
    return false;
  }
}
