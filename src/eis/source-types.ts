/**
 * The personnel lists' source types. Apart from `personnel.ts` (whose schemas are built at import) so
 * the Slack function can name them without loading the service client.
 */
export const SOURCE_TYPES = ['exhibitor', 'social', 'visitors'] as const;
