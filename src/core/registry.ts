/**
 * The registry of data-and-rules §1.1–§1.3: countries, industries and companies,
 * validated together, with the lookup tables the rest of the build resolves through.
 */
import type { z } from 'zod';
import { didYouMean, IssueList, type DataIssue } from './data-error.ts';
import { CompanyRowSchema, CountryRowSchema, IndustryRowSchema, preview, type CompanyRow, type CountryRow, type IndustryRow } from './schemas/rows.ts';
import { compareKeys, compareNames, foldKey, foldName, slugify } from './text.ts';

export interface Country {
  code: string;
  name: string;
  aliases: string[];
}

export interface Industry {
  name: string;
  slug: string;
}

export interface Company {
  /** Position in {@link Registry.companies}, which is sorted by slug. */
  idx: number;
  slug: string;
  name: string;
  website: string;
  industries: string[];
  countries: string[];
  aliases: string[];
  trackedSince: string | null;
  /** Position in name order (collator, then slug): ties of §3 compare this integer. */
  nameOrder: number;
}

export interface Registry {
  countries: Country[];
  industries: Industry[];
  companies: Company[];
  countryByKey: Map<string, Country>;
  industryByKey: Map<string, Industry>;
  companyBySlug: Map<string, Company>;
  /** foldName(name or alias) -> company */
  companyByName: Map<string, Company>;
}

/** A parsed CSV record with the line it started on (1-based, header = line 1). */
export interface Located<T> {
  line: number;
  record: Record<string, string>;
  value?: T;
}

export interface RegistryFiles {
  countries: { file: string; header: string[]; rows: Located<unknown>[] };
  industries: { file: string; header: string[]; rows: Located<unknown>[] };
  companies: { file: string; header: string[]; rows: Located<unknown>[] };
}

/** Validate one record with its schema, adding located issues; returns the value or undefined. */
export function parseRecord<S extends z.ZodType>(
  schema: S,
  file: string,
  header: string[],
  row: Located<unknown>,
  issues: IssueList,
): z.infer<S> | undefined {
  const r = schema.safeParse(row.record);
  if (r.success) return r.data;
  for (const iss of r.error.issues) {
    const name = String(iss.path[0] ?? '');
    const col = header.indexOf(name);
    const value = row.record[name];
    issues.add({
      file,
      line: row.line,
      column: col >= 0 ? col + 1 : undefined,
      columnName: name || undefined,
      message: `${iss.message}${value !== undefined ? ` (got "${preview(String(value))}")` : ''}`,
    });
  }
  return undefined;
}

function at(file: string, header: string[], line: number, columnName: string, message: string): DataIssue {
  const i = header.indexOf(columnName);
  return { file, line, column: i >= 0 ? i + 1 : undefined, columnName, message };
}

/** The registry's countries and industries with their lookup tables: all that a month file is resolved through. */
export type RegistryLookups = Pick<Registry, 'countries' | 'industries' | 'countryByKey' | 'industryByKey'>;

/**
 * The countries and industries validated, each problem to `issues`: the first part of
 * {@link buildRegistry}, on its own so that a build can start parsing month files before
 * companies.csv is read and cross-checked.
 */
export function buildLookups(files: Pick<RegistryFiles, 'countries' | 'industries'>, issues: IssueList): RegistryLookups {
  const countries: Country[] = [];
  const countryByKey = new Map<string, Country>();
  const cf = files.countries;
  for (const row of cf.rows) {
    const v = parseRecord(CountryRowSchema, cf.file, cf.header, row, issues) as CountryRow | undefined;
    if (!v) continue;
    const c: Country = { code: v.code, name: v.name, aliases: v.aliases };
    for (const [key, col] of [[v.code, 'code'], [v.name, 'name'], ...v.aliases.map((a) => [a, 'aliases'])] as [string, string][]) {
      const k = foldKey(key);
      const prev = countryByKey.get(k);
      if (prev && prev !== c) issues.add(at(cf.file, cf.header, row.line, col, `"${key}" already names country "${prev.name}"`));
      else countryByKey.set(k, c);
    }
    countries.push(c);
  }

  const industries: Industry[] = [];
  const industryByKey = new Map<string, Industry>();
  const inf = files.industries;
  for (const row of inf.rows) {
    const v = parseRecord(IndustryRowSchema, inf.file, inf.header, row, issues) as IndustryRow | undefined;
    if (!v) continue;
    const ind: Industry = { name: v.name, slug: slugify(v.name) };
    for (const key of [ind.name, ind.slug]) {
      const prev = industryByKey.get(foldKey(key));
      if (prev && prev !== ind) issues.add(at(inf.file, inf.header, row.line, 'name', `"${key}" already names industry "${prev.name}"`));
      else industryByKey.set(foldKey(key), ind);
    }
    industries.push(ind);
  }
  return { countries, industries, countryByKey, industryByKey };
}

