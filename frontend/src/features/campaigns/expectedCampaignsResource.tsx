import { confirmTool } from '../../components/resource/confirmTool';
import type { ResourceDeclaration } from '../../components/resource/types';
import { api } from '../../lib/api';
import { t } from '../../lib/i18n';
import { editCampaign } from './campaignForms';
import type { CampaignRow } from './schemas';

const approveTool = confirmTool<CampaignRow>({
  id: 'approve',
  label: 'expected.approve',
  icon: 'check',
  question: (campaign) => t('expected.approveQuestion', { name: campaign.nameAz }),
  run: (campaign) => api.put('campaign/approve', { id: campaign.id }),
  confirmation: (campaign) => t('expected.approved', { item: campaign.nameAz }),
});

/**
 * Expected Campaigns (the specification's campaigns part): campaigns partners sent that are not yet
 * confirmed, from `GET campaign/notConfirmed`. Approve moves one to Campaigns;
 * edit is the campaign form in the right side panel; the row calls (open,
 * edit, delete) go through `campaign` like any campaign's.
 */
export const expectedCampaignsResource: ResourceDeclaration<CampaignRow> = {
  title: 'expected.title',
  basePath: 'campaign/notConfirmed',
  itemPath: 'campaign',
  rowLabel: (campaign) => campaign.nameAz,
  nouns: { one: 'noun.expectedCampaign', many: 'noun.expectedCampaigns' },
  columns: [
    { field: 'filePath', label: 'field.image', kind: 'image', priority: 2 },
    { field: 'partnerName', label: 'field.partnerName', width: 14 },
    { field: 'nameAz', label: 'field.nameAz', width: 20 },
    { field: 'discountPercent', label: 'field.discountPercent', render: (campaign) => `${campaign.discountPercent}%` },
    { field: 'expireDate', label: 'field.expireDate', kind: 'date', priority: 2 },
  ],
  toolsLabel: 'table.rowActions',
  edit: editCampaign,
  remove: true,
  tools: [approveTool],
  exportSpec: { fileName: 'ExpectedCampaigns.xlsx' },
};
