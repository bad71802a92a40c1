// /back-office/templates: the words the bank's rejections and requests for more information give applicants,
// edited by administrators (the others read them).
import { useIntl } from 'react-intl';
import { describeMessages } from '../../../i18n/messages';
import { RouteTitle } from '../../../routing/RouteTitle';
import { useGetTemplatesQuery, useSaveTemplateMutation, type StaffApiError } from '../backOfficeApi';
import { BackOfficeFrame } from '../BackOfficeFrame';
import { refusalMessage } from '../refusals';
import { TemplatesView } from './TemplatesView';

const messages = describeMessages({
  loading: { id: 'backOffice.templates.loading', defaultMessage: 'Loading the templates…' },
});

export function TemplatesScreen() {
  return <BackOfficeFrame>{(roles) => <TemplatesPage canEdit={roles.includes('administrator')} />}</BackOfficeFrame>;
}

function TemplatesPage({ canEdit }: { canEdit: boolean }) {
  const intl = useIntl();
  const templates = useGetTemplatesQuery();
  const [save] = useSaveTemplateMutation();
  const failed = templates.isError ? refusalMessage(templates.error as StaffApiError) : undefined;
  return (
    <section className="dv-bo-templates" aria-labelledby="bo-templates-title">
      <RouteTitle name="back-office-templates" id="bo-templates-title" />
      {templates.data ? (
        <TemplatesView
          templates={templates.data}
          canEdit={canEdit}
          onSave={async (template) => {
            // A refusal is thrown with its code, which the editor says in words.
            await save(template).unwrap();
          }}
        />
      ) : failed ? (
        <p role="alert">{intl.formatMessage(failed.descriptor, failed.values)}</p>
      ) : (
        <p role="status">{intl.formatMessage(messages.loading)}</p>
      )}
    </section>
  );
}
