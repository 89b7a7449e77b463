import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../lib/i18n';
import { fieldLabel, parseChanges, valueText } from './activityText';

/** The fields an entry changed, side by side: before and after (a secret only as changed). */
export function ChangeList({ changes }: { changes: string | null | undefined }) {
  useSignals();
  const fields = parseChanges(changes);
  if (!fields.length) return null;
  return (
    <table className="mt-2 w-full table-fixed text-left text-xs">
      <thead className="text-slate-500">
        <tr>
          <th scope="col" className="w-1/3 py-1 pr-2 font-medium">
            {t('activity.field')}
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            {t('activity.before')}
          </th>
          <th scope="col" className="py-1 font-medium">
            {t('activity.after')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 text-slate-900">
        {fields.map((change) => (
          <tr key={change.field}>
            <th scope="row" className="py-1 pr-2 align-top font-medium break-words">
              {fieldLabel(change.field)}
            </th>
            {change.secret ? (
              <td colSpan={2} className="py-1 align-top italic text-slate-600">
                {t('activity.secretChanged')}
              </td>
            ) : (
              <>
                <td className="py-1 pr-2 align-top break-words text-slate-600">
                  <del className="no-underline">{valueText(change.field, change.before)}</del>
                </td>
                <td className="py-1 align-top break-words">
                  <ins className="no-underline">{valueText(change.field, change.after)}</ins>
                </td>
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
