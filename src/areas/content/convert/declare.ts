/** `content convert`'s declaration: its options, help and examples (what it does is command.ts). */
import { allowPrivateLinksOption, command } from '../../../core/declare.js';
import { EMAIL_WORDS } from '../../../platform/record-kinds.js';

export const convertCommand = command({
  name: 'convert',
  summary: 'Make MJML, React Email and HTML emails records of the content directory, listing what LMX cannot carry',
  args: [{ name: 'source', description: 'an .mjml, .tsx, .jsx, .html or .hbs email, or a directory of them', file: {} }],
  options: [
    {
      flags: '--kind <kind>',
      description: 'the record to make: transactional (default), campaign or workflow',
      choices: EMAIL_WORDS,
    },
    { flags: '--out <dir>', description: 'the content directory to write into (default ./loops)', file: { writes: true } },
    {
      flags: '--workflow <name>',
      description: "with --kind workflow: the workflow the email goes in, a directory of the tree as named or a new one (default: the email's name)",
    },
    {
      flags: '--upload',
      description: "upload the images the emails name (a path beside them, or an http(s) address) to the account's storage, and write their addresses",
      tier: 'write',
    },
    allowPrivateLinksOption('with --upload: download images at loopback, private and reserved addresses too (otherwise listed, not fetched)'),
    {
      flags: '--subject <text>',
      description: "the email's subject, over the one its source names ({{x}} and other variables translated as in its body); one email only",
    },
    {
      flags: '--preview-props',
      description: "a React Email template's lists in its own PreviewProps (steps, links) are its content: a .map over one is written out, item by item",
    },
    { flags: '--strict', description: 'exit 1 when anything could not be carried as it was' },
    { flags: '--force', description: 'replace records of the same name already in the directory' },
  ],
  help: `Reads each email without running anything (a React template is parsed, never
executed) and writes it as \`content pull\` lays a record out: for a transactional
email transactional/<name>/ (transactional.json, draft.json, draft.lmx), for a
campaign campaigns/<name>/, for a workflow email
workflows/<workflow>/emails/<name>/, with a draft workflow.yaml sending the
emails when the directory has none (one there is left as it is, and the node
to add is listed). Headings, paragraphs, links, bold and
colours, buttons, images, dividers, lists, code, 2 to 4 columns, social icons
and one level of coloured sections are mapped element by element; the page's
colours and font go into <Style />; spacing becomes the padding of the block
beside it, and each block's alignment and side padding are the source's (MJML's
defaults included), so it stands where it stood at 600 px. Each email's
fidelity line counts its words, links, images and the blocks that stand and
align as in the source at 600 and 375 px, the text blocks in the source's
colours (text and background) and the links in theirs, and the blocks at the
side (left, centred, right, full width) the source draws them at; what is not
kept is listed. Template variables ({{x}}, {{ customer.x }}, *|FNAME|*, React props)
become {data.x} in a transactional email, {contact.x} in a campaign, and in a
workflow email {contact.x} for the contact's properties and {event.x} for the
rest: each mapping is printed. An MJML partial that several emails include in
their bodies becomes one component (one in a section or column is written out
where it stands).

The subject is the source's: MJML's <mj-title>, HTML's <title>, a React Email
template's <title> in its <Head> or its exported \`subject\` string; --subject
gives it (converting one email). A record left with no subject is listed.
\`migrate report --out\` writes the records with the subject and sender each
email's send gives.

Whatever LMX cannot hold (tables of content, conditions and loops, filters and
defaults, custom CSS, background images, five or more columns, scripts, forms)
is listed with its file, line and column, what was done instead and what to
do; text is never dropped. The records are checked as \`content check\` checks
them, and its problems are listed too. Nothing is written when a record of the
same name is there, unless --force. With --upload, images the emails name by
a path beside them (logo.png) or at an http(s) address are uploaded to the
account's storage, each once, and the emails point at them (three calls each,
as \`uploads create\`), an image the email gives no width taking its file's. An
address is downloaded without the key, over http(s) only, up to the size the
API takes, and kept only if it is an image; one at a loopback, private or
reserved address (by name, by what the name resolves to, or by where it
redirects) is not fetched unless --allow-private-links; what is not uploaded is
listed, and the run exits 1. Without --upload, nothing is sent and no key is
needed.
See docs/migrate.md.`,
  mismatch: 'with --upload, an image could not be uploaded; with --strict, something could not be carried as it was',
  examples: [
    'loopsctl content convert emails/order-shipped.mjml --out converted',
    "loopsctl content convert emails/order-shipped.mjml --subject 'Your order {{orderId}} is on its way' --out titled",
    'loopsctl content convert emails --kind campaign --out campaigns',
    'loopsctl content convert emails/order-shipped.mjml --strict --json --out strict',
    'loopsctl content convert emails --upload --out uploaded',
  ],
  remote: true,
  tier: 'read',
  load: async () => (await import('./command.js')).convert,
});
