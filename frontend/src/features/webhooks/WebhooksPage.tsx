import { ResourcePage } from '../../components/resource/ResourcePage';
import { webhooksResource } from './webhooksResource';

export default function WebhooksPage() {
  return <ResourcePage resource={webhooksResource} />;
}
