import { useSignals } from '@preact/signals-react/runtime';
import { useId } from 'react';
import { t } from '../../lib/i18n';
import type { PartnerCity } from './schemas';

/** The partner's branches in its drawer: city, address and coordinates of each. */
export function PartnerBranches({ cities }: { cities: PartnerCity[] | undefined }) {
  useSignals();
  const headingId = useId();
  // The list row has no branches; they arrive with the detail.
  if (!cities) return null;
  return (
    <section aria-labelledby={headingId} className="border-t border-slate-100 pt-4">
      <h3 id={headingId} className="mb-3 text-sm font-semibold text-slate-900">
        {t('partners.branches')}
      </h3>
      {cities.length === 0 ? (
        <p className="text-sm text-slate-500">{t('partners.noBranches')}</p>
      ) : (
        <ul className="space-y-2">
          {cities.map((city) => (
            <li key={city.id} className="rounded-lg border border-slate-200 px-3 py-2 text-sm">
              <p className="font-medium text-slate-900">{city.cityName}</p>
              <p className="text-slate-700">{city.address}</p>
              <p className="text-xs text-slate-500">
                <span className="sr-only">{`${t('field.latitude')}, ${t('field.longitude')}: `}</span>
                {city.latitude}, {city.longitude}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
