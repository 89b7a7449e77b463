import { ResourcePage } from '../../components/resource/ResourcePage';
import { expectedCampaignsResource } from './expectedCampaignsResource';

export default function ExpectedCampaignsPage() {
  return <ResourcePage resource={expectedCampaignsResource} />;
}
