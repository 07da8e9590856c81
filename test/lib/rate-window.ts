/**
 * Cloudflare's Rate Limiting binding, as Miniflare emulates it, counts in fixed windows of
 * the wall clock (`Math.floor(Date.now() / (period * 1000))`): a burst that crosses a
 * minute's edge starts counting again from zero, and the request past the limit is
 * answered. A test sends its limit's worth of requests through `inOneWindow`, which runs the
 * burst again, from another client, when it crossed an edge.
 */
export async function inOneWindow<T>(burst: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    const result = await burst(attempt);
    if (Math.floor(Date.now() / 60_000) === minute) return result;
  }
}

/** The statuses of `count` answers of `send`, one request after the other. */
export async function statuses(count: number, send: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await send();
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

/** The statuses of `count` requests for the health of `url`, one after the other, from one client (as Cloudflare names it to the function). */
export function burst(url: string, count: number, address: string): Promise<number[]> {
  return statuses(count, () => fetch(`${url}/api/v1/health`, { headers: { 'cf-connecting-ip': address } }));
}
