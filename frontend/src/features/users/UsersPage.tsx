import { ResourcePage } from '../../components/resource/ResourcePage';
import { usersResource } from './usersResource';

export default function UsersPage() {
  return <ResourcePage resource={usersResource} />;
}
