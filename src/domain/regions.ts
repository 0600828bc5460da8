/**
 * The sales regions a seller plans by, as the countries each one holds: the one table `region:` is read
 * against (search, shows-for, the Search modal and the digest). The service knows countries only, so a
 * show is in a region when its `country` is in the region's list.
 *
 * Choices where people differ: North America is the United States and Canada (Mexico is in LATAM, as
 * sales teams split it); Türkiye and Egypt count in the Middle East, and Türkiye in Europe too; DACH and
 * the Nordics are also in Europe. Country names are the service's English short names.
 */
export const REGIONS = {
  Europe: [
    'Albania',
    'Andorra',
    'Austria',
    'Belgium',
    'Bosnia and Herzegovina',
    'Bulgaria',
    'Croatia',
    'Cyprus',
    'Czechia',
    'Denmark',
    'Estonia',
    'Finland',
    'France',
    'Germany',
    'Greece',
    'Hungary',
    'Iceland',
    'Ireland',
    'Italy',
    'Kosovo',
    'Latvia',
    'Liechtenstein',
    'Lithuania',
    'Luxembourg',
    'Malta',
    'Moldova',
    'Monaco',
    'Montenegro',
    'Netherlands',
    'North Macedonia',
    'Norway',
    'Poland',
    'Portugal',
    'Romania',
    'San Marino',
    'Serbia',
    'Slovakia',
    'Slovenia',
    'Spain',
    'Sweden',
    'Switzerland',
    'Türkiye',
    'Ukraine',
    'United Kingdom',
  ],
  DACH: ['Germany', 'Austria', 'Switzerland'],
  Nordics: ['Denmark', 'Finland', 'Iceland', 'Norway', 'Sweden'],
  'North America': ['United States', 'Canada'],
  LATAM: [
    'Argentina',
    'Bolivia',
    'Brazil',
    'Chile',
    'Colombia',
    'Costa Rica',
    'Dominican Republic',
    'Ecuador',
    'El Salvador',
    'Guatemala',
    'Honduras',
    'Mexico',
    'Nicaragua',
    'Panama',
    'Paraguay',
    'Peru',
    'Puerto Rico',
    'Uruguay',
    'Venezuela',
  ],
  APAC: [
    'Australia',
    'Bangladesh',
    'China',
    'Hong Kong',
    'India',
    'Indonesia',
    'Japan',
    'Macau',
    'Malaysia',
    'New Zealand',
    'Pakistan',
    'Philippines',
    'Singapore',
    'South Korea',
    'Sri Lanka',
    'Taiwan',
    'Thailand',
    'Vietnam',
  ],
  'Middle East': [
    'Bahrain',
    'Egypt',
    'Iraq',
    'Israel',
    'Jordan',
    'Kuwait',
    'Lebanon',
    'Oman',
    'Qatar',
    'Saudi Arabia',
    'Türkiye',
    'United Arab Emirates',
  ],
} as const satisfies Record<string, readonly string[]>;

export type Region = keyof typeof REGIONS;
export const REGION_NAMES = Object.keys(REGIONS) as Region[];

/** Other spellings of a region's name; each name is also read in any case, with `-` or `_` for spaces. */
const REGION_ALIASES: Record<string, Region> = {
  nordic: 'Nordics',
  'latin america': 'LATAM',
  'asia pacific': 'APAC',
};

/** Other spellings of the table's countries an event may carry. */
const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'United States',
  us: 'United States',
  'united states of america': 'United States',
  uk: 'United Kingdom',
  'great britain': 'United Kingdom',
  uae: 'United Arab Emirates',
  'czech republic': 'Czechia',
  turkey: 'Türkiye',
  'republic of korea': 'South Korea',
  korea: 'South Korea',
  'viet nam': 'Vietnam',
  holland: 'Netherlands',
  'the netherlands': 'Netherlands',
};

const plain = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/** `north-america`, `"North America"`, `dach` → the region; undefined for a name not in the table. */
export function readRegion(word: string): Region | undefined {
  const name = plain(word.replace(/"/g, ''));
  return REGION_NAMES.find((region) => plain(region) === name) ?? REGION_ALIASES[name];
}

/** Whether a show's country (as the service spells it, any case) is in the region. */
export function isInRegion(country: string | null | undefined, region: Region): boolean {
  if (!country) return false;
  const name = plain(country);
  const known = COUNTRY_ALIASES[name] ?? name;
  return REGIONS[region].some((member) => plain(member) === plain(known));
}
