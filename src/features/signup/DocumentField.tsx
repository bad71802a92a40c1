import { DocumentUpload, type DocumentUploadProps } from '../documents/DocumentUpload';
import { useListDocumentsQuery } from '../documents/documentsApi';
import type { StepField } from './useStepForm';

type DocumentFieldProps = Pick<DocumentUploadProps, 'kind' | 'label' | 'description' | 'format' | 'capture'> & { field: StepField<string> };

/**
 * One upload of a document step, tied to its field (the storage key of the document the server checked): an
 * upload fills the field and takes its error away, and a missing document is said under the upload.
 */
export function DocumentField({ field, ...upload }: DocumentFieldProps) {
  const { data } = useListDocumentsQuery();
  const { ref, value, set, clearError, error, errorText } = field;
  const uploaded = data?.documents.find((document) => document.kind === upload.kind && document.key === value) ?? null;
  return (
    <div>
      <DocumentUpload
        {...upload}
        document={uploaded}
        inputRef={ref}
        onUploaded={(document) => {
          set(document.key);
          clearError();
        }}
      />
      {error && (
        <p className="dv-step__feedback" role="alert">
          {errorText}
        </p>
      )}
    </div>
  );
}