/**
 * Build and cross-check the registry; every problem goes to `issues` (those of the countries
 * and industries first). `lookups`: {@link buildLookups} of the same files, if made already.
 */
export function buildRegistry(files: RegistryFiles, issues: IssueList, lookups: RegistryLookups = buildLookups(files, issues)): Registry {
  const { countries, industries, countryByKey, industryByKey } = lookups;
  const countryCodes = countries.map((c) => c.code);
  const industryNames = industries.map((i) => i.name);
  const companies: Omit<Company, 'idx' | 'nameOrder'>[] = [];
  const slugLine = new Map<string, number>();
  const nameOwner = new Map<string, { name: string; line: number }>();
  const pf = files.companies;
  for (const row of pf.rows) {
    const v = parseRecord(CompanyRowSchema, pf.file, pf.header, row, issues) as CompanyRow | undefined;
    if (!v) continue;
    const slug = v.slug || slugify(v.name);
    let ok = true;
    if (!slug) {
      issues.add(at(pf.file, pf.header, row.line, 'name', `no slug can be derived from "${v.name}"; give one in the slug column`));
      ok = false;
    } else if (slugLine.has(slug)) {
      issues.add(at(pf.file, pf.header, row.line, v.slug ? 'slug' : 'name', `duplicate slug "${slug}" (first used on line ${slugLine.get(slug)})`));
      ok = false;
    } else slugLine.set(slug, row.line);
    const inds: string[] = [];
    for (const name of v.industries) {
      const ind = industryByKey.get(foldKey(name));
      if (ind) inds.push(ind.name);
      else {
        issues.add(at(pf.file, pf.header, row.line, 'industries', `unknown industry "${name}"${didYouMean(name, industryNames)}`));
        ok = false;
      }
    }
    const ctys: string[] = [];
    for (const code of v.countries) {
      const c = countryByKey.get(foldKey(code));
      if (c) ctys.push(c.code);
      else {
        issues.add(at(pf.file, pf.header, row.line, 'countries', `unknown country "${code}"${didYouMean(code, countryCodes)}`));
        ok = false;
      }
    }
    const own = new Set<string>();
    for (const [text, col] of [[v.name, 'name'], ...v.aliases.map((a) => [a, 'aliases'])] as [string, string][]) {
      const k = foldName(text);
      if (own.has(k)) continue;
      own.add(k);
      const prev = nameOwner.get(k);
      if (prev) {
        issues.add(
          at(pf.file, pf.header, row.line, col, col === 'name'
            ? `duplicate company name "${text}" (already used by "${prev.name}" on line ${prev.line})`
            : `alias "${text}" already belongs to "${prev.name}" (line ${prev.line}); an alias must have one owner`),
        );
        ok = false;
      } else nameOwner.set(k, { name: v.name, line: row.line });
    }
    if (!ok) continue;
    companies.push({
      slug,
      name: v.name,
      website: v.website.toLowerCase(),
      industries: [...new Set(inds)],
      countries: [...new Set(ctys)],
      aliases: v.aliases,
      trackedSince: v.tracked_since || null,
    });
  }

  companies.sort((a, b) => compareKeys(a.slug, b.slug));
  const full: Company[] = companies.map((c, idx) => ({ ...c, idx, nameOrder: 0 }));
  full
    .slice()
    .sort((a, b) => compareNames(a.name, b.name) || compareKeys(a.slug, b.slug))
    .forEach((c, i) => (c.nameOrder = i));
  const companyBySlug = new Map(full.map((c) => [c.slug, c]));
  const companyByName = new Map<string, Company>();
  for (const c of full) for (const n of [c.name, ...c.aliases]) companyByName.set(foldName(n), c);
  return { countries, industries, companies: full, countryByKey, industryByKey, companyBySlug, companyByName };
}
