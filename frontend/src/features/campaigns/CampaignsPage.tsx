import { ResourcePage } from '../../components/resource/ResourcePage';
import { campaignsResource } from './campaignsResource';

export default function CampaignsPage() {
  return <ResourcePage resource={campaignsResource} />;
}
