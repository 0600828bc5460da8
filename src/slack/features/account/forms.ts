import * as z from 'zod';
import { checked, channelOf, fieldOf, type FormResult, type ViewValues } from '../../kit/modal-forms.ts';
import { type ResearchLookup, RESEARCH_LOOKUPS } from './research-views.ts';
import { asCompanyUrl } from '../../kit/command-arguments.ts';

/** "Research a company": what prefills it, and its submission read back (`research-views.ts`). */

export const ResearchTargetSchema = z.union([
  z.object({ channelId: z.string().min(1), threadTs: z.string().min(1) }),
  z.object({ privately: z.literal(true) }),
]);

export interface ResearchSubmission {
  /** `similar …` or `exhibitor …`. */
  text: string;
  /** Set when the answer goes privately to a channel the user picked. */
  channelId?: string;
}

export function readResearchForm(values: ViewValues, privately: boolean): FormResult<ResearchSubmission> {
  const errors: Record<string, string> = {};
  const company = fieldOf(values, 'company');
  const lookup = fieldOf(values, 'lookup') ?? 'similar';
  const channelId = privately ? channelOf(values, errors) : undefined;
  if (!company) errors.company = 'Give a company name or website.';
  if (!(lookup in RESEARCH_LOOKUPS)) errors.lookup = 'Choose what to look up.';
  // A website by the rule `similar` uses to tell a website from audience text.
  else if (lookup === 'exhibitor' && company && asCompanyUrl(company))
    errors.company = 'Exhibitor records are found by company name; give the name, not the website.';
  if (!company || Object.keys(errors).length > 0) return { ok: false, errors };
  const text = `${lookup as ResearchLookup} ${company.replace(/"/g, '')}`;
  const result = checked(text, 'company', values);
  return result.ok ? { ok: true, value: { text, ...(channelId ? { channelId } : {}) } } : result;
}

/**
 * What a message names, to prefill "Research a company": its first link (Slack writes links as
 * `<https://…|label>`), else its first line without mentions or formatting, at most 200 characters.
 */
export function companyHint(messageText: string): string {
  const link =
    /<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>/i.exec(messageText)?.[1] ?? /https?:\/\/\S+/i.exec(messageText)?.[0];
  if (link) return link.slice(0, 200);
  const firstLine =
    messageText
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? '';
  return firstLine
    .replace(/<[@#!][^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/(^|\s)[*_~`]+|[*_~`]+(?=\s|$)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}
