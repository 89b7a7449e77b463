import { ResourcePage } from '../../components/resource/ResourcePage';
import { categoryNamesResource } from './categoryNamesResource';

export default function CategoryNamesPage() {
  return <ResourcePage resource={categoryNamesResource} />;
}
