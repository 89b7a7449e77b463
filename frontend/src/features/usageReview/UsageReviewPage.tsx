import { ResourcePage } from '../../components/resource/ResourcePage';
import { usageReviewResource } from './usageReviewResource';

export default function UsageReviewPage() {
  return <ResourcePage resource={usageReviewResource} />;
}
