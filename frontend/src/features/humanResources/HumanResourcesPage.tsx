import { ResourcePage } from '../../components/resource/ResourcePage';
import { humanResourcesResource } from './humanResourcesResource';

export default function HumanResourcesPage() {
  return <ResourcePage resource={humanResourcesResource} />;
}
