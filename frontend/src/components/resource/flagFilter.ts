import type { MessageKey } from '../../lib/i18n';
import type { ResourceFilter } from './types';

/**
 * A filter on a flag the server reads as `{param}=true|false` (`ValueKind::Bool`): a select of the
 * two words, after the 'All' every select offers.
 */
export function flagFilter(name: string, param: string, label: MessageKey, yes: MessageKey, no: MessageKey): ResourceFilter {
  return {
    name,
    param,
    label,
    kind: 'select',
    options: [
      { value: 'true', label: yes },
      { value: 'false', label: no },
    ],
  };
}
