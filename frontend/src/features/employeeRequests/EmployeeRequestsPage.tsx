import { ResourcePage } from '../../components/resource/ResourcePage';
import { employeeRequestsResource } from './employeeRequestsResource';

export default function EmployeeRequestsPage() {
  return <ResourcePage resource={employeeRequestsResource} />;
}
