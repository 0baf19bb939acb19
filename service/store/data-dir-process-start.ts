// When a process started, to tell the owner of a data-dir lock from a later process that got its
// pid (after kill -9 or a reboot). Looked up in /proc where there is one (Linux: the boot id and
// the start time in clock ticks, exact and cheap), else with `ps -o lstart=` (macOS and the other
// Unix systems; to the second). Windows has neither: there the lock falls back to the pid alone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface StartTimeSource {
  /** Recorded in the lock beside the value, so the check asks the same source. */
  name: string;
  /** The process's start, or undefined when this source cannot tell (no /proc, no ps, no such pid). */
  of(pid: number): string | undefined;
}

const proc: StartTimeSource = {
  name: 'proc',
  of(pid) {
    try {
      const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, starttime field 22.
      const starttime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
      return starttime === undefined ? undefined : `${bootId}:${starttime}`;
    } catch {
      return undefined;
    }
  },
};

const ps: StartTimeSource = {
  name: 'ps',
  of(pid) {
    if (process.platform === 'win32') return undefined;
    try {
      const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5000,
      }).trim();
      return started === '' ? undefined : started;
    } catch {
      return undefined; // no such process, or a ps without lstart (BusyBox)
    }
  },
};

/**
 * The sources asked, in order; the first that answers is the one recorded. Exported for the tests,
 * which take /proc away to see the others at work as they would on macOS.
 */
export const startTimeSources: StartTimeSource[] = [proc, ps];

/** `<source>:<start>` of a process, from the first source that can tell; undefined when none can. */
export function processStart(pid: number): string | undefined {
  for (const source of startTimeSources) {
    const value = source.of(pid);
    if (value !== undefined) return `${source.name}:${value}`;
  }
  return undefined;
}

/**
 * The start of `pid` now, as the source that made `recorded` sees it (a lock written before the
 * sources were named holds the /proc value alone); undefined when that source cannot tell here.
 */
export function processStartLike(recorded: string, pid: number): string | undefined {
  const named = startTimeSources.find((source) => recorded.startsWith(`${source.name}:`));
  if (named !== undefined) {
    const value = named.of(pid);
    return value === undefined ? undefined : `${named.name}:${value}`;
  }
  return startTimeSources.includes(proc) ? proc.of(pid) : undefined;
}
