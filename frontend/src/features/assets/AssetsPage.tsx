import { ResourcePage } from '../../components/resource/ResourcePage';
import { assetsResource } from './assetsResource';

export default function AssetsPage() {
  return <ResourcePage resource={assetsResource} />;
}
