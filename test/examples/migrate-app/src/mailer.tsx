// Transactional emails through SendGrid: one made from a React Email template, one kept at SendGrid.
import sgMail from '@sendgrid/mail';
import { render } from '@react-email/render';
import WelcomeEmail from '../emails/welcome';

sgMail.setApiKey(process.env.SENDGRID_API_KEY ?? '');

export async function sendWelcome(email: string, firstName: string, loginUrl: string): Promise<void> {
  await sgMail.send({
    to: email,
    from: 'Shop <hello@shop.example>',
    subject: 'Welcome to the shop',
    html: await render(<WelcomeEmail firstName={firstName} loginUrl={loginUrl} />),
  });
}

export async function sendReceipt(email: string, order: { id: string; total: string }): Promise<void> {
  await sgMail.send({
    to: email,
    from: 'orders@shop.example',
    templateId: 'd-8f2c1e0b9a7d4c3e8f1a2b3c4d5e6f70',
    dynamicTemplateData: { orderId: order.id, total: order.total },
  });
}
