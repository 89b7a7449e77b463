import { ResourcePage } from '../../components/resource/ResourcePage';
import { activityResource } from './activityResource';

export default function ActivityPage() {
  return <ResourcePage resource={activityResource} />;
}
