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
      help: `Reads the repository without running any of it, and reports:
  templates  every .mjml, React Email .tsx/.jsx, and .html or .hbs email
             (an HTML file in an emails/, mail/ or templates/ folder, or with
             {{ }} placeholders), converted in memory as \`content convert\`
             converts it: those it takes as they are, and those that need hand
             work, with what it would list for each; nothing is written
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
Symbolic links are not followed; dependencies (node_modules, vendor) and
builds are left out; files not read are named. See docs/migrate.md.`,
      examples: ['loopsctl migrate report .', 'loopsctl migrate report . --json'],
      remote: false,
      load: async () => (await import('./report.js')).report,
    }),
  ],
});
