import { ResourcePage } from '../../components/resource/ResourcePage';
import { notificationsResource } from './notificationsResource';

export default function NotificationsPage() {
  return <ResourcePage resource={notificationsResource} />;
}
