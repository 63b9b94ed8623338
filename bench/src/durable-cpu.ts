import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** CPU milliseconds (user + system) of this process. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Clock ticks a second of /proc/<pid>/stat on Linux. */
const TICKS = 100;

/**
 * CPU milliseconds (user + system) the PostgreSQL backends serving the bench's database have used
 * so far, from /proc/<pid>/stat: the server runs on this machine. Undefined where /proc is not
 * there (not Linux) or the backends are not readable. A backend that exited (an idle pool client
 * closed) takes its CPU with it, so the figure is a floor.
 */
export async function backendCpuMs(pool: pg.Pool): Promise<number | undefined> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      // the fields after the command's closing parenthesis: state is the 1st, utime the 12th, stime the 13th
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  }
  return (ticks * 1000) / TICKS;
}
