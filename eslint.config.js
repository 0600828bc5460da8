// Lint: ESLint with typescript-eslint's type-checked recommended rules, plus the project's structure.
// (Biome was the first choice, but the registry this project installs from lacks its macOS and
// Windows binaries, which makes `npm ci` refuse the lock file.)
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Imports a folder may not make: the domain depends on ports, never on adapters or SDKs. */
const ADAPTERS_AND_SDKS = [
  {
    group: ['**/store/**', '**/slack/**', '**/local/**', '**/simulator/**', '**/roots/**', '**/scheduling/**'],
    message: 'The domain reaches adapters only through src/domain/ports.',
  },
  { group: ['@slack/*', '@aws-sdk/*', 'undici'], message: 'The domain imports no SDK.' },
  {
    group: ['**/eis/**'],
    allowTypeImports: true,
    message: 'The domain reaches the service client only through its types and src/domain/ports.',
  },
];

/**
 * Another room is seen through its face (`index.ts`) alone; only the registries (commands/,
 * listeners/, worker/) address a room's commands, answers, listeners and jobs by name.
 */
const faceOnly = (regex) => ({ regex, message: 'Import another room through its face (its index.ts).' });
/** From a room: a sibling room's file other than its face. */
const ROOM_THROUGH_FACE = faceOnly('^\\.\\./(?!\\.)[\\w-]+/(?!index\\.ts$)[^/]+$');
/** From outside the rooms: a room's file other than its face. */
const ROOMS_THROUGH_FACES = faceOnly('/features/[\\w-]+/(?!index\\.ts$)[^/]+$');

/** Slack text is branded only where it is escaped or built (src/slack/views/mrkdwn.ts). */
const MRKDWN_CAST = {
  selector:
    "TSAsExpression[typeAnnotation.typeName.name='Mrkdwn'], TSTypeAssertion[typeAnnotation.typeName.name='Mrkdwn']",
  message: 'Make Slack text with mk`…`, escapeMrkdwn or a helper of src/slack/views/format.ts, not a cast.',
};
/** Text carried through the bot's own job payload is re-branded in the two jobs that carry it, nowhere else. */
const OWN_JOB_TEXT = {
  selector: "CallExpression[callee.name='ownJobText']",
  message: 'ownJobText is for the bot’s own text carried in a job payload (home and export jobs) only.',
};
/** A mrkdwn text object is written by the block constructors only (src/slack/views/blocks.ts). */
const MRKDWN_OBJECT = {
  selector: "Property[key.name='type'][value.value='mrkdwn']",
  message:
    'Use section(), context(), fieldsSection() or mrkdwn() of src/slack/views/blocks.ts: they take only safe text.',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'coverage/', 'test-results/', 'local/fake-slack/page/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Short, named steps: a function that outgrows a screen is split, not scrolled.
    files: ['src/**/*.ts', 'handlers/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // What ships imports nothing of the local stack or the simulator (they live outside src/).
    files: ['src/**/*.ts', 'handlers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/local/**', '**/simulator/**'], message: 'src/ and handlers/ are what ships.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ADAPTERS_AND_SDKS }] },
  },
  {
    // Platform code (env, secrets, log, metrics, tracing, errors) is what everything stands on.
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/domain/**', '**/slack/**', '**/store/**', '**/eis/**', '**/roots/**', '**/scheduling/**', '**/time/**'],
              message: 'Platform code imports nothing above it: its callers hand it what it needs.',
            },
            { group: ['**/local/**', '**/simulator/**'], message: 'src/ and handlers/ are what ships.' },
          ],
        },
      ],
    },
  },
  {
    // The kit and the views stand below the rooms; listeners/ and worker/ only register the rooms.
    files: ['src/slack/kit/**/*.ts', 'src/slack/views/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/listeners/**', '**/worker/**'],
              message: 'The kit and the views are what rooms share: they import no room and no registry.',
            },
            { group: ['**/local/**', '**/simulator/**'], message: 'src/ and handlers/ are what ships.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/slack/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/listeners/**', '**/worker/**'],
              message: 'A room imports the kit (src/slack/kit), not the registries that register it.',
            },
            ROOM_THROUGH_FACE,
            { group: ['**/local/**', '**/simulator/**'], message: 'src/ and handlers/ are what ships.' },
          ],
        },
      ],
    },
  },
  {
    // The composition roots and the schedulers see a room through its face too.
    files: ['src/roots/**/*.ts', 'src/scheduling/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ROOMS_THROUGH_FACES,
            { group: ['**/local/**', '**/simulator/**'], message: 'src/ and handlers/ are what ships.' },
          ],
        },
      ],
    },
  },
  {
    // The service client stands on the platform alone: the domain reaches it, never the other way.
    files: ['src/eis/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/domain/**', '**/store/**', '**/slack/**', '**/roots/**', '**/scheduling/**'],
              message: 'The service client imports nothing above it: src/platform holds what it shares.',
            },
            { group: ['**/local/**', '**/simulator/**'], message: 'src/ and handlers/ are what ships.' },
          ],
        },
      ],
    },
  },
  {
    // The store implements the domain's ports and knows nothing else of it.
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./domain/(?!ports)',
              message: 'The store imports from the domain only its ports (src/domain/ports).',
            },
            { group: ['**/slack/**', '@slack/*'], message: 'The store knows nothing of Slack.' },
          ],
        },
      ],
    },
  },
  {
    // Text is safe by construction (src/slack/views/mrkdwn.ts): only that module brands text as
    // mrkdwn, and only the block constructors write a mrkdwn text object.
    files: ['src/**/*.ts', 'handlers/**/*.ts'],
    ignores: ['src/slack/views/mrkdwn.ts', 'src/slack/views/blocks.ts', 'src/slack/views/limits.ts'],
    rules: { 'no-restricted-syntax': ['error', MRKDWN_CAST, MRKDWN_OBJECT, OWN_JOB_TEXT] },
  },
  {
    // The two jobs that carry the bot's own mrkdwn through a job payload (a Home notice, a clicked card).
    files: ['src/slack/features/home/jobs.ts', 'src/slack/features/lists/export-jobs.ts'],
    rules: { 'no-restricted-syntax': ['error', MRKDWN_CAST, MRKDWN_OBJECT] },
  },
  {
    files: ['src/slack/views/blocks.ts', 'src/slack/views/limits.ts'],
    rules: { 'no-restricted-syntax': ['error', MRKDWN_CAST] },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
