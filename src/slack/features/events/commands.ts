import { oneEventId } from '../../kit/command-arguments.ts';
import type { AudienceDeclared } from '../../kit/command-types.ts';

/** The events room's `/events` words: one event, looked at for free. */
export const EVENT_COMMANDS = {
  show: {
    usage: 'show <event_id>',
    example: 'show 26855',
    summary: 'Event details',
    parse: oneEventId('show'),
    audience: 'anyone',
  },
  fit: {
    usage: 'fit <event_id>',
    example: 'fit 26855',
    summary: 'Fit score card for your profile',
    details:
      'The score (0–10) is the Event Intelligence service’s fit of the show against the company profile stored in ' +
      'your team’s Event Intelligence account (the account whose API key this workspace connected). That profile ' +
      'is set in the service’s web app, not in Slack; the bot cannot read it. Recommended is 7–10, Consider 4 to ' +
      'under 7, Not recommended under 4. The card words three factors for the show, each out of 10: profile match ' +
      '(how the show fits that profile), matched exhibitor density (how many of its exhibitors match that profile; ' +
      'exhibitors, not verified buyers) and event scale (its size by exhibitor count). Free: nothing is unlocked.',
    parse: oneEventId('fit'),
    audience: 'anyone',
  },
  brief: {
    usage: 'brief <event_id>',
    example: 'brief 26855',
    summary: 'A short summary of an event: dates, place, coverage counts, top categories',
    parse: oneEventId('brief'),
    audience: 'anyone',
  },
} satisfies AudienceDeclared;
