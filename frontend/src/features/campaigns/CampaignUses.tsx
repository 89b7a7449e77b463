import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../lib/i18n';
import { isExhausted } from './limits';
import type { CampaignRow } from './schemas';

/** The Uses cell: the count, 'of' the total limit when there is one, and a badge once it is used up. */
export function CampaignUses({ campaign }: { campaign: CampaignRow }) {
  useSignals();
  const count = campaign.usesCount;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span>{campaign.usageLimitTotal == null ? count : t('campaigns.usesOf', { count, limit: campaign.usageLimitTotal })}</span>
      {isExhausted(campaign) && (
        <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900">{t('campaigns.limitReached')}</span>
      )}
    </span>
  );
}
