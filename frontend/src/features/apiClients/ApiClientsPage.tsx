import { ResourcePage } from '../../components/resource/ResourcePage';
import { apiClientsResource } from './apiClientsResource';

export default function ApiClientsPage() {
  return <ResourcePage resource={apiClientsResource} />;
}
