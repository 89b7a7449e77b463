import { useSignals } from '@preact/signals-react/runtime';
import { DetailImage, DetailList } from '../../components/Drawer';
import { StatusBadge } from '../../components/StatusToggle';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import type { ReactNode } from 'react';
import { CampaignUses } from './CampaignUses';
import { periodLabel } from './limits';
import { campaignName, isCampaignDetail, type CampaignDetail, type CampaignRow } from './schemas';

const yesNo = (value: boolean) => (value ? t('button.yes') : t('button.no'));

/** The drawer's lines about the limits: the uses and what is left, the per-employee limit, verified only. */
function limitItems(campaign: CampaignRow): { label: string; value: ReactNode }[] {
  const period = periodLabel(campaign.usageLimitPeriod ?? '');
  return [
    { label: t('field.uses'), value: <CampaignUses campaign={campaign} /> },
    {
      label: t('field.usesRemaining'),
      value: campaign.usesRemaining == null ? t('campaigns.unlimited') : campaign.usesRemaining,
    },
    {
      label: t('field.usageLimitPerEmployee'),
      value:
        campaign.usageLimitPerEmployee == null || !period
          ? t('campaigns.unlimited')
          : t('campaigns.perEmployee', { limit: campaign.usageLimitPerEmployee, period: t(period) }),
    },
    { label: t('field.verifiedOnly'), value: campaign.verifiedOnly ? t('button.yes') : t('button.no') },
  ];
}

/**
 * The 'Campaign details' drawer: every field of the campaign, its names and
 * descriptions in Az, En and Ru, both images and the linked assets. Until the
 * record arrives the list row's fields show.
 */
export function CampaignDetails({ campaign }: { campaign: CampaignRow | CampaignDetail }) {
  useSignals();
  const detail = isCampaignDetail(campaign) ? campaign : null;
  const name = campaignName(campaign);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap gap-4">
        <figure className="space-y-1">
          <DetailImage path={campaign.filePath} alt={`${t('field.image')}: ${name}`} />
          <figcaption className="text-xs text-slate-600">{t('field.image')}</figcaption>
        </figure>
        {detail && (
          <figure className="space-y-1">
            <DetailImage path={detail.backgroundFilePath} alt={`${t('field.backgroundImage')}: ${name}`} />
            <figcaption className="text-xs text-slate-600">{t('field.backgroundImage')}</figcaption>
          </figure>
        )}
      </div>
      <DetailList
        items={[
          { label: t('field.partnerName'), value: campaign.partnerName },
          { label: t('field.campaignCategory'), value: campaign.categoryName },
          { label: t('field.discountPercent'), value: `${campaign.discountPercent}%` },
          { label: t('field.startDate'), value: formatDateTime(campaign.startDate) },
          { label: t('field.expireDate'), value: formatDateTime(campaign.expireDate) },
          { label: t('field.specialOffer'), value: yesNo(campaign.specialOffer) },
          { label: t('field.premium'), value: yesNo(campaign.isPremium) },
          { label: t('field.trend'), value: yesNo(campaign.isTrend) },
          { label: t('field.order'), value: campaign.order },
          { label: t('field.status'), value: <StatusBadge active={campaign.isActive} /> },
          {
            label: t('field.notificationStatus'),
            value: campaign.notificationStatus === 0 ? t('notificationStatus.notSent') : t('notificationStatus.sent'),
          },
          ...limitItems(campaign),
          ...(detail
            ? [
                { label: t('field.nameAz'), value: detail.nameAz },
                { label: t('field.nameEn'), value: detail.nameEn },
                { label: t('field.nameRu'), value: detail.nameRu },
                { label: t('field.descriptionAz'), value: <span className="whitespace-pre-line">{detail.descriptionAz}</span> },
                { label: t('field.descriptionEn'), value: <span className="whitespace-pre-line">{detail.descriptionEn}</span> },
                { label: t('field.descriptionRu'), value: <span className="whitespace-pre-line">{detail.descriptionRu}</span> },
                {
                  label: t('field.assets'),
                  value:
                    detail.assetList.length > 0 ? (
                      <ul className="list-inside list-disc">
                        {detail.assetList.map((asset) => (
                          <li key={asset.id}>{asset.name}</li>
                        ))}
                      </ul>
                    ) : (
                      t('table.noValue')
                    ),
                },
                ...(detail.createdAt ? [{ label: t('field.createdAt'), value: formatDateTime(detail.createdAt) }] : []),
              ]
            : [{ label: t('field.nameAz'), value: campaign.nameAz }]),
        ]}
      />
    </div>
  );
}
