import type { CreateFormSpec, EditFormSpec } from '../../components/resource/types';
import { api } from '../../lib/api';
import {
  campaignValuesOf,
  createCampaignFields,
  createCampaignForm,
  createCampaignSchema,
  editCampaignFields,
  editCampaignForm,
  editCampaignSchema,
  emptyCampaign,
  type CampaignDetail,
  type CampaignRow,
  type CampaignValues,
} from './schemas';

/** The campaign create form in the right-side panel (Campaigns). */
export const createCampaign: CreateFormSpec<CampaignValues> = {
  title: 'campaigns.create',
  fields: createCampaignFields,
  schema: createCampaignSchema(),
  surface: 'sidePanel',
  nameOf: (values) => values.nameAz,
  initialValues: emptyCampaign,
  submit: (values) => api.post('campaign', createCampaignForm(values)),
};

/** The campaign edit form in the right-side panel (Campaigns and Expected Campaigns). */
export const editCampaign: EditFormSpec<CampaignRow, CampaignValues> = {
  title: 'campaigns.edit',
  fields: editCampaignFields,
  schema: editCampaignSchema,
  surface: 'sidePanel',
  nameOf: (values) => values.nameAz,
  initialValues: (campaign) => campaignValuesOf(campaign as CampaignDetail),
  submit: (values, campaign) => api.put('campaign', editCampaignForm(values, campaign)),
};
