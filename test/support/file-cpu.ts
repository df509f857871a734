/**
 * The CPU a test file costs, as its worker process counts it: this process's own user and system
 * time, and on Linux that of the child processes it waited for (a spawned test's CLI, npm, a
 * browser), which /proc/self/stat keeps apart. setup.ts reads it before the file is imported and
 * after its last hook, and leaves the difference in the file's meta for the suite's budget
 * (suite-budget.ts), which shares of CPU make robust on a machine loaded by other work.
 */
import { readFileSync } from 'node:fs';

declare module '@vitest/runner' {
  interface TaskMeta {
    /** User and system milliseconds the file cost, its waited-for children included where the system says. */
    cpuMs?: number;
  }
}

/** Clock ticks a second of /proc's times: the USER_HZ every Linux reports them in. */
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU so far: this process's, and its reaped children's where the system keeps them apart. */
export function cpuMsNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000 + childrenCpuMs();
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
  // The command's name, in parentheses, may hold spaces: the fields are counted after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name, the state is field 3: cutime (16) and cstime (17) are the 14th and 15th here.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}
