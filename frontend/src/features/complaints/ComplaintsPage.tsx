import { ResourcePage } from '../../components/resource/ResourcePage';
import { complaintsResource } from './complaintsResource';

export default function ComplaintsPage() {
  return <ResourcePage resource={complaintsResource} />;
}
