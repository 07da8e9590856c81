/**
 * Cloudflare's Rate Limiting binding, as Miniflare emulates it, counts in fixed windows of
 * the wall clock (`Math.floor(Date.now() / (period * 1000))`): a burst that crosses a
 * minute's edge starts counting again from zero, and the request past the limit is
 * answered. A test that sends one limit's worth of requests waits, when the minute is
 * about to end, for the next one to start.
 */
export async function awayFromMinuteEdge(margin = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** The statuses of `count` requests for the health of `url`, one after the other, from one client (as Cloudflare names it to the function). */
export async function burst(url: string, count: number, address: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/api/v1/health`, { headers: { 'cf-connecting-ip': address } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}
