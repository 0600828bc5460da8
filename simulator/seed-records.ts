import type { SeededAgentFile } from './agent-files.ts';

/** The shapes of the simulator's seeded data: events, exhibitors, personnel and their fit scores. */

export type FitBand = 'recommended' | 'consider' | 'not_recommended';
export type SourceType = 'exhibitor' | 'social' | 'visitors';
export type PersonnelIdentity = 'exhibitor_employee' | 'visitor';

export interface FitScore {
  score: number;
  recommendation: FitBand;
  breakdown: { profile_match: number; matched_exhibitor_density: number; event_scale: number };
}

export interface SeededEvent {
  id: string;
  eventId: string;
  name: string;
  nickname: string | null;
  description: string;
  url: string;
  dateStart: string;
  dateEnd: string;
  venue: string;
  city: string;
  region: string | null;
  country: string;
  exhibitorCount: number;
  personnelCount: number;
  attendeeCount: number;
  hasVisitors: boolean;
  sponsorMatchStarred: 0 | 1;
  image: string | null;
  eventType: string;
  quality: string;
  topics: string[];
  fit: FitScore;
  /** true while recommendation data is "being prepared" (a few events, fixed). */
  recommendationProcessing: boolean;
  exhibitorIds: string[];
  personnelIds: string[];
}

export interface SeededExhibitor {
  id: string;
  companyName: string;
  domain: string;
  description: string;
  website: string;
  industry: string;
  employeeCount: number;
  companySize: string;
  country: string;
  logo: string;
  linkedinUrl: string;
  fundingRound: string | null;
  categories: string[];
  techStacks: string[];
  /** 0..1, drives isRecommended / rank / tier. */
  matchScore: number;
  /** internal ids of the events it exhibits at */
  eventIds: string[];
}

export interface SeededPersonnel {
  id: string;
  fullName: string;
  title: string;
  department: string;
  seniorityLevel: string;
  linkedinUrl: string;
  companyName: string | null;
  exhibitorId: string | null;
  sourceType: SourceType[];
  /** internal id of the event whose personnel list shows this record */
  eventId: string;
  attendance: { eventId: string; identity: PersonnelIdentity[] }[];
  /** false = no linked contact record: contact unlocks skip it as unlinked */
  linked: boolean;
  emailFindable: boolean;
  phoneFindable: boolean;
  email: string;
  phone: string;
}

export interface Seed {
  events: SeededEvent[];
  exhibitors: SeededExhibitor[];
  personnel: SeededPersonnel[];
  agentFiles: SeededAgentFile[];
}
