/** What the view builders read: the month results and the site's facts (data-and-rules §3–§4). */
import type { Registry } from '../registry.ts';
import type { MonthResult } from '../score.ts';
import type { Dataset } from '../schemas/dataset.ts';

export interface SiteInput {
  registry: Registry;
  /** One result per dataset month, oldest first; the last carries board details. */
  results: MonthResult[];
  siteUrl: string;
  lastUpdated: string;
  themes: string[];
  researchModels: string[];
  /** License and citation of the data (data/dataset.json or the defaults). */
  dataset?: Dataset;
  /** month -> first publication date, from the release ledger. */
  released?: Record<string, string>;
  /** month -> the date of its latest correction, from the release ledger (corrected months only). */
  corrected?: Record<string, string>;
  /** The current month's state as the publish gate saw it (health reports it). */
  release?: { leaderboards: number; rankedCompanies: number; acceptedDrop?: string };
}
