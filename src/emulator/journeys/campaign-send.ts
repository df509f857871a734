/**
 * `POST /_sandbox/campaigns/send`: a campaign sent as the app's Send button sends it (the API sends
 * no campaign): to every subscribed contact of its audience (its mailing list, segment and filter,
 * each read as a workflow's audience filter reads it), each send meeting the campaign's rates (`sandbox
 * engagement`) in its counters (`GET /v1/campaigns/{id}/metrics`) and its webhooks. Sent once: the
 * campaign is Sent after.
 */
import { filterMatches } from '../../platform/segments/evaluate.js';
import { type ApiAnswer, badRequest, conflict, find, noSendingDomain, objectBody, type RouteContext, stringField } from '../module.js';
import { campaigns } from '../routes/campaign-records.js';
import { campaignMetrics } from '../routes/campaigns.js';
import { contacts } from '../routes/contact-records.js';
import { countSend, nextSendOutcome } from '../routes/engagement.js';
import { segments } from '../routes/segments.js';
import { reportCampaignEmailSent, unsubscribeBounced } from '../routes/webhooks.js';
import { contactValues } from '../routes/workflow-emails.js';
import { sentSubject } from '../routes/workflow-messages.js';
import { NOTHING_SENT } from '../routes/workflow-records.js';
import { filteredContact } from './nodes.js';

export function sendCampaign(context: RouteContext): ApiAnswer {
  const { state } = context;
  const fields = objectBody(context.body, ['campaignId'], ['campaignId']);
  const campaign = find(campaigns.of(state), stringField(fields, 'campaignId'), 'campaign');
  if (!context.features.sendingDomain) throw noSendingDomain();
  if (campaign.status === 'Sent' || campaign.status === 'Sending') throw conflict(`campaign ${campaign.id} has been sent already`);
  if (campaign.emailMessageId === null) throw badRequest('Campaign has no email message.');
  const at = context.now().toISOString();
  const segment = campaign.audienceSegmentId === null ? undefined : find(segments.of(state), campaign.audienceSegmentId, 'audience segment');
  const filters = [segment?.filter, campaign.audienceFilter].filter((filter) => filter !== undefined && filter !== null);
  const audience = contacts
    .of(state)
    .filter(
      (contact) =>
        contact.subscribed &&
        !contact.suppressed &&
        (campaign.mailingListId === null || contact.mailingLists[campaign.mailingListId] === true) &&
        filters.every((filter) => filterMatches(filter, filteredContact(state, contact, at))),
    );
  const metrics = (campaignMetrics.of(state)[campaign.id] ??= { ...NOTHING_SENT });
  for (const contact of audience) {
    const outcome = nextSendOutcome(context, campaign.id);
    const subject = sentSubject(state, { emailMessageId: campaign.emailMessageId }, { contact: contactValues(contact) });
    reportCampaignEmailSent(
      context,
      contact,
      { campaignId: campaign.id, campaignName: campaign.name, mailingListId: campaign.mailingListId, emailMessageId: campaign.emailMessageId, subject },
      outcome,
    );
    countSend(metrics, outcome);
    if (outcome?.hardBounced === true) unsubscribeBounced(context, contact);
  }
  campaign.status = 'Sent';
  campaign.updatedAt = at;
  context.changed();
  return { status: 200, body: { campaignId: campaign.id, name: campaign.name, sent: audience.length, status: campaign.status } };
}
