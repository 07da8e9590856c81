/**
 * The country and industry lookups a month is parsed with, read from a data folder's
 * countries.csv and industries.csv as the build reads them (readRegistryTable, buildLookups); throws
 * the folder's DataError when they have problems. For the benchmarks that parse months alone.
 */
import { readRegistryTable } from '../../src/pipeline/read/load-data.ts';
import type { Lookups } from '../../src/core/aggregate.ts';
import { IssueList } from '../../src/core/data-error.ts';
import { buildLookups } from '../../src/core/registry.ts';
import { COUNTRY_COLUMNS, INDUSTRY_COLUMNS } from '../../src/core/schemas/rows.ts';

export async function readLookups(dataDir: string): Promise<Lookups> {
  const issues = new IssueList();
  const show = (path: string) => path;
  const countries = await readRegistryTable(dataDir, 'countries.csv', COUNTRY_COLUMNS, show, issues);
  const industries = await readRegistryTable(dataDir, 'industries.csv', INDUSTRY_COLUMNS, show, issues);
  const base = buildLookups({ countries, industries }, issues);
  issues.throwIfAny();
  return { countries: base.countries, industries: base.industries };
}
