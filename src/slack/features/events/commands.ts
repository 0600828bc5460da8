import { oneEventId } from '../../kit/command-arguments.ts';

/** The events room's `/events` words: one event, looked at for free. */
export const EVENT_COMMANDS = {
  show: {
    usage: 'show <event_id>',
    example: 'show 26855',
    summary: 'Event details',
    parse: oneEventId('show'),
  },
  fit: {
    usage: 'fit <event_id>',
    example: 'fit 26855',
    summary: 'Fit score card for your profile',
    parse: oneEventId('fit'),
  },
  brief: {
    usage: 'brief <event_id>',
    example: 'brief 26855',
    summary: 'A short summary of an event: dates, place, coverage counts, top categories',
    parse: oneEventId('brief'),
  },
};
