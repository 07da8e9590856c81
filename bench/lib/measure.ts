/**
 * Runs a child process and measures it: wall time, peak RSS and CPU time through
 * GNU `/usr/bin/time -v` when it is there (the peak covers the worker threads, which
 * live in the process), plus a 200 ms sampler of the process's VmRSS per phase, and the
 * stderr lines with their arrival times. Without `/usr/bin/time`, the peak is the
 * sampled VmHWM (the kernel's high-water mark, so only its last ~200 ms can be missed).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface TimedLine {
  /** Seconds since the spawn. */
  t: number;
  text: string;
}

export interface Measured {
  code: number | null;
  signal: string | null;
  /** Seconds, spawn to exit. */
  wall: number;
  /** Peak RSS of the measured process, KiB. */
  peakRssKiB: number;
  /** How peakRssKiB was obtained. */
  rssSource: '/usr/bin/time -v' | 'VmHWM samples';
  userCpu: number | null;
  sysCpu: number | null;
  lines: TimedLine[];
  stdout: string;
  /** Phase (as named by `phaseOf`) -> highest sampled VmRSS in it, KiB. */
  phasePeaks: Map<string, number>;
  killed: boolean;
}

export interface MeasureOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Names the phase a stderr line starts, or returns null. */
  phaseOf?: (line: string) => string | null;
  firstPhase?: string;
  /** Each stderr line as it arrives; call `kill` to stop the child (its process group). */
  onLine?: (line: TimedLine, kill: (why: string) => void) => void;
}

const TIME = '/usr/bin/time';

/** Process groups of the children still running, so that an interrupted bench can stop them. */
export const runningGroups = new Set<number>();

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function exeOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/**
 * The process to sample under `pid`: `pid`, or (`under`) its first child (the command under
 * /usr/bin/time); then, while it has one, its child running the same program, not another
 * program it runs (esbuild).
 */
function measuredOf(pid: number, under: boolean): number | null {
  let target = under ? (childrenOf(pid)[0] ?? null) : pid;
  const exe = target === null ? null : exeOf(target);
  while (target !== null && exe !== null) {
    const next = childrenOf(target).find((c) => exeOf(c) === exe);
    if (next === undefined) break;
    target = next;
  }
  return target;
}

export function measure(cmd: string, args: string[], opts: MeasureOptions = {}): Promise<Measured> {
  const useTime = existsSync(TIME);
  const timeFile = join(tmpdir(), `evi-bench-time-${process.pid}-${Date.now()}.txt`);
  const t0 = performance.now();
  const child = spawn(useTime ? TIME : cmd, useTime ? ['-v', '-o', timeFile, cmd, ...args] : args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid) runningGroups.add(child.pid);
  const lines: TimedLine[] = [];
  const phasePeaks = new Map<string, number>();
  let phase = opts.firstPhase ?? 'start';
  let stdout = '';
  let killed = false;
  let target: number | null = null;
  let hwm = 0;
  const kill = (why: string) => {
    if (killed) return;
    killed = true;
    lines.push({ t: (performance.now() - t0) / 1000, text: `[bench] stopping the child: ${why}` });
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const sample = () => {
    // Found again at each sample: the build's launcher starts the build a moment after it starts.
    if (child.pid) target = measuredOf(child.pid, useTime) ?? target;
    if (target === null) return;
    const rss = statusKiB(target, 'VmRSS');
    if (rss !== null) phasePeaks.set(phase, Math.max(phasePeaks.get(phase) ?? 0, rss));
    hwm = Math.max(hwm, statusKiB(target, 'VmHWM') ?? 0);
  };
  const timer = setInterval(sample, 200);
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  const rl = createInterface({ input: child.stderr! });
  rl.on('line', (text) => {
    const line = { t: (performance.now() - t0) / 1000, text };
    const p = opts.phaseOf?.(text);
    if (p) {
      sample();
      phase = p;
    }
    lines.push(line);
    opts.onLine?.(line, kill);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      runningGroups.delete(child.pid!);
      clearInterval(timer);
      const wall = (performance.now() - t0) / 1000;
      let peakRssKiB = hwm;
      let userCpu: number | null = null;
      let sysCpu: number | null = null;
      if (useTime && existsSync(timeFile)) {
        const txt = readFileSync(timeFile, 'utf8');
        rmSync(timeFile, { force: true });
        const num = (re: RegExp) => {
          const m = re.exec(txt);
          return m ? Number(m[1]) : null;
        };
        peakRssKiB = num(/Maximum resident set size \(kbytes\): (\d+)/) ?? hwm;
        userCpu = num(/User time \(seconds\): ([\d.]+)/);
        sysCpu = num(/System time \(seconds\): ([\d.]+)/);
        const exit = num(/Exit status: (\d+)/);
        if (exit !== null && code === 0) code = exit;
      }
      resolve({ code, signal, wall, peakRssKiB, rssSource: useTime ? '/usr/bin/time -v' : 'VmHWM samples', userCpu, sysCpu, lines, stdout, phasePeaks, killed });
    });
  });
}
