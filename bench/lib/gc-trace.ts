/**
 * V8's `--trace-gc-nvp` lines of a process, summed per isolate: the scavenges (count,
 * pauses, bytes allocated before them, survived, promoted) and the full collections.
 */
export interface IsolateGc {
  isolate: string;
  scavenges: number;
  scavengeMs: number;
  allocated: number;
  survived: number;
  promoted: number;
  fullGcs: number;
  fullGcMs: number;
}

export function gcByIsolate(trace: string): IsolateGc[] {
  const by = new Map<string, IsolateGc>();
  for (const line of trace.split('\n')) {
    const kind = / gc=(\w+) /.exec(line)?.[1];
    if (!kind) continue;
    const isolate = /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1] ?? '?';
    const num = (key: string) => Number(new RegExp(` ${key}=([0-9.]+)`).exec(line)?.[1] ?? 0);
    let g = by.get(isolate);
    if (!g) by.set(isolate, (g = { isolate, scavenges: 0, scavengeMs: 0, allocated: 0, survived: 0, promoted: 0, fullGcs: 0, fullGcMs: 0 }));
    if (kind === 's') {
      g.scavenges++;
      g.scavengeMs += num('pause');
      g.allocated += num('allocated');
      g.survived += num('new_space_survived');
      g.promoted += num('promoted');
    } else {
      g.fullGcs++;
      g.fullGcMs += num('pause');
    }
  }
  return [...by.values()].sort((a, b) => b.scavengeMs - a.scavengeMs);
}

export const gcLine = (g: IsolateGc): string =>
  `${g.scavenges} scavenges, ${g.scavengeMs.toFixed(0)} ms of pauses; ${(g.allocated / 1e6).toFixed(0)} MB allocated, ${(g.survived / 1e6).toFixed(0)} MB survived, ${(g.promoted / 1e6).toFixed(0)} MB promoted; ${g.fullGcs} full collections, ${g.fullGcMs.toFixed(0)} ms`;
