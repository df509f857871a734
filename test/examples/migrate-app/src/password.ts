// Password resets through SMTP, with a Handlebars template of the repository.
import nodemailer from 'nodemailer';
import hbs from 'nodemailer-express-handlebars';

const transporter = nodemailer.createTransport({ host: 'smtp.shop.example', port: 587 });
transporter.use('compile', hbs({ viewEngine: { partialsDir: 'templates', defaultLayout: false }, viewPath: 'templates' }));

export async function sendPasswordReset(email: string, resetUrl: string, firstName: string): Promise<void> {
  await transporter.sendMail({
    from: 'security@shop.example',
    to: email,
    subject: 'Reset your password',
    template: 'password-reset',
    context: { resetUrl, firstName },
  } as never);
}
