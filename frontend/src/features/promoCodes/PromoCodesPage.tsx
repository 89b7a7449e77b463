import { ResourcePage } from '../../components/resource/ResourcePage';
import { promoCodesResource } from './promoCodesResource';

export default function PromoCodesPage() {
  return <ResourcePage resource={promoCodesResource} />;
}
