import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { t } from '../../lib/i18n';

/** The legal text stays in English: it is the binding version. */
const clauses: { heading: string; body: string[] }[] = [
  {
    heading: '1. Who this agreement is for',
    body: [
      'This agreement applies to everyone who is given an account for the perkdesk back office: staff of the marketplace operator and people working on its behalf. By signing in you accept it.',
    ],
  },
  {
    heading: '2. Your account',
    body: [
      'Your account is personal. Do not share your password or your authenticator device, and do not let anyone else work under your name.',
      'Sign-in needs your e-mail, your password and a one-time code from your authenticator app. Tell an administrator at once if you think someone else knows your password or has your device; the administrator can deactivate the account and reissue your codes.',
      'Accounts created through the registration form stay inactive until an administrator activates them.',
    ],
  },
  {
    heading: '3. What you may do',
    body: [
      'Use the back office only for the work you were given: managing partners, campaigns, assets, employees and the other records your role allows. Your role decides what you can see and change; do not try to get around it.',
      'Do not export, copy or pass on personal data of employees, partners or merchants except where your work requires it, and delete exported files you no longer need.',
    ],
  },
  {
    heading: '4. Personal data',
    body: [
      'The back office holds personal data such as names, e-mail addresses and phone numbers. It is processed only to run the discount marketplace, kept no longer than needed and protected against unauthorised access.',
      'Sign-ins and changes are recorded with the account that made them, so that mistakes can be traced and corrected. Deleted records are kept out of lists and exports but are retained so that nothing an operator deletes is lost by accident.',
    ],
  },
  {
    heading: '5. Security',
    body: [
      'Sessions end when you sign out and are refreshed automatically while you work. Repeated failed sign-ins lock an account for a short time. Changing your password ends your other sessions.',
    ],
  },
  {
    heading: '6. Changes and ending',
    body: [
      'The operator may change this agreement; the current text is always on this page. The operator may suspend or close an account that breaks it. You can ask an administrator to close your account at any time.',
    ],
  },
];

export default function AgreementPage() {
  useSignals();
  return (
    <main className="min-h-full bg-surface px-6 py-12">
      <article className="mx-auto max-w-3xl space-y-8">
        <header className="space-y-2">
          <p className="text-sm font-semibold text-indigo-600">perkdesk</p>
          <h1 className="text-3xl font-semibold text-slate-900">{t('title.privacy')}</h1>
        </header>
        {clauses.map((clause) => (
          <section key={clause.heading} className="space-y-3">
            <h2 className="text-lg font-semibold text-slate-900">{clause.heading}</h2>
            {clause.body.map((paragraph) => (
              <p key={paragraph} className="leading-relaxed text-slate-700">
                {paragraph}
              </p>
            ))}
          </section>
        ))}
        <Link href="/" className="inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500">
          {t('error.goHome')}
        </Link>
      </article>
    </main>
  );
}
