/** `loopsctl migrate`: what moving an app from another email provider to Loops takes, read from its repository. */
import { command, group, type Spec } from '../../core/declare.js';

export const spec: Spec = group({
  name: 'migrate',
  summary: "Moving from another email provider: report what an app's repository sends, and what it takes",
  examples: ['loopsctl migrate report .'],
  commands: () => [
    command({
      name: 'report',
      summary: "Report an app's templates and its sends through another provider, and the Loops calls they become",
      args: [{ name: 'repository', description: "the app's repository (a directory)", file: {} }],
      options: [
        {
          flags: '--out <dir>',
          description: 'write the converted templates as records of this content directory, with the subject and sender their sends give',
          file: { writes: true },
        },
        { flags: '--force', description: 'with --out: replace records of the same name already in the directory' },
      ],
      help: `Reads the repository without running any of it, and reports:
  templates  every .mjml, React Email .tsx/.jsx, and .html or .hbs email
             (an HTML file in an emails/, mail/ or templates/ folder, or with
             {{ }} placeholders), converted in memory as \`content convert\`
             converts it: those it takes as they are, and those that need hand
             work, with what it would list for each, and the subject its
             record gets (the one its send gives, or its source's title);
             nothing is written unless --out names a content directory
  sends      the calls of SendGrid (@sendgrid/mail send), Postmark
             (sendEmailWithTemplate, sendEmail), Mailgun (messages.create),
             Resend (emails.send), Customer.io (sendEmail, track), Mailchimp
             Transactional (messages.sendTemplate), Nodemailer (sendMail, with
             a template engine's template and context) and Segment (track), in
             JavaScript and TypeScript, read with the parser \`check --code\`
             uses: the template each sends (kept at the provider, or a file of
             the repository), the variables it hands it, and the Loops call it
             becomes (sendTransactionalEmail with those data variables, or
             sendEvent)
  left       what the API cannot do for the move: the sending domain, the
             transactional emails to publish, templates kept at the provider,
             events, mailing lists
With --out, each template's record is written there as \`content convert\`
writes it (transactional/<path-name>/), its draft.json holding the subject, and
the sender (fromName, and fromEmail without its domain) of the send that sends
it; nothing is written when a record is already there (unless --force) or two
templates would make one. Symbolic links are not followed; dependencies
(node_modules, vendor) and builds are left out; files not read are named. See
docs/migrate.md.`,
      examples: ['loopsctl migrate report .', 'loopsctl migrate report . --json', 'loopsctl migrate report . --out moved'],
      remote: false,
      load: async () => (await import('./report.js')).report,
    }),
  ],
});
