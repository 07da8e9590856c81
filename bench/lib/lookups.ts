/**
 * The country and industry lookups a month is parsed with, read from a data folder's
 * countries.csv and industries.csv as the build reads them (readTable, buildLookups); throws
 * the folder's DataError when they have problems. For the benchmarks that parse months alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTable } from '../../src/build/read-csv.ts';
import type { Lookups } from '../../src/core/aggregate.ts';
import { IssueList } from '../../src/core/data-error.ts';
import { buildLookups } from '../../src/core/registry.ts';
import { COUNTRY_COLUMNS, INDUSTRY_COLUMNS } from '../../src/core/schemas/rows.ts';

export async function readLookups(dataDir: string): Promise<Lookups> {
  const issues = new IssueList();
  const table = async (name: string, columns: readonly string[]) => ({
    file: name,
    header: [...columns],
    rows: await readTable(name, readFileSync(join(dataDir, name)), columns, issues),
  });
  const base = buildLookups({ countries: await table('countries.csv', COUNTRY_COLUMNS), industries: await table('industries.csv', INDUSTRY_COLUMNS) }, issues);
  issues.throwIfAny();
  return { countries: base.countries, industries: base.industries };
}
