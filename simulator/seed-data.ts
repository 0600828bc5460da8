/** Word lists the seed generator draws from. */
export const PLACES = [
  { city: 'Las Vegas', region: 'Nevada', country: 'United States', venue: 'Las Vegas Convention Center' },
  { city: 'New York', region: 'NY', country: 'United States', venue: 'Javits Center' },
  { city: 'Chicago', region: 'Illinois', country: 'United States', venue: 'McCormick Place' },
  { city: 'Berlin', region: 'Berlin', country: 'Germany', venue: 'Messe Berlin' },
  { city: 'Munich', region: 'Bavaria', country: 'Germany', venue: 'Messe München' },
  { city: 'London', region: 'England', country: 'United Kingdom', venue: 'ExCeL London' },
  { city: 'Paris', region: 'Île-de-France', country: 'France', venue: 'Paris Expo Porte de Versailles' },
  { city: 'Tokyo', region: 'Tokyo', country: 'Japan', venue: 'Tokyo Big Sight' },
  { city: 'Singapore', region: null, country: 'Singapore', venue: 'Marina Bay Sands Expo' },
  { city: 'Dubai', region: 'Dubai', country: 'United Arab Emirates', venue: 'Dubai World Trade Centre' },
  { city: 'São Paulo', region: 'São Paulo', country: 'Brazil', venue: 'Expo Center Norte' },
  { city: 'Toronto', region: 'Ontario', country: 'Canada', venue: 'Enercare Centre' },
  { city: 'Barcelona', region: 'Catalonia', country: 'Spain', venue: 'Fira Gran Via' },
  { city: 'Amsterdam', region: 'North Holland', country: 'Netherlands', venue: 'RAI Amsterdam' },
  { city: 'Sydney', region: 'New South Wales', country: 'Australia', venue: 'ICC Sydney' },
] as const;

export const TOPICS = [
  'Retail Technology',
  'Logistics',
  'Cloud Infrastructure',
  'Healthcare IT',
  'Cybersecurity',
  'Food Processing',
  'Automotive Aftermarket',
  'Renewable Energy',
  'Marketing Automation',
  'Packaging',
  'Fintech',
  'Industrial Automation',
  'Smart Buildings',
  'Travel Tech',
  'Data & AI',
  'Medical Devices',
] as const;

/**
 * What a topic's shows are about beyond their name, written into their description, so a seller's word
 * finds them: `payments` finds the Fintech and Retail Technology shows (issue 26), `dentists` the
 * Medical Devices shows, `hospitals` the health ones (issue 36). Counts are unchanged.
 */
export const TOPIC_SUBJECTS: Readonly<Partial<Record<string, string>>> = {
  Fintech: 'payments, banking and lending',
  'Retail Technology': 'payments and point of sale',
  'Healthcare IT': 'software for hospitals, clinics and dental practices',
  'Medical Devices': 'devices for hospitals, clinics and dentists',
  Logistics: 'freight, warehousing and supply chain software',
  'Marketing Automation': 'email, CRM and B2B marketing software',
  Cybersecurity: 'security software for IT and risk teams',
};

export const EVENT_KINDS = ['Expo', 'Summit', 'Conference', 'World', 'Show', 'Forum'] as const;
export const EVENT_TYPES = ['Trade Show', 'Conference', 'Exhibition'] as const;
export const QUALITIES = ['high', 'medium', 'low'] as const;

export const COMPANY_PREFIXES = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Tyrell',
  'Cyberdyne',
  'Wonka',
  'Gringotts',
  'Oscorp',
  'Aperture',
  'Monarch',
  'Nakatomi',
  'Massive',
  'Pied Piper',
  'Dunder',
  'Sterling',
  'Prestige',
  'Blue Sun',
  'Virtucon',
  'Zorg',
  'Octan',
  'Ajax',
  'Kiwi',
  'Northwind',
  'Contoso',
] as const;

export const COMPANY_SUFFIXES = [
  'Analytics',
  'Logistics',
  'Systems',
  'Robotics',
  'Labs',
  'Foods',
  'Energy',
  'Health',
  'Payments',
  'Packaging',
  'Software',
  'Security',
  'Mobility',
  'Retail',
  'Media',
] as const;

export const INDUSTRIES = [
  'Software',
  'Logistics',
  'Manufacturing',
  'Healthcare',
  'Financial Services',
  'Retail',
  'Energy',
  'Food & Beverage',
  'Marketing',
  'Security',
] as const;

export const CATEGORIES = [
  'Technology',
  'SaaS',
  'Hardware',
  'Services',
  'Consumer',
  'B2B',
  'Sustainability',
] as const;
export const TECH_STACKS = [
  'AWS',
  'Salesforce',
  'HubSpot',
  'Shopify',
  'SAP',
  'Snowflake',
  'Stripe',
  'Zendesk',
] as const;
export const FUNDING_ROUNDS = ['Seed', 'Series A', 'Series B', 'Series C', 'Public', null] as const;
export const COMPANY_SIZES = [
  { label: '1-10', min: 1, max: 10 },
  { label: '11-50', min: 11, max: 50 },
  { label: '51-200', min: 51, max: 200 },
  { label: '201-1000', min: 201, max: 1000 },
  { label: '1001-5000', min: 1001, max: 5000 },
  { label: '5000+', min: 5001, max: 40000 },
] as const;

export const FIRST_NAMES = [
  'Ada',
  'Ben',
  'Chloe',
  'Diego',
  'Elena',
  'Farah',
  'George',
  'Hana',
  'Ivan',
  'Jonas',
  'Kemi',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Priya',
  'Quinn',
  'Rafael',
  'Sofia',
  'Tariq',
  'Uma',
  'Victor',
  'Wen',
  'Yara',
  'Zoe',
] as const;

export const LAST_NAMES = [
  'Adams',
  'Brown',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ito',
  'Johnson',
  'Kowalski',
  'Lopez',
  'Müller',
  'Nguyen',
  'Okafor',
  'Patel',
  'Rossi',
  'Silva',
  'Tanaka',
  'Walker',
] as const;

export const DEPARTMENTS = [
  'Sales',
  'Marketing',
  'Engineering',
  'Operations',
  'Finance',
  'Product',
  'Executive',
] as const;
export const SENIORITY = ['C-Level', 'VP', 'Director', 'Manager', 'Senior', 'Entry'] as const;
export const ROLES = ['Head of', 'Director of', 'Manager,', 'Lead,', 'VP'] as const;
