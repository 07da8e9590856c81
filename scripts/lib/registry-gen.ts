import { foldName, slugify, stripDiacritics } from '../../src/core/text.ts';

export interface GenCompany {
  slug: string;
  name: string;
  website: string;
  industries: string[];
  countries: string[];
  aliases: string[];
  subsidiaries: string[];
  trackedSince: string | null;
}

export const INDUSTRIES: string[] = [
  'Aerospace',
  'Airline',
  'Apparel',
  'Artificial Intelligence',
  'Automotive',
  'Beauty',
  'Biotechnology',
  'Cloud Data Platform',
  'Consulting',
  'Cybersecurity',
  'Electronics',
  'Enterprise Software',
  'Finance',
  'Financial Services',
  'Fintech',
  'FMCG',
  'Gaming',
  'Healthcare',
  'Hospitality',
  'Insurance',
  'Logistics',
  'Manufacturing & Industrial',
  'Media & Entertainment',
  'Oil & Gas',
  'Petcare',
  'Pharmaceutical',
  'Quick Service Restaurants',
  'Real Estate',
  'Retail',
  'Technology',
  'Telecommunications',
  'Travel',
];

export const COUNTRIES: { code: string; name: string; aliases: string[] }[] = [
  { code: 'au', name: 'Australia', aliases: ['AUS', 'Commonwealth of Australia'] },
  { code: 'br', name: 'Brazil', aliases: ['Brasil', 'BRA'] },
  { code: 'ca', name: 'Canada', aliases: ['CAN'] },
  { code: 'cn', name: 'China', aliases: ['PRC', "People's Republic of China", 'Mainland China'] },
  { code: 'dk', name: 'Denmark', aliases: ['Danmark'] },
  { code: 'fr', name: 'France', aliases: ['French Republic'] },
  { code: 'de', name: 'Germany', aliases: ['Deutschland', 'DEU'] },
  { code: 'in', name: 'India', aliases: ['Bharat', 'IND'] },
  { code: 'ie', name: 'Ireland', aliases: ['Republic of Ireland', 'Éire'] },
  { code: 'it', name: 'Italy', aliases: ['Italia'] },
  { code: 'jp', name: 'Japan', aliases: ['Nippon', 'JPN'] },
  { code: 'mx', name: 'Mexico', aliases: ['México', 'MEX'] },
  { code: 'nl', name: 'Netherlands', aliases: ['The Netherlands', 'Holland', 'NLD'] },
  { code: 'no', name: 'Norway', aliases: ['Norge', 'NOR'] },
  { code: 'sa', name: 'Saudi Arabia', aliases: ['KSA', 'Kingdom of Saudi Arabia'] },
  { code: 'sg', name: 'Singapore', aliases: ['SGP', 'Republic of Singapore'] },
  { code: 'kr', name: 'South Korea', aliases: ['Korea', 'Republic of Korea', 'ROK'] },
  { code: 'es', name: 'Spain', aliases: ['España', 'ESP'] },
  { code: 'se', name: 'Sweden', aliases: ['Sverige', 'SWE'] },
  { code: 'ch', name: 'Switzerland', aliases: ['Schweiz', 'Suisse', 'CHE'] },
  { code: 'ae', name: 'United Arab Emirates', aliases: ['UAE', 'Emirates'] },
  { code: 'gb', name: 'United Kingdom', aliases: ['UK', 'Great Britain', 'Britain', 'GBR'] },
  { code: 'us', name: 'United States', aliases: ['USA', 'US', 'America', 'United States of America'] },
];

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randInt(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

export function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

// Letters that NFKD does not decompose into base letter + mark (same table as src/core/text.ts).
// The generator folds and slugs exactly as the build does.
export { foldName, slugify, stripDiacritics };

const SYL_START = [
  'kes', 'vor', 'nor', 'bel', 'cal', 'dra', 'el', 'fen', 'gal', 'hal', 'is', 'jor', 'kal', 'lum', 'mar',
  'nev', 'ol', 'pra', 'quin', 'ros', 'sel', 'tor', 'ul', 'val', 'wes', 'xan', 'yor', 'zan', 'bra', 'cor',
  'del', 'ev', 'fal', 'gre', 'hel', 'ith', 'kor', 'lin', 'mor', 'nyr', 'orv', 'pel', 'ryn', 'sav', 'tal',
  'ven', 'wyn', 'zel', 'ast', 'bor', 'cen', 'dun', 'ember', 'far', 'gil', 'har', 'ir', 'jas', 'kel', 'lor',
  'mal', 'nim', 'os', 'pir', 'quar', 'ril', 'sol', 'tir', 'um', 'var', 'wil', 'yel', 'zor', 'bren', 'cas',
];
const SYL_MID = ['', '', '', 'a', 'e', 'i', 'o', 'an', 'en', 'ar', 'or', 'el', 'is', 'u'];
const SYL_END = [
  'trel', 'wind', 'dor', 'mont', 'vik', 'ra', 'lis', 'tan', 'ven', 'dell', 'gard', 'holm', 'rix', 'nar',
  'lon', 'ford', 'ton', 'mere', 'sta', 'vex', 'quil', 'thos', 'bury', 'rin', 'cia', 'gen', 'via', 'nex',
  'lia', 'ros', 'cade', 'mira', 'tek', 'lux', 'dine', 'wick', 'stead', 'vale', 'brook', 'crest', 'fjord',
  'haven', 'more', 'nova', 'pine', 'ridge', 'sund', 'thorn', 'ward', 'wyn', 'zia', 'kor', 'lyn', 'mark',
];

// Famous brands that the syllables could spell by chance; the registry must stay fictional.
const REAL_NAMES = new Set([
  'nokia', 'sony', 'tesla', 'intel', 'lenovo', 'zara', 'ikea', 'nike', 'adidas', 'audi', 'volvo', 'fiat',
  'ford', 'dell', 'bosch', 'merck', 'bayer', 'pfizer', 'novartis', 'roche', 'sanofi', 'total', 'shell',
  'uber', 'lyft', 'meta', 'amazon', 'apple', 'google', 'oracle', 'cisco', 'siemens', 'nestle', 'visa',
  'airbus', 'boeing', 'delta', 'corona', 'elvia', 'valeo', 'nordea', 'telia', 'coloplast', 'galderma',
  'marriott', 'hilton', 'kellogg', 'mars', 'nova', 'salesforce', 'samsung', 'huawei', 'tencent', 'alibaba',
  'aramco', 'emirates', 'equinor', 'vestas', 'maersk', 'ericsson', 'spotify', 'klarna', 'lego', 'rolex',
  'nestor', 'calvin', 'valero', 'elan', 'kalrin', 'hellofresh', 'moravia', 'tordor', 'mondelez', 'veneto',
  'solvay', 'ryanair', 'delonghi', 'alstom', 'orange', 'vivendi', 'kering', 'ferrari', 'enel', 'eni',
]);

const DIACRITIC_SWAPS: [string, string[]][] = [
  ['e', ['é', 'è', 'ë']],
  ['u', ['ü', 'ú']],
  ['o', ['ö', 'ø', 'ó']],
  ['a', ['å', 'á', 'ä']],
  ['n', ['ñ']],
  ['c', ['ç']],
  ['i', ['í', 'ï']],
];

const DESCRIPTORS: Record<string, string[]> = {
  Aerospace: ['Aerospace', 'Aero', 'Aviation', 'Orbital', 'Avionics', 'Space Systems'],
  Airline: ['Airways', 'Air', 'Airlines', 'Aviation'],
  Apparel: ['Apparel', 'Outfitters', 'Clothing', 'Textiles', 'Wear'],
  'Artificial Intelligence': ['AI', 'Intelligence', 'Cognition', 'Neural', 'Machine Labs'],
  Automotive: ['Motors', 'Automotive', 'Mobility', 'Auto Works'],
  Beauty: ['Beauty', 'Cosmetics', 'Skincare', 'Fragrances'],
  Biotechnology: ['Bio', 'Biosciences', 'Genomics', 'Therapeutics', 'Biolabs'],
  'Cloud Data Platform': ['Cloud', 'Data', 'Datacloud', 'Platforms'],
  Consulting: ['Consulting', 'Advisory', 'Partners', 'Associates'],
  Cybersecurity: ['Security', 'Cyber', 'Defense', 'Shield'],
  Electronics: ['Electronics', 'Devices', 'Circuits', 'Semiconductors'],
  'Enterprise Software': ['Software', 'Systems', 'Solutions', 'Apps'],
  Finance: ['Capital', 'Finance', 'Bank', 'Investments'],
  'Financial Services': ['Financial', 'Wealth', 'Trust', 'Asset Management'],
  Fintech: ['Pay', 'Fintech', 'Payments', 'Ledger'],
  FMCG: ['Foods', 'Brands', 'Consumer', 'Household'],
  Gaming: ['Games', 'Studios', 'Interactive', 'Play'],
  Healthcare: ['Health', 'Care', 'Medical', 'Clinics'],
  Hospitality: ['Hotels', 'Resorts', 'Hospitality', 'Inns'],
  Insurance: ['Insurance', 'Assurance', 'Mutual', 'Underwriters'],
  Logistics: ['Logistics', 'Freight', 'Shipping', 'Transport'],
  'Manufacturing & Industrial': ['Industries', 'Manufacturing', 'Works', 'Engineering', 'Machinery'],
  'Media & Entertainment': ['Media', 'Entertainment', 'Pictures', 'Broadcasting'],
  'Oil & Gas': ['Energy', 'Petroleum', 'Oil', 'Resources'],
  Petcare: ['Pet', 'Petcare', 'Animal Health', 'Pet Foods'],
  Pharmaceutical: ['Pharma', 'Pharmaceuticals', 'Labs', 'Medicines'],
  'Quick Service Restaurants': ['Burgers', 'Kitchen', 'Eats', 'Grill'],
  'Real Estate': ['Realty', 'Properties', 'Estates', 'Land'],
  Retail: ['Retail', 'Stores', 'Market', 'Traders'],
  Technology: ['Technologies', 'Tech', 'Labs', 'Digital'],
  Telecommunications: ['Telecom', 'Networks', 'Communications', 'Mobile'],
  Travel: ['Travel', 'Journeys', 'Tours', 'Voyages'],
};

const SUBSIDIARY_WORDS = [
  'Defense Systems', 'Research', 'Ventures', 'Labs', 'Services', 'International', 'Digital', 'Europe',
  'Americas', 'Asia Pacific', 'Solutions', 'Direct', 'Global', 'Studios', 'Capital', 'Logistics',
];

const LEGAL_SUFFIXES = ['Inc.', 'Ltd', 'LLC', 'GmbH', 'AG', 'SA', 'Group', 'Holdings', '& Co'];
const COMMA_SUFFIXES = new Set(['Inc.', 'Ltd', 'LLC']);

// Weights for secondary countries: bigger markets host more employers.
const COUNTRY_WEIGHTS: Record<string, number> = {
  gb: 8, de: 7, fr: 6, in: 6, ca: 5, jp: 5, au: 4, cn: 4, br: 4, nl: 4, es: 3, it: 3, sg: 3, ie: 3,
  ch: 3, se: 3, mx: 3, kr: 3, dk: 2, no: 2, ae: 2, sa: 2,
};

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function weightedPick(rng: Rng, entries: [string, number][]): string {
  let total = 0;
  for (const [, w] of entries) total += w;
  let r = rng() * total;
  for (const [k, w] of entries) {
    r -= w;
    if (r < 0) return k;
  }
  return (entries[entries.length - 1] as [string, number])[0];
}

interface Draft {
  name: string;
  roots: string[];
  base: string; // name without legal suffix
  descriptor: string | null;
  suffix: string | null;
  industries: string[];
}

export function generateRegistry(opts: { companies: number; seed: number; months?: string[] }): GenCompany[] {
  const rng = mulberry32(opts.seed ^ 0x5eed1234);
  const usedRoots = new Set<string>();
  const owners = new Map<string, number>();
  const slugs = new Set<string>();
  const websites = new Set<string>();

  // Three syllables make about 50,000 roots; once they run out (a long run of roots already
  // taken), roots get a fourth and fifth syllable, so any number of companies can be made.
  let taken = 0;
  const newRoot = (): string => {
    for (;;) {
      const long = taken > 1000;
      let root = pick(rng, SYL_START) + pick(rng, SYL_MID) + pick(rng, SYL_END);
      if (long) root += pick(rng, SYL_MID) + pick(rng, SYL_END);
      if (root.length < 4 || root.length > (long ? 16 : 11)) continue;
      if (rng() < 0.09) {
        const [plain, accents] = pick(rng, DIACRITIC_SWAPS);
        const at = root.indexOf(plain, 1);
        if (at > 0) root = root.slice(0, at) + pick(rng, accents) + root.slice(at + 1);
      }
      root = capitalize(root);
      const key = foldName(root);
      if (usedRoots.has(key) || REAL_NAMES.has(key)) {
        taken++;
        continue;
      }
      if (!long) taken = 0;
      usedRoots.add(key);
      return root;
    }
  };

  const drafts: Draft[] = [];
  while (drafts.length < opts.companies) {
    const industries = [INDUSTRIES[drafts.length % INDUSTRIES.length] as string];
    const extra = rng() < 0.45 ? (rng() < 0.3 ? 2 : 1) : 0;
    while (industries.length < 1 + extra) {
      const ind = pick(rng, INDUSTRIES);
      if (!industries.includes(ind)) industries.push(ind);
    }
    const primary = industries[0] as string;
    const root = newRoot();
    const roots = [root];
    let descriptor: string | null = null;
    let base: string;
    const shape = rng();
    if (shape < 0.1) {
      const second = newRoot();
      roots.push(second);
      base = `${root} & ${second}`;
    } else if (shape < 0.22) {
      base = root;
    } else {
      descriptor = pick(rng, DESCRIPTORS[primary] as string[]);
      base = `${root} ${descriptor}`;
    }
    let suffix: string | null = null;
    let name = base;
    if (rng() < 0.5 || base === root) {
      suffix = pick(rng, LEGAL_SUFFIXES);
      if (suffix === '& Co' && roots.length > 1) suffix = 'LLC';
      name = COMMA_SUFFIXES.has(suffix) && rng() < 0.5 ? `${base}, ${suffix}` : `${base} ${suffix}`;
    }
    const key = foldName(name);
    const slug = slugify(name);
    if (owners.has(key) || slugs.has(slug)) continue;
    owners.set(key, drafts.length);
    slugs.add(slug);
    drafts.push({ name, roots, base, descriptor, suffix, industries });
  }

  const months = opts.months ?? [];
  const otherCodes = COUNTRIES.map((c) => c.code).filter((c) => c !== 'us');
  const weighted: [string, number][] = otherCodes.map((c) => [c, COUNTRY_WEIGHTS[c] ?? 1]);

  const out: GenCompany[] = [];
  drafts.forEach((d, idx) => {
    const claim = (candidate: string, list: string[]): void => {
      const k = foldName(candidate);
      if (k.length < 2 || owners.has(k)) return;
      owners.set(k, idx);
      list.push(candidate);
    };
    const aliases: string[] = [];
    if (d.suffix) claim(d.base, aliases);
    const first = d.roots[0] as string;
    if (d.descriptor && rng() < 0.6) {
      claim(d.descriptor.includes(' ') ? `${first} ${d.descriptor.split(' ')[0]}` : first, aliases);
    } else if (d.roots.length > 1 && rng() < 0.5) {
      claim(`${first} and ${d.roots[1]}`, aliases);
    }
    const words = d.name.replace(/,/g, '').split(/\s+/).filter((w) => w !== '&' && !/^(Inc\.|Ltd|LLC|Co)$/.test(w));
    if (words.length >= 3 && rng() < 0.5) {
      claim(stripDiacritics(words.map((w) => w.charAt(0)).join('')).toUpperCase(), aliases);
    }
    const subsidiaries: string[] = [];
    if (rng() < 0.25) {
      const n = rng() < 0.3 ? 2 : 1;
      for (let i = 0; i < n; i++) claim(`${first} ${pick(rng, SUBSIDIARY_WORDS)}`, subsidiaries);
    }

    const countries: string[] = [];
    const withUs = rng() >= 0.15;
    if (withUs) countries.push('us');
    const r = rng();
    const wanted = withUs ? (r < 0.3 ? 1 : r < 0.55 ? 2 : r < 0.75 ? 3 : r < 0.88 ? 5 : 8) : r < 0.5 ? 1 : r < 0.8 ? 2 : 4;
    while (countries.length < wanted) {
      const c = weightedPick(rng, weighted);
      if (!countries.includes(c)) countries.push(c);
    }
    countries.sort((a, b) => (a === 'us' ? -1 : b === 'us' ? 1 : a.localeCompare(b)));

    let site = slugify(first);
    const word = d.descriptor ? slugify(d.descriptor.split(' ')[0] as string) : '';
    if (word.length <= 6) site += word;
    const tld = rng() < 0.8 ? '.example' : '.test';
    let website = site + tld;
    for (let n = 2; websites.has(website); n++) website = `${site}${n}${tld}`;
    websites.add(website);

    let trackedSince: string | null = null;
    if (months.length >= 3 && rng() < 0.07) {
      const lo = Math.max(1, Math.floor(months.length / 4));
      const hi = Math.max(lo, Math.floor((months.length * 3) / 4));
      trackedSince = months[randInt(rng, lo, hi)] ?? null;
    }

    out.push({
      slug: slugify(d.name),
      name: d.name,
      website,
      industries: d.industries,
      countries,
      aliases,
      subsidiaries,
      trackedSince,
    });
  });
  return out;
}
