import { ResourcePage } from '../../components/resource/ResourcePage';
import { partnersResource } from './partnersResource';

export default function PartnersPage() {
  return <ResourcePage resource={partnersResource} />;
}
