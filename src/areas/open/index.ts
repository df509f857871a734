/**
 * `loopsctl open`: the account's pages in the Loops app, one command per place, so that help and
 * completion know the places. The records' pages take an id; the others are what the API cannot
 * change (the sending domain, webhook settings, API keys, forms, the team).
 */
import { command, group, type Spec } from '../../core/declare.js';
import type { IdList } from '../../core/id-lists.js';

interface Place {
  name: string;
  aliases?: string[];
  summary: string;
  /** The page's path in the app, and for a record's page the path its id follows. */
  path: string;
  record?: { what: string; completes?: IdList };
  example?: string;
}

export const PLACES: Place[] = [
  { name: 'home', summary: "The app's home page", path: '/' },
  { name: 'campaigns', summary: 'The campaigns, or one campaign', path: '/campaigns', record: { what: 'campaign' } },
  {
    name: 'transactional',
    summary: 'The transactional emails, or one of them',
    path: '/transactional',
    record: { what: 'transactional email', completes: 'transactional-emails' },
  },
  {
    name: 'workflows',
    aliases: ['workflow', 'loops'],
    summary: 'The workflows (loops), or one of them',
    path: '/workflows',
    record: { what: 'workflow', completes: 'workflows' },
  },
  { name: 'audience', summary: 'The contacts of the audience', path: '/audience' },
  { name: 'lists', summary: 'The mailing lists', path: '/settings?page=lists' },
  { name: 'forms', summary: 'The signup forms', path: '/forms' },
  { name: 'domain', summary: 'The sending domain and its DNS records', path: '/settings?page=domain' },
  { name: 'webhooks', summary: 'The webhook settings: the endpoint, its secret and events', path: '/settings?page=webhooks' },
  { name: 'api-keys', summary: 'The API keys: make, name and revoke them', path: '/settings?page=api' },
  { name: 'team', summary: 'The team settings: name, members and billing', path: '/settings?page=team' },
];

export const spec: Spec = group({
  name: 'open',
  summary: "Open the account's pages in the Loops app in the browser: records, and what the API cannot change",
  help: 'With no place, the app\'s home. The page opens in the browser ($BROWSER, else the system\'s); where no browser can be shown (stdout is not a terminal, or neither $BROWSER nor a display) its address is printed instead, and --json prints {"url"} without opening it.',
  examples: ['loopsctl open', 'loopsctl open transactional cl1234567890abcdefghijklm', 'loopsctl open domain', 'loopsctl open api-keys'],
  commands: () =>
    PLACES.map((place) =>
      command({
        name: place.name,
        aliases: place.aliases,
        summary: place.summary,
        args:
          place.record === undefined ? [] : [{ name: 'id', description: `the ${place.record.what}'s id`, required: false, completes: place.record.completes }],
        examples: place.record === undefined ? [`loopsctl open ${place.name}`] : [`loopsctl open ${place.name}`, `loopsctl open ${place.name} <id>`],
        remote: false,
        isDefault: place.name === 'home',
        load: async () => (await import('./commands.js')).openPlace(place.path, place.record?.what),
      }),
    ),
});
