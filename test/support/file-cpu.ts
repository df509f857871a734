/**
 * The CPU a test file costs, as its worker process counts it: this process's own user and system
 * time, and on Linux that of the child processes it waited for (a spawned test's CLI, npm, a
 * browser), which /proc/self/stat keeps apart. setup.ts reads it before the file is imported and
 * after its last hook, and leaves the difference in the file's meta for the suite's budget
 * (suite-budget.ts), which shares of CPU make robust on a machine loaded by other work. A process
 * the files of a worker share (a browser) is waited for by none of them: what it spends for a file
 * is counted as that file's with countSharedCpu().
 */
import { readdirSync, readFileSync } from 'node:fs';

declare module '@vitest/runner' {
  interface TaskMeta {
    /** User and system milliseconds the file cost, its waited-for children included where the system says. */
    cpuMs?: number;
  }
}

/** Clock ticks a second of /proc's times: the USER_HZ every Linux reports them in. */
const TICKS_PER_SECOND = 100;

/** What processes shared by this process's files spent for them, counted by countSharedCpu(). */
let sharedMs = 0;

/**
 * Milliseconds of CPU so far: this process's, its reaped children's where the system keeps them
 * apart, and what shared processes spent for its files.
 */
export function cpuMsNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000 + childrenCpuMs() + sharedMs;
}

/** Counts CPU that a process shared by this process's files spent for the file running now. */
export function countSharedCpu(ms: number): void {
  sharedMs += Math.max(0, ms);
}

/**
 * The CPU of the child processes this one waited for, and of theirs that they waited for: cutime
 * and cstime of /proc/self/stat (fields 16 and 17), in milliseconds; 0 where there is no /proc.
 */
export function childrenCpuMs(): number {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return 0;
  }
  const fields = afterName(stat);
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

/**
 * The CPU so far of the processes of a process group (a browser's, whose leader is a child of this
 * process): their user and system time and their waited-for children's (utime to cstime, fields 14
 * to 17 of each /proc/<pid>/stat), in milliseconds; 0 where there is no /proc.
 */
export function processGroupCpuMs(group: number): number {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended since
    }
    const fields = afterName(stat);
    if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * The fields of a /proc/<pid>/stat after the command's name, which is in parentheses and may hold
 * spaces: the state (field 3) is the first, the group (5) the 3rd, utime to cstime (14 to 17) the
 * 12th to 15th.
 */
function afterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
