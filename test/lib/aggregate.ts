import type { MonthAggregate } from '../../src/core/aggregate.ts';

/**
 * `agg` with its lists as arrays: an aggregate read back from a cache entry holds them as
 * views of the entry's integers (Int32Array), one parsed from a month file as arrays, and
 * equal aggregates compare equal this way.
 */
export function withArrays(agg: MonthAggregate): MonthAggregate {
  return { ...agg, contexts: agg.contexts.map((c) => ({ ...c, answers: [...c.answers], names: c.names.map(([f, s, l]) => [f, s, [...l]]) })) };
}
