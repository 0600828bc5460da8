/** The digests room's face: the digest poster, a user's zone, and a digest's filters and schedule in words (Home). */
export { digestPoster, slackUserTimeZone } from './jobs.ts';
export { describeFilters, describeSchedule } from './views.ts';
