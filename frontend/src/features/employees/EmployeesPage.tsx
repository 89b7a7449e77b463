import { ResourcePage } from '../../components/resource/ResourcePage';
import { employeesResource } from './employeesResource';

export default function EmployeesPage() {
  return <ResourcePage resource={employeesResource} />;
}
