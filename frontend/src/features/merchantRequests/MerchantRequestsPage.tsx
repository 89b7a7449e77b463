import { ResourcePage } from '../../components/resource/ResourcePage';
import { merchantRequestsResource } from './merchantRequestsResource';

export default function MerchantRequestsPage() {
  return <ResourcePage resource={merchantRequestsResource} />;
}
