// Tool processes die with the host, even after `kill -9` of the host (issue 12 finding 10,
// docs/decisions/182-tool-process-supervisor.md). The shell runs detached (its own process group,
// so cancel and timeout can kill the whole tree), which also means nothing kills the group when
// the host dies. A supervising pipe closes that gap, portably: the shell's stdin is a pipe only the
// host holds open. A watchdog in the group blocks reading it; when the host goes away — however it
// dies — the kernel closes the pipe, the read returns, and the watchdog kills the whole group.
// The command itself reads /dev/null, as it did before.

/**
 * The supervising script, always run by /bin/sh (POSIX), whatever shell the user chose:
 * `$1` is that shell, `$2` the command, run as `shell -c command`. Exit status is the command's.
 */
const SCRIPT = [
  'rawp_shell=$1; rawp_command=$2; set --',
  // An asynchronous list reads /dev/null unless redirected explicitly, hence fd 3 for the watchdog.
  'exec 3<&0',
  '(read -r _ <&3; kill -KILL 0) &', // watchdog: EOF on the pipe = the host is gone
  '"$rawp_shell" -c "$rawp_command" </dev/null 3<&- &',
  'wait $!',
].join('\n');

/** The POSIX shell that supervises. */
export const SUPERVISOR_SHELL = '/bin/sh';

/** The argv for SUPERVISOR_SHELL that runs `command` with `shell` under the supervising pipe (spawn with stdin: 'pipe'). */
export function supervisedArgs(shell: string, command: string): string[] {
  return ['-c', SCRIPT, 'rawp-tool', shell, command];
}
