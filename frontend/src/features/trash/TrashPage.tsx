import { ResourcePage } from '../../components/resource/ResourcePage';
import { trashResource } from './trashResource';

export default function TrashPage() {
  return <ResourcePage resource={trashResource} />;
}
