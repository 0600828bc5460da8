import * as z from 'zod';

/**
 * The ids users and buttons pass around, one pattern each. An event id is what the service accepts
 * (1–100 letters, digits, `-`, `_`; the spec states it for fit-score); a personnel id is numeric.
 */
export const EVENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
export const PERSONNEL_ID_PATTERN = /^\d{1,20}$/;

export const EventIdSchema = z.string().regex(EVENT_ID_PATTERN);
export const PersonnelIdSchema = z.string().regex(PERSONNEL_ID_PATTERN);

/** What a person types as an event id: the service's pattern, starting with a letter or digit and holding a digit (so `abc`, `-1` and `help` are not taken for one). */
export const isTypedEventId = (id: string): boolean =>
  EVENT_ID_PATTERN.test(id) && /^[A-Za-z0-9]/.test(id) && /\d/.test(id);
