import type { ResourceDeclaration } from '../../components/resource/types';
import { formTool } from '../../components/resource/rowTools';
import { api } from '../../lib/api';
import { t } from '../../lib/i18n';
import { CampaignDetails } from './CampaignDetails';
import { CampaignUses } from './CampaignUses';
import { createCampaign, editCampaign } from './campaignForms';
import { campaignName, notificationTextFields, notificationTextSchema, type CampaignRow, type NotificationTextValues } from './schemas';

/** 'Send notification': only while none was sent (notificationStatus 0); the server stores a type-2 notification and sets the status to 1. */
export const sendNotificationTool = {
  ...formTool<CampaignRow, NotificationTextValues>({
    id: 'send-notification',
    label: 'campaigns.sendNotification',
    icon: 'notifications',
    fields: notificationTextFields,
    schema: notificationTextSchema,
    initialValues: () => ({ text: '' }),
    submit: (values, campaign) => api.put('campaign/changeNotificationStatus', { id: campaign.id, text: values.text.trim() }),
    confirmation: (campaign) => t('campaigns.notificationSent', { item: campaignName(campaign) }),
    submitLabel: 'button.send',
  }),
  isAvailable: (campaign: CampaignRow) => campaign.notificationStatus === 0,
};

/**
 * Campaigns (the specification's campaigns part, Campaigns): confirmed campaigns with the name in the
 * header's content language; create and edit in the right-side panel; the
 * 'Campaign details' drawer; 'Send notification' while none was sent.
 */
export const campaignsResource: ResourceDeclaration<CampaignRow> = {
  title: 'campaigns.title',
  basePath: 'campaign',
  rowLabel: campaignName,
  nouns: { one: 'noun.campaign', many: 'noun.campaigns' },
  // Every spec column shows from 1280 px: the two-word headers take two lines to fit.
  columns: [
    { field: 'filePath', label: 'field.image', kind: 'image', priority: 2 },
    { field: 'partnerName', label: 'field.partnerName', width: 14, priority: 2, wrapHeader: true },
    { field: 'name', label: 'field.campaignName', width: 20, wrapHeader: true },
    { field: 'discountPercent', label: 'field.discountPercent', render: (campaign) => `${campaign.discountPercent}%`, wrapHeader: true },
    { field: 'specialOffer', label: 'field.specialOffer', kind: 'yesNo', priority: 3, wrapHeader: true },
    { field: 'isPremium', label: 'field.premium', kind: 'yesNo', priority: 3 },
    { field: 'expireDate', label: 'field.expireDate', kind: 'date', priority: 2, wrapHeader: true },
    { field: 'order', label: 'field.order', priority: 3 },
    { field: 'usesCount', label: 'field.uses', sortable: false, render: (campaign) => <CampaignUses campaign={campaign} />, priority: 2, wrapHeader: true },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'partnerName', param: 'PartnerName', label: 'field.partnerName' },
    { name: 'campaignName', param: 'CampaignName', label: 'field.campaignName' },
    { name: 'discountPercent', param: 'DiscountPercent', label: 'field.discountPercent', kind: 'number' },
    { name: 'expireDate', param: 'ExpireDate', label: 'field.expireDate', kind: 'date' },
  ],
  create: createCampaign,
  edit: editCampaign,
  view: { title: 'campaigns.details', render: (campaign) => <CampaignDetails campaign={campaign} /> },
  remove: true,
  toggle: true,
  tools: [sendNotificationTool],
  exportSpec: { fileName: 'Campaign.xlsx' },
};
