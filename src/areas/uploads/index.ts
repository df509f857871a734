/** `loopsctl uploads`: image assets for emails. */
import { command, group, type Spec } from '../../core/declare.js';

export const spec: Spec = group({
  name: 'uploads',
  summary: 'Upload images for use in emails',
  examples: ['loopsctl uploads create logo.png'],
  commands: () => [
    command({
      name: 'create',
      summary: 'Upload an image (JPEG, PNG, GIF or WebP, at most 4,000,000 bytes) and print its asset id and public URL',
      args: [
        {
          name: 'file',
          description: 'the image file, or - to read it from stdin',
          file: { inline: { name: 'image', encoding: 'base64', description: 'the image' } },
        },
      ],
      options: [
        {
          flags: '--type <mime>',
          description: "the image's type, when its name does not say (default: from the extension, or the first bytes)",
          choices: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
        },
      ],
      help: `Three steps: the API hands out a presigned URL, the file goes there (without
the API key), and the API finalizes the asset. The size and type are checked
before anything is sent. Completing an upload counts against the team's daily
upload quota; a 429 there is the quota, and is not retried.`,
      examples: [
        'loopsctl uploads create logo.png',
        'loopsctl uploads create banner --type image/jpeg --json',
        'curl -s https://example.com/logo.png | loopsctl uploads create -',
      ],
      remote: true,
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
  ],
});
