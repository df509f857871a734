/**
 * The CPU a test file costs, as its worker process counts it: this process's own user and system
 * time, and on Linux that of the child processes it waited for (a spawned test's CLI, npm, a
 * browser), which /proc/self/stat keeps apart. setup.ts reads it before the file is imported and
 * after its last hook, and leaves the difference in the file's meta for the suite's budget
 * (suite-budget.ts), which shares of CPU make robust on a machine loaded by other work. The
 * processes of a group the file started but did not wait for (a browser's helpers, which outlive
 * its first process and are reaped by init) are counted with countSharedCpu(), from what a
 * ProcessGroupWatch saw of them.
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

/** What processes no process of the file waited for spent for it, counted by countSharedCpu(). */
let sharedMs = 0;

/**
 * Milliseconds of CPU so far: this process's, its reaped children's where the system keeps them
 * apart, and what processes nothing waited for spent for its files.
 */
export function cpuMsNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000 + childrenCpuMs() + sharedMs;
}

/** Counts CPU that processes nothing waited for spent for the file running now. */
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
 * The processes of a process group (a browser's, whose leader is a child of this process), looked
 * at until none is left: each one's own CPU (utime and stime, fields 14 and 15 of its
 * /proc/<pid>/stat) as last seen, so that what one spent is known after it has ended, whoever
 * reaped it. Where there is no /proc, nothing is seen.
 */
export class ProcessGroupWatch {
  /** Each process's own CPU in clock ticks, as last seen. */
  private readonly ticks = new Map<number, number>();

  constructor(readonly group: number) {}

  /** Looks at the group's processes now; true while one of them still runs (a zombie has ended). */
  look(): boolean {
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
    } catch {
      return false;
    }
    let running = false;
    for (const pid of pids) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended since
      }
      const fields = afterName(stat);
      if (Number(fields[2]) !== this.group) continue;
      this.ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
      if (fields[0] !== 'Z') running = true;
    }
    return running;
  }

  /** What the group's processes spent, in milliseconds, each as last seen. */
  spentMs(): number {
    let ticks = 0;
    for (const each of this.ticks.values()) ticks += each;
    return (ticks * 1000) / TICKS_PER_SECOND;
  }
}

/**
 * The fields of a /proc/<pid>/stat after the command's name, which is in parentheses and may hold
 * spaces: the state (field 3) is the first, the group (5) the 3rd, utime to cstime (14 to 17) the
 * 12th to 15th.
 */
function afterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
