/**
 * The changelog body (`/api/v1/changelog`) and the Atom feed (`/feed.xml`, RFC 4287)
 * from the release ledger: one release per month, newest first, with the corrections
 * made to it. Pure.
 */
import type { Ledger } from '../schemas/ledger.ts';
import type { ChangelogResponse } from '../schemas/responses.ts';
import type { SiteUrls } from '../urls.ts';

export interface ChangelogInput {
  ledger: Ledger;
  /** Slugs ranked in each month (any leaderboard), for the added and removed lists. */
  ranked: Map<string, Set<string>>;
  month: string;
  lastUpdated: string;
  urls: SiteUrls;
}

export function changelogBody({ ledger, ranked, month, lastUpdated, urls }: ChangelogInput): ChangelogResponse {
  const months = ledger.months.filter((e) => ranked.has(e.month));
  const releases = months.map((e, i) => {
    const now = ranked.get(e.month)!;
    const before = i > 0 ? ranked.get(months[i - 1]!.month)! : null;
    const diff = (a: Set<string>, b: Set<string> | null) => (b ? [...a].filter((s) => !b.has(s)).sort() : []);
    return {
      month: e.month,
      published: e.published,
      methodologyVersion: e.methodologyVersion,
      leaderboards: e.leaderboards,
      rankedCompanies: e.rankedCompanies,
      companiesAdded: diff(now, before),
      companiesRemoved: before ? diff(before, now) : [],
      corrections: e.corrections.map((c) => ({ date: c.date, reason: c.reason, changedLeaderboards: c.changedBoards })),
    };
  });
  return { month, lastUpdated, feed: urls.feed, releases: releases.reverse() };
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The Atom feed: an entry per monthly release and per correction, newest first. */
export function atomFeed(body: ChangelogResponse, name: string, urls: SiteUrls): string {
  type Item = { id: string; title: string; updated: string; link: string; summary: string };
  const items: Item[] = [];
  for (const r of body.releases) {
    items.push({
      id: `${urls.origin}/api/v1/months/${r.month}/rankings#release`,
      title: `${name}: ${r.month} released`,
      updated: r.published,
      link: urls.api(`/months/${r.month}/rankings`),
      summary: `${r.leaderboards} leaderboards, ${r.rankedCompanies} ranked companies (${r.companiesAdded.length} new, ${r.companiesRemoved.length} gone); methodology ${r.methodologyVersion}.`,
    });
    for (const c of r.corrections)
      items.push({
        id: `${urls.origin}/api/v1/changelog#correction-${r.month}-${c.date}`,
        title: `${name}: correction to ${r.month}`,
        updated: c.date,
        link: urls.api('/changelog'),
        summary: `${c.reason} (${c.changedLeaderboards.length} leaderboards changed).`,
      });
  }
  items.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.id < b.id ? -1 : 1));
  const updated = items[0]?.updated ?? body.lastUpdated;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${xml(name)}: releases and corrections</title>`,
    `  <id>${xml(urls.feed)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(urls.feed)}"/>`,
    `  <link rel="alternate" type="application/json" href="${xml(urls.api('/changelog'))}"/>`,
    `  <updated>${updated}T00:00:00Z</updated>`,
    `  <author><name>${xml(name)}</name></author>`,
    ...items.flatMap((i) => [
      '  <entry>',
      `    <id>${xml(i.id)}</id>`,
      `    <title>${xml(i.title)}</title>`,
      `    <updated>${i.updated}T00:00:00Z</updated>`,
      `    <link rel="alternate" href="${xml(i.link)}"/>`,
      `    <summary>${xml(i.summary)}</summary>`,
      '  </entry>',
    ]),
    '</feed>',
    '',
  ].join('\n');
}
