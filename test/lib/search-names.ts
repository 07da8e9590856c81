/**
 * Fictional employers named the way real ones are, for the word-level query kinds
 * of the search quality bar (a word left out, an abbreviation, an acronym): a
 * distinctive word (place-name parts, so many names share one), often a descriptor
 * (`International`, `Atlantic`), an industry word (`Laboratories`, `Retail`),
 * sometimes a legal form; now and then two distinctive words joined by `&`, a
 * `Saint`, or an abbreviation written in the name itself (`Stanmore First Sys`).
 * Aliases: the name without its legal form, sometimes its acronym. Deterministic
 * for a size and seed. Shared by the quality test and `bench/search.ts`.
 */
import { mulberry32, pick, slugify, type Rng } from '../../scripts/lib/registry-gen.ts';
import type { RegistryCompany } from './search-queries.ts';

const FIRST = [
  'Ash', 'Birch', 'Black', 'Bright', 'Brook', 'Cedar', 'Clear', 'Cold', 'Crest', 'Dun', 'East', 'Elm', 'Fair', 'Fox',
  'Glen', 'Green', 'Hart', 'High', 'Holly', 'King', 'Lake', 'Lang', 'Lark', 'Linden', 'Mar', 'Mill', 'North', 'Oak',
  'Pine', 'Pres', 'Red', 'Rich', 'Rock', 'Rose', 'Silver', 'South', 'Stan', 'Stone', 'Sun', 'Thorn', 'West', 'Wex',
  'White', 'Wil', 'Win', 'Wood', 'Kea', 'Dex', 'Jas', 'Brad', 'Chester', 'Hol', 'Kirk', 'Lyn', 'Mel', 'New', 'Pem',
];
const SECOND = [
  'bridge', 'brook', 'bury', 'by', 'cott', 'dale', 'den', 'field', 'ford', 'gate', 'ham', 'hill', 'hurst', 'land',
  'ley', 'mere', 'mont', 'more', 'port', 'ridge', 'stead', 'stone', 'ton', 'vale', 'well', 'wick', 'wood', 'worth',
  'ting', 'ter', 'per', 'shaw', 'combe', 'marsh', 'haven',
];
const DESCRIPTORS = [
  'International', 'Global', 'Atlantic', 'Pacific', 'General', 'National', 'United', 'American', 'Continental',
  'Northern', 'Southern', 'First', 'Royal', 'Standard', 'Consolidated', 'Allied', 'Premier', 'Metropolitan', 'Mountain',
];
/** The industry words of the names. */
export const INDUSTRY_WORDS = [
  'Laboratories', 'Services', 'Pharmaceuticals', 'Retail', 'Energy', 'Motors', 'Systems', 'Solutions', 'Technologies',
  'Manufacturing', 'Management', 'Insurance', 'Entertainment', 'Enterprises', 'Mining', 'Foods', 'Logistics', 'Media',
  'Capital', 'Construction', 'Airlines', 'Brothers', 'Textiles', 'Shipping', 'Engineering', 'Software',
];
const LEGAL = ['Inc.', 'Ltd', 'LLC', 'PLC', 'Corp.', 'Corporation', 'Co.', 'Company', 'GmbH', 'S.A.', 'AG', 'Group', 'Limited', 'Incorporated'];
/** Industry and descriptor words sometimes written abbreviated in the registry itself. */
const WRITTEN_SHORT: Record<string, string[]> = {
  International: ['Intl', "Int'l"], National: ['Natl'], Mountain: ['Mtn'], Laboratories: ['Labs'], Pharmaceuticals: ['Pharma'],
  Manufacturing: ['Mfg'], Services: ['Svcs'], Systems: ['Sys'], Solutions: ['Solns'], Management: ['Mgmt'], Brothers: ['Bros'],
  Technologies: ['Tech'], Insurance: ['Ins'],
};

function word(rng: Rng): string {
  return pick(rng, FIRST) + pick(rng, SECOND);
}

/**
 * `companies` fictional employers (see the module comment).
 * @example generateNamedRegistry({ companies: 500, seed: 3 })[0] // { slug: '…', name: 'Stanmore First Systems Ltd', … }
 */
export function generateNamedRegistry(opts: { companies: number; seed: number }): RegistryCompany[] {
  const rng = mulberry32(opts.seed ^ 0x6e616d65);
  const slugs = new Set<string>();
  const websites = new Set<string>();
  const out: RegistryCompany[] = [];
  while (out.length < opts.companies) {
    const words: string[] = [];
    if (rng() < 0.05) words.push('Saint');
    words.push(word(rng));
    if (rng() < 0.07) words.push('&', word(rng));
    if (rng() < 0.55) words.push(pick(rng, DESCRIPTORS));
    words.push(pick(rng, INDUSTRY_WORDS));
    if (rng() < 0.08) {
      const at = words.findIndex((w) => WRITTEN_SHORT[w]);
      if (at >= 0) words[at] = pick(rng, WRITTEN_SHORT[words[at] as string] as string[]);
    }
    const base = words.join(' ');
    const legal = rng() < 0.6 ? pick(rng, LEGAL) : null;
    const name = legal ? `${base}${rng() < 0.2 ? ',' : ''} ${legal}` : base;
    // a name or alias belongs to one company (slugs stand for the folded text)
    const slug = slugify(name);
    if (slugs.has(slug)) continue;
    slugs.add(slug);
    const aliases: string[] = [];
    const claim = (alias: string): void => {
      if (slugs.has(slugify(alias))) return;
      slugs.add(slugify(alias));
      aliases.push(alias);
    };
    if (legal && rng() < 0.5) claim(base);
    const initials = words.filter((w) => w !== '&').map((w) => w.charAt(0)).join('');
    if (initials.length >= 3 && rng() < 0.15) claim(initials.toUpperCase());
    let website = `${slugify(words.filter((w) => w !== '&').slice(0, 2).join(''))}.example`;
    for (let n = 2; websites.has(website); n++) website = website.replace(/\d*\.example$/, `${n}.example`);
    websites.add(website);
    out.push({ slug, name, website, aliases });
  }
  return out;
}
