import { ResourcePage } from '../../components/resource/ResourcePage';
import { merchantsResource } from './merchantsResource';

export default function MerchantsPage() {
  return <ResourcePage resource={merchantsResource} />;
}
