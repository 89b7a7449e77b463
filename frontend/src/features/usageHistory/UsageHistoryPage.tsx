import { ResourcePage } from '../../components/resource/ResourcePage';
import { usageHistoryResource } from './usageHistoryResource';

export default function UsageHistoryPage() {
  return <ResourcePage resource={usageHistoryResource} />;
}
