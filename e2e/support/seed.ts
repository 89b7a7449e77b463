import { Role, type Api, type NewUser, type UserRow } from './api';

/**
 * Back-office staff to fill the Users list well past one page. First names
 * start with distinct letters (plain ASCII, so every collation sorts them
 * alike); three are Call Center, the rest User.
 */
const PEOPLE: [string, string, number][] = [
  ['Aydan', 'Aliyeva', Role.User],
  ['Babek', 'Hasanov', Role.User],
  ['Cavid', 'Guliyev', Role.User],
  ['Dilara', 'Ismayilova', Role.CallCenter],
  ['Elvin', 'Hasanov', Role.User],
  ['Farid', 'Abbasov', Role.User],
  ['Gunel', 'Rzayeva', Role.User],
  ['Huseyn', 'Karimov', Role.User],
  ['Ilkin', 'Safarov', Role.User],
  ['Jale', 'Hasanova', Role.User],
  ['Kamran', 'Mustafayev', Role.User],
  ['Lale', 'Qasimova', Role.User],
  ['Murad', 'Babayev', Role.CallCenter],
  ['Nigar', 'Huseynova', Role.User],
  ['Orxan', 'Valiyev', Role.User],
  ['Parvin', 'Jafarova', Role.User],
  ['Rashad', 'Nasirov', Role.User],
  ['Sabina', 'Efendiyeva', Role.User],
  ['Tural', 'Ahmadov', Role.CallCenter],
  ['Ulvi', 'Bagirov', Role.User],
  ['Vusal', 'Orujov', Role.User],
  ['Xayala', 'Zeynalova', Role.User],
  ['Yusif', 'Mirzayev', Role.User],
  ['Zaur', 'Kazimov', Role.User],
];

const OPERATORS = ['50', '51', '55', '70', '77', '99', '10'];

export function seedPeople(): (NewUser & { roleId: number })[] {
  return PEOPLE.map(([firstName, lastName, roleId], index) => ({
    firstName,
    lastName,
    email: `${firstName}.${lastName}@perkdesk.test`.toLowerCase(),
    phone: `994${OPERATORS[index % OPERATORS.length]}${String(2000000 + index * 37111).padStart(7, '0')}`,
    roleId,
  }));
}

/** Creates the seed users through the API, one after another, so ids follow the list's order. */
export async function seedUsers(api: Api): Promise<UserRow[]> {
  const created: UserRow[] = [];
  for (const person of seedPeople()) created.push(await api.createUser(person));
  return created;
}
